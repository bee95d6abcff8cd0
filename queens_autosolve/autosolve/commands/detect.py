"""`queens-autosolve detect`: read the board in a screenshot and print what was seen: the puzzle in
the text format and the cell states, or one JSON object; `--debug` draws the reading over the image
(or, when no board could be read, the candidate cells vision found and why it gave up).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from queens_autosolve.autosolve.cli import check_output_file
from queens_autosolve.capture import Frame, load_image
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.formats import format_puzzle
from queens_autosolve.solver.puzzle import default_label
from queens_autosolve.vision import BoardNotFound, BoardReading
from queens_autosolve.vision.read import read_picture
from queens_autosolve.vision.reading import TIGHT_LINE

DEBUG_SUFFIXES = (".png", ".jpg", ".jpeg")
MAX_BLOBS_GROUPED = 3000  # group_boards compares every pair of blobs: beyond this, draw them ungrouped


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="read a Queens board from a screenshot and print it",
        description="Print the puzzle read from IMAGE (text format, then the cell states: . empty, "
        "x X mark, Q queen, L locked queen). Exits 2 when no whole board can be read.",
    )
    parser.add_argument("image", metavar="IMAGE", help="screenshot or photo of a board (PNG, JPEG, ...)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--debug", metavar="OUT.png",
                        help="write the image (.png or .jpg) with the reading drawn over it; when no "
                        "board is read, the candidate cells found and the reason")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    debug = check_output_file(Path(args.debug), "--debug", DEBUG_SUFFIXES) if args.debug else None
    frame = load_image(args.image)
    image = frame.rgb
    try:
        reading = read_picture(frame)
    except BoardNotFound as exc:
        if debug is not None:
            write_picture(draw_failure(image, str(exc)), debug)
        raise
    if debug is not None:
        from queens_autosolve.vision.debug import draw_reading

        write_picture(draw_reading(image, reading), debug)
    reading = in_file_pixels(reading, frame)
    print(json.dumps(reading_json(reading)) if args.json else describe(reading, Path(args.image).stem))
    return 0


def in_file_pixels(reading: BoardReading, frame: Frame) -> BoardReading:
    """The reading's centres and box in the file's pixels (a large picture is read reduced)."""
    if frame.scale == 1:
        return reading
    centres = tuple(tuple(frame.to_screen(x, y) for x, y in row) for row in reading.centres)
    return replace(reading, centres=centres, box=frame.box_to_screen(reading.box))


def reading_json(reading: BoardReading) -> dict[str, object]:
    """The reading as plain JSON types: labels and states as N strings each."""
    return {
        "n": reading.n,
        "regions": ["".join(default_label(v) for v in row) for row in reading.regions],
        "states": reading.state_rows(),
        "box": list(reading.box.as_tuple()),
        "centres": [[[round(x, 1), round(y, 1)] for x, y in row] for row in reading.centres],
        "region_colours": ["#{:02X}{:02X}{:02X}".format(*colour) for colour in reading.region_colours],
        "confidence": round(reading.confidence, 3),
        "certain": reading.is_certain,
        "reasons": list(reading.reasons),
        "solved_look": reading.solved_look,
        "queens": [list(cell) for cell in reading.queens()],
        "frame": reading.frame_note,
    }


def describe(reading: BoardReading, name: str) -> str:
    """The puzzle in the text format, a blank line, the states grid and the confidence."""
    text = format_puzzle(reading.puzzle(name=name))
    lines = [text.rstrip("\n"), "", *reading.state_rows(), ""]
    if reading.tight_crop:
        lines.append(TIGHT_LINE)
    verdict = f"confidence {reading.confidence:.2f}"
    if reading.solved_look:
        verdict += ", page shows the board solved"
    lines.append(verdict + "".join(f"\n  unsure: {reason}" for reason in reading.reasons))
    return "\n".join(lines)


def write_picture(picture: np.ndarray, path: Path) -> None:
    """Save an RGB picture; QueensError when it cannot be written."""
    import cv2

    try:
        written = cv2.imwrite(str(path), np.ascontiguousarray(picture[:, :, ::-1]))
    except cv2.error:
        written = False
    if not written:
        raise QueensError(f"--debug {path}: cannot write the picture (check the folder and the extension)")


CANDIDATE = (255, 0, 200)  # blobs in the largest group: the board vision was closest to reading
OTHER = (0, 160, 255)  # blobs in other groups
LONE = (150, 150, 150)  # blobs in no group
MESSAGE = (220, 0, 0)


def draw_failure(image: np.ndarray, reason: str) -> np.ndarray:
    """An RGB copy of `image` with the candidate cells vision found (the largest group in
    magenta, other groups orange, lone blobs grey), their count and `reason` written on top."""
    import cv2

    from queens_autosolve.vision.locate import find_blobs, group_boards, light_mask
    from queens_autosolve.vision.read import as_rgb
    from queens_autosolve.vision.shades import shades_of

    out = np.ascontiguousarray(as_rgb(image)).copy()
    blobs = find_blobs(light_mask(shades_of(out)))
    groups = group_boards(blobs) if len(blobs.boxes) <= MAX_BLOBS_GROUPED else []
    groups.sort(key=len, reverse=True)
    colours = np.full(len(blobs.boxes), -1)
    for rank, members in enumerate(groups):
        colours[members] = min(rank, 1)
    palette = {-1: LONE, 0: CANDIDATE, 1: OTHER}
    for (x0, y0, x1, y1), colour in zip(blobs.boxes.tolist(), colours.tolist()):
        cv2.rectangle(out, (x0, y0), (x1 - 1, y1 - 1), palette[colour], 2 if colour == 0 else 1)
    found = f"{len(blobs.boxes)} candidate cells, {len(groups)} grid(s)"
    largest = f", largest {len(groups[0])} cells" if groups else ""
    _caption(out, [f"no board: {reason}", found + largest])
    return np.asarray(out)


def _caption(out: np.ndarray, lines: list[str]) -> None:
    """Lines of text at the top left, wrapped to the image width, on a white band so they read
    on any image."""
    import textwrap

    import cv2

    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = max(0.4, min(1.0, out.shape[1] / 1600))
    (sample_width, _), _ = cv2.getTextSize("x" * 20, font, scale, 1)
    per_line = max(10, int(20 * (out.shape[1] - 8) / sample_width))
    wrapped = [part for line in lines for part in textwrap.wrap(line, per_line)]
    height = int(28 * scale) + 4
    for i, line in enumerate(wrapped):
        y = height * (i + 1)
        (w, _), _ = cv2.getTextSize(line, font, scale, 1)
        cv2.rectangle(out, (0, y - height + 4), (min(out.shape[1] - 1, w + 8), y + 6), (255, 255, 255), -1)
        cv2.putText(out, line, (4, y), font, scale, MESSAGE, 1, cv2.LINE_AA)
