"""Reading a LinkedIn Queens board off a screenshot: `read_board(image)` / `read_image(path)` give a
`BoardReading` (size, regions, cell states, cell centres, confidence) or raise `BoardNotFound`."""

from vision.read import as_rgb, from_bgra, load_image, read_board, read_image
from vision.reading import (
    CONFIDENT,
    BoardCutOff,
    BoardNotFound,
    BoardReading,
    CellState,
    NotAnImage,
    RegionsUnreadable,
    TwoBoards,
)

__all__ = [
    "CONFIDENT",
    "BoardCutOff",
    "BoardNotFound",
    "BoardReading",
    "CellState",
    "NotAnImage",
    "RegionsUnreadable",
    "TwoBoards",
    "as_rgb",
    "from_bgra",
    "load_image",
    "read_board",
    "read_image",
]
