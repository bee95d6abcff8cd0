"""Reading a LinkedIn Queens board off a screenshot: `read_board(rgb)` / `read_image(path)` give a
`BoardReading` (size, regions, cell states, cell centres, confidence) or raise `BoardNotFound`.

The names below load on first use (PEP 562), so that `vision.reading` (the records, `CellState`
and the errors: numpy only) can be imported without OpenCV, e.g. by the actuator.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.read import as_rgb, from_bgra, read_board, read_image
    from vision.reading import (
        CONFIDENT,
        BoardCutOff,
        BoardNotFound,
        BoardReading,
        CellState,
        RegionsUnreadable,
        TwoBoards,
    )

# Each public name and the module that holds it.
_HOMES = {
    "as_rgb": "vision.read",
    "from_bgra": "vision.read",
    "read_board": "vision.read",
    "read_image": "vision.read",
    "CONFIDENT": "vision.reading",
    "BoardCutOff": "vision.reading",
    "BoardNotFound": "vision.reading",
    "BoardReading": "vision.reading",
    "CellState": "vision.reading",
    "RegionsUnreadable": "vision.reading",
    "TwoBoards": "vision.reading",
}

__all__ = [
    "BoardCutOff",
    "BoardNotFound",
    "BoardReading",
    "CONFIDENT",
    "CellState",
    "RegionsUnreadable",
    "TwoBoards",
    "as_rgb",
    "from_bgra",
    "read_board",
    "read_image",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # once: later lookups do not come back here
    return value
