"""Reading a LinkedIn Queens board off a screenshot: `read_board(rgb)` / `read_image(path)` give a
`BoardReading` (size, regions, cell states, cell centres, confidence) or raise `BoardNotFound`.

The names below load on first use (PEP 562), so that `vision.reading` (the records and the
errors: numpy only) can be imported without OpenCV, e.g. by the actuator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from queens_autosolve.lazy import lazy_names

if TYPE_CHECKING:
    from queens_autosolve.vision.read import as_rgb, read_board, read_image
    from queens_autosolve.vision.reading import (
        CONFIDENT,
        BoardCutOff,
        BoardNotFound,
        BoardReading,
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
    "RegionsUnreadable": "queens_autosolve.vision.reading",
    "TwoBoards": "queens_autosolve.vision.reading",
}

__all__ = [
    "CONFIDENT",
    "BoardCutOff",
    "BoardNotFound",
    "BoardReading",
    "RegionsUnreadable",
    "TwoBoards",
    "as_rgb",
    "read_board",
    "read_image",
]

__getattr__ = lazy_names(__name__, _HOMES)
