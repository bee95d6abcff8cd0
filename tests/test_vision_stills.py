"""Honest answers on every still (an image file): a reading below the click threshold is said to
be uncertain, and why, by every command that reads a screenshot (`detect`, `solve --image`,
`hint --image`, `run --image`), and `run --image` plans no clicks from it; `solve --json` never
reports one solution for a puzzle it did not count."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.vision import read_board
from tests.render import cell_centres, draw_pointer, render_board

N, CELL = 9, 48


def _level() -> np.ndarray:
    return render_board(generate_puzzle(N, rng=5).regions, ["." * N] * N, cell=CELL)


def _with_pointer(image: np.ndarray) -> np.ndarray:
    out = image.copy()
    x, y = cell_centres(N, CELL)[4][4]
    draw_pointer(out, (int(x), int(y)), 2.0, True)
    return out


def _with_blob(image: np.ndarray) -> np.ndarray:
    out = image.copy()
    x, y = cell_centres(N, CELL)[5][5]
    cv2.circle(out, (int(x), int(y)), CELL * 2 // 5, (30, 30, 30), -1)
    return out


def _rotated(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 1.0, 1.0)
    return cv2.warpAffine(image, turn, (w, h), borderValue=tuple(int(v) for v in image[0, 0]))


UNSURE = {"pointer": _with_pointer, "blob": _with_blob, "rotated-1-degree": _rotated}


@pytest.fixture(scope="module", params=sorted(UNSURE))
def unsure_still(request, tmp_path_factory) -> Path:
    image = UNSURE[request.param](_level())
    assert not read_board(image, still=True).is_certain  # the premise: a reading below the threshold
    path = tmp_path_factory.mktemp("stills") / f"{request.param}.png"
    cv2.imwrite(str(path), image[:, :, ::-1])
    return path


def _run(capsys, *argv: str) -> tuple[int, str]:
    """Exit status, and what was printed (an error line on stderr after the output)."""
    status = main(list(argv))
    printed = capsys.readouterr()
    return status, printed.out + printed.err


def test_solve_image_says_an_uncertain_reading_is_uncertain_and_why(capsys, unsure_still):
    _status, out = _run(capsys, "solve", "--image", str(unsure_still))
    lines = out.splitlines()
    assert lines[0].startswith(f"read a {N}x{N} board from ") and "(confidence 0." in lines[0]
    assert lines[1].startswith("warning: the reading is uncertain (") and "check it with" in lines[1]
    _, out = _run(capsys, "solve", "--image", str(unsure_still), "--json")
    record = json.loads(out)
    assert record["certain"] is False and record["reasons"] and record["confidence"] < 0.9


def test_run_image_plans_no_clicks_from_an_uncertain_reading(capsys, unsure_still):
    status, out = _run(capsys, "run", "--image", str(unsure_still))
    assert status == 1
    assert any(line.startswith("warning: the reading is uncertain (") and "no clicks planned" in line
               for line in out.splitlines())
    assert "plan:" not in out
    _, out = _run(capsys, "run", "--image", str(unsure_still), "--json")
    data = json.loads(out)
    assert data["plan"] is None and data["certain"] is False and data["ok"] is False


def test_hint_and_detect_say_so_too(capsys, unsure_still):
    status, said = _run(capsys, "hint", "--image", str(unsure_still))
    if status == 2:  # no advice: the puzzle as (mis)read has no single solution, and it says why
        assert "as the board was read; warning: the reading is uncertain (" in said
    else:
        assert "warning: the reading is uncertain (" in said
    _, out = _run(capsys, "detect", str(unsure_still))
    assert "unsure: " in out


def test_a_certain_still_is_planned_and_says_its_confidence(capsys, tmp_path):
    path = tmp_path / "clean.png"
    cv2.imwrite(str(path), _level()[:, :, ::-1])
    status, out = _run(capsys, "run", "--image", str(path))
    assert status == 0 and "(confidence 1.00)" in out and "plan: " in out and "warning" not in out
    status, out = _run(capsys, "solve", "--image", str(path))
    assert status == 0 and out.startswith(f"read a {N}x{N} board from {path} (confidence 1.00)")


def test_solve_json_counts_to_two_without_count(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("AABB\nAABB\nCCDD\nCCDD\n\nABBB\nABCC\nDDCC\nDDDD\n")
    _, out = _run(capsys, "solve", str(path), "--json")
    assert [json.loads(line)["solutions"] for line in out.splitlines()] == [2, 1]


@pytest.mark.shared
def test_an_eight_by_eight_cropped_with_any_small_margin_reads_exactly():
    """Margins of 5, 7, 8 and 9 px read; 6 px once said "touches the left and bottom edges": the
    crop ended in the anti-aliased pixel after the frame on one side, and right at the frame's end
    on another (a frame as thick as the others and thicker than any region border: not a border
    the edge runs along)."""
    from queens_autosolve.capture import load_image
    from queens_autosolve.vision import read_image
    from tests.environment import shared_path

    path = shared_path("screens", "an21p__data_0_input.png")
    whole = read_image(path)
    image = load_image(path).rgb
    x, y, w, h = whole.box.as_tuple()
    for margin in range(2, 13):
        reading = read_board(image[y - margin : y + h + margin, x - margin : x + w + margin], still=True)
        assert reading.n == 8 and reading.regions == whole.regions, margin
        assert reading.is_certain and not reading.tight_crop, (margin, reading.reasons)


# --- refusals name the real cause; enlarged pictures read -----------------------------------------


@pytest.mark.parametrize("quality", [10, 3])
def test_a_whole_board_saved_as_a_coarse_jpeg_is_refused_as_that(quality, tmp_path, capsys):
    """It said "cut off past the right and top edges (at least 74 px)"."""
    from PIL import Image

    path = tmp_path / f"q{quality}.jpg"
    Image.fromarray(_level()).save(path, "JPEG", quality=quality)
    status, said = _run(capsys, "detect", str(path))
    assert status == 2 and said.count("\n") == 1
    assert f"the picture is a JPEG saved at quality {quality}, whose 8-pixel blocks blur" in said
    assert "cut off" not in said


@pytest.mark.parametrize("depth", ["I;16", "F"])
def test_a_greyscale_picture_of_16_bits_or_floats_reads_as_its_8_bit_copy(depth, tmp_path):
    """Pillow's RGB conversion clips such levels at 255: a 16-bit greyscale screenshot turned all
    white and said "no grid of square cells"."""
    from PIL import Image

    from queens_autosolve.vision import read_image
    from tests.environment import shared_path

    grey = Image.open(shared_path("screens", "an21p__data_0_input.png")).convert("L")
    levels = np.asarray(grey)
    wide = Image.fromarray(levels.astype(np.uint16) * 257 if depth == "I;16"
                           else levels.astype(np.float32) / 255)
    eight, deep = tmp_path / "eight.png", tmp_path / ("deep.png" if depth == "I;16" else "deep.tiff")
    grey.save(eight)
    wide.save(deep)
    assert Image.open(deep).mode == depth
    reading, expected = read_image(deep), read_image(eight)
    assert reading.n == expected.n and reading.regions == expected.regions
    assert reading.states == expected.states and reading.confidence == expected.confidence


@pytest.mark.parametrize("factor", [8, 15])
def test_a_board_enlarged_by_repeating_pixels_reads_as_drawn(factor):
    """8x once said "cut off ... bottom (642 px)", 15x "two boards found"."""
    image = render_board(generate_puzzle(7, rng=2).regions, ["." * 7] * 7, cell=24)
    small = read_board(image, still=True)
    # cropped before and after enlarging: the first blocks are cut short
    big = np.repeat(np.repeat(image[3:, 5:], factor, axis=0), factor, axis=1)[4:, 1:]
    reading = read_board(big, still=True)
    assert reading.n == 7 and reading.regions == small.regions and reading.is_certain
    (x0, y0), (x1, y1) = reading.centres[0][0], small.centres[0][0]
    assert abs(x0 - ((x1 - 5) * factor - 1)) <= factor and abs(y0 - ((y1 - 3) * factor - 4)) <= factor


def test_a_picture_larger_than_any_screen_is_refused_before_decoding_without_stray_warnings(
    tmp_path, capsys
):
    """90 Mpx (past Pillow's warning size, 89): decoded whole, a 144 Mpx picture took 771 MB and
    2.9 s; refused from its header, in one line saying what to do, and nothing leaks onto stderr."""
    from PIL import Image

    path = tmp_path / "huge.png"
    Image.new("1", (9500, 9500), 1).save(path)  # one bit a pixel: saved in a tenth of the time
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        status, said = _run(capsys, "detect", str(path))
    assert status == 2 and "the picture is too large: 9500x9500, 90 Mpx" in said
    assert "scale it down or crop it to the board" in said and said.count("\n") == 1


def test_a_large_picture_is_read_reduced_and_answers_in_its_own_pixels(tmp_path, capsys):
    """A picture over MAX_SIDE px is read reduced (it once took gigabytes and seconds); detect
    still gives the cells where they are in the file."""
    from PIL import Image

    from queens_autosolve.capture.image_file import MAX_SIDE

    image = _level()
    small = read_board(image, still=True)
    factor = MAX_SIDE // image.shape[0] + 1
    path = tmp_path / "large.png"
    Image.fromarray(np.repeat(np.repeat(image, factor, axis=0), factor, axis=1)).save(path, compress_level=1)
    status, out = _run(capsys, "detect", str(path), "--json")
    data = json.loads(out)
    assert status == 0 and data["n"] == N and data["certain"]
    x, y = data["centres"][4][4]
    sx, sy = small.centres[4][4]
    assert abs(x - sx * factor) <= factor and abs(y - sy * factor) <= factor


def _with_page_tooltip(image: np.ndarray) -> np.ndarray:
    """The real page's hover: the cell under the pointer darkened, a dark "Queen" label over the
    cell above it (the practice page's --tooltip-ms shows the same)."""
    out = render_board(generate_puzzle(N, rng=5).regions, ["." * N] * N, cell=CELL, hover=(4, 4))
    x, y = cell_centres(N, CELL)[3][4]
    w, h = int(CELL * 1.3), int(CELL * 0.6)
    left, top = int(x) - w // 2, int(y) - h // 2
    cv2.rectangle(out, (left, top), (left + w, top + h), (31, 31, 31), -1)
    cv2.putText(out, "Queen", (left + 5, int(y) + 6), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out


def test_a_still_with_the_pages_tooltip_is_never_answered_as_if_sure(capsys, tmp_path):
    """The probe's tooltip still was read as 3 queens and answered with no word of doubt: now it is
    refused in one line, or answered with the warning, never planned."""
    path = tmp_path / "tooltip.png"
    cv2.imwrite(str(path), _with_page_tooltip(_level())[:, :, ::-1])
    status, out = _run(capsys, "solve", "--image", str(path))
    if status == 2:
        assert out.count("\n") == 1 and "Traceback" not in out
    else:
        assert "warning: the reading is uncertain (" in out, out
    status, out = _run(capsys, "run", "--image", str(path))
    assert status != 0 and "plan:" not in out
