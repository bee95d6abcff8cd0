"""Every real screenshot in ../shared/data/screens is read exactly: size, regions (up to
relabelling) and, for solved boards, the queens. The 11 that show the whole board are sure enough
to act on. The 17 crops that cut into the outer cells on every side (no frame left: the usual way
a board is kept and shared) are read as tight crops of the whole board and say so, just below the
click threshold (a piece of a larger board shows the same pixels: vision/tight.py); read as a
live window they would be refused as cut off (tests/test_vision_clip.py)."""

from __future__ import annotations

import json

import pytest

from queens_autosolve.autosolve.cli import main as cli_main
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.vision import read_image
from queens_autosolve.vision.tight import TIGHT_REASON, TIGHT_SCORE
from tests.environment import SHARED_DATA, shared_path

NO_FRAME = "cropped board (no page chrome)"  # labels.json's note for the crops inside the frame


def _screen_names() -> list[str]:
    labels = SHARED_DATA / "screens" / "labels.json"
    if not labels.exists():
        return ["(shared data absent)"]
    return sorted(json.loads(labels.read_text()))


@pytest.fixture(scope="module")
def labels() -> dict[str, dict]:
    return json.loads(shared_path("screens", "labels.json").read_text())


@pytest.mark.shared
@pytest.mark.parametrize("name", _screen_names())
def test_real_screenshot_is_read_exactly_and_a_tight_crop_says_so(name, labels):
    label = labels[name]
    reading = read_image(shared_path("screens", name))
    assert reading.n == label["n"]
    # same partition of the cells, whatever the region names
    assert Puzzle.from_region_grid(reading.regions).regions == Puzzle.from_rows(label["regions"]).regions
    if label["state"] == "solved":
        assert sorted(reading.queens()) == sorted(tuple(cell) for cell in label["queens"])
        assert reading.solved_look
    tight = label["note"].startswith(NO_FRAME)
    assert reading.tight_crop == tight
    if tight:  # the tight crop is the only doubt
        assert reading.confidence == TIGHT_SCORE and reading.reasons == (TIGHT_REASON,)
    else:
        assert reading.is_certain, reading.reasons


@pytest.mark.shared
@pytest.mark.parametrize("name", [name for name in _screen_names() if name.startswith("EmmettMyer")])
def test_hint_on_a_tight_crop_gives_a_step_or_the_mistakes(name, labels, capsys):
    path = shared_path("screens", name)
    assert cli_main(["hint", "--image", str(path), "--json"]) == 0
    advice = json.loads(capsys.readouterr().out)
    assert advice["n"] == labels[name]["n"] and advice["reasons"] == [TIGHT_REASON]
    assert advice["step"] is not None or advice["mistakes"] or advice["solved"], advice


@pytest.mark.shared
def test_detect_says_the_frame_was_cut_by_a_tight_crop(capsys):
    path = shared_path("screens", "EmmettMyer__boards_test7.png")
    assert cli_main(["detect", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["frame"] == "cut, read as a tight crop"
    assert cli_main(["detect", str(path)]) == 0
    assert "read as a tight crop of the whole board" in capsys.readouterr().out
    whole = shared_path("screens", "adam-zaidi__testqueensboard.png")
    assert cli_main(["detect", str(whole), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["frame"] == "whole"


@pytest.mark.shared
def test_dark_and_light_phone_screens_give_the_board_where_it_is(labels):
    """Whole phone screenshots: the box is the board, not the page, and centres fall inside it."""
    for name in ("an21p__data_2_in.jpg", "an21p__data_2025-04-20.jpeg"):
        reading = read_image(shared_path("screens", name))
        x, y, w, h = reading.box.as_tuple()
        assert 0.95 < w / h < 1.05 and y > 200  # below the phone's status and title bars
        for row in reading.centres:
            for cx, cy in row:
                assert x < cx < x + w and y < cy < y + h
