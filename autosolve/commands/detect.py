"""`queens-autosolve detect`: read the board in a screenshot and print what was seen: the puzzle in
the text format and the cell states, or one JSON object; `--debug` draws the reading over the image.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from solver.errors import QueensError
from solver.formats import format_puzzle
from solver.puzzle import default_label
from vision import BoardReading, load_image, read_board


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="read a Queens board from a screenshot and print it",
        description="Print the puzzle read from IMAGE (text format, then the cell states: . empty, "
        "x X mark, Q queen, L locked queen). Exits 2 when no whole board can be read.",
    )
    parser.add_argument("image", metavar="IMAGE", help="screenshot or photo of a board (PNG, JPEG, ...)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--debug", metavar="OUT.png", help="write the image with the reading drawn over it")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    image = load_image(args.image)
    reading = read_board(image)
    if args.debug:
        write_debug(image, reading, Path(args.debug))
    print(json.dumps(reading_json(reading)) if args.json else describe(reading, Path(args.image).stem))
    return 0


def reading_json(reading: BoardReading) -> dict[str, object]:
    """The reading as plain JSON types: labels and states as N strings each."""
    return {
        "n": reading.n,
        "regions": ["".join(default_label(v) for v in row) for row in reading.regions],
        "states": reading.state_rows(),
        "box": list(reading.box),
        "centres": [[[round(x, 1), round(y, 1)] for x, y in row] for row in reading.centres],
        "region_colours": ["#{:02X}{:02X}{:02X}".format(*colour) for colour in reading.region_colours],
        "confidence": round(reading.confidence, 3),
        "certain": reading.is_certain,
        "reasons": list(reading.reasons),
        "solved_look": reading.solved_look,
        "queens": [list(cell) for cell in reading.queens()],
    }


def describe(reading: BoardReading, name: str) -> str:
    """The puzzle in the text format, a blank line, the states grid and the confidence."""
    text = format_puzzle(reading.puzzle(name=name))
    lines = [text.rstrip("\n"), "", *reading.state_rows(), ""]
    verdict = f"confidence {reading.confidence:.2f}"
    if reading.solved_look:
        verdict += ", page shows the board solved"
    lines.append(verdict + "".join(f"\n  unsure: {reason}" for reason in reading.reasons))
    return "\n".join(lines)


def write_debug(image, reading: BoardReading, path: Path) -> None:  # type: ignore[no-untyped-def]
    import cv2

    from vision.debug import draw_reading

    picture = draw_reading(image, reading)
    if not cv2.imwrite(str(path), picture[:, :, ::-1]):
        raise QueensError(f"{path}: cannot write the debug image (check the folder and the extension)")
