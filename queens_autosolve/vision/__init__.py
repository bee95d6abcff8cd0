"""Reading a LinkedIn Queens board off a screenshot: `read_board(rgb)` / `read_image(path)` give a
`BoardReading` (size, regions, cell states, cell centres, confidence) or raise `BoardNotFound`.

The names below load on first use (PEP 562), so that `vision.reading` (the records, `CellState`
and the errors: numpy only) can be imported without OpenCV, e.g. by the actuator.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from queens_autosolve.vision.read import as_rgb, read_board, read_image
    from queens_autosolve.vision.reading import (
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
    "as_rgb": "queens_autosolve.vision.read",
    "read_board": "queens_autosolve.vision.read",
    "read_image": "queens_autosolve.vision.read",
    "CONFIDENT": "queens_autosolve.vision.reading",
    "BoardCutOff": "queens_autosolve.vision.reading",
    "BoardNotFound": "queens_autosolve.vision.reading",
    "BoardReading": "queens_autosolve.vision.reading",
    "CellState": "queens_autosolve.vision.reading",
    "RegionsUnreadable": "queens_autosolve.vision.reading",
    "TwoBoards": "queens_autosolve.vision.reading",
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
    "read_board",
    "read_image",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # once: later lookups do not come back here
    return value
