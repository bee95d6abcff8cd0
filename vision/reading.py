"""What the vision layer hands downstream: a `BoardReading` of one Queens board, its cell states,
and the errors raised when no trustworthy reading exists."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from solver.errors import QueensError
from solver.puzzle import Cell, Puzzle

# The one sureness threshold: below it the actuator must not click (see BoardReading.is_certain).
CONFIDENT = 0.9


class BoardNotFound(QueensError):
    """No single, whole, readable board in the image; the message says what was not found."""


class NotAnImage(QueensError):
    """A path that is missing or is not a picture Pillow can open."""


class CellState(Enum):
    """What a cell shows; the value is its character in the states grid."""

    EMPTY = "."
    X = "x"
    QUEEN = "Q"
    LOCKED = "L"


Point = tuple[float, float]


@dataclass(frozen=True)
class BoardReading:
    """One board read off an image: size, regions, cell states and where each cell is on screen.

    `centres[r][c]` is the (x, y) pixel of cell (r, c) in the image that was read, `box` the board's
    (x, y, width, height). `confidence` is 0..1 and `reasons` say why it is below 1.
    """

    n: int
    regions: tuple[tuple[int, ...], ...]
    states: tuple[tuple[CellState, ...], ...]
    centres: tuple[tuple[Point, ...], ...]
    box: tuple[int, int, int, int]
    region_colours: tuple[tuple[int, int, int], ...]
    confidence: float
    reasons: tuple[str, ...]
    solved_look: bool

    @property
    def is_certain(self) -> bool:
        """True when the reading is sure enough to act on (click) without a person checking it."""
        return self.confidence >= CONFIDENT

    def puzzle(self, name: str = "screen") -> Puzzle:
        """The regions as a Puzzle; locked (pre-placed) queens become its `given` cells."""
        locked = [cell for cell, state in self._cells() if state is CellState.LOCKED]
        return Puzzle.from_region_grid(self.regions, given=locked, name=name)

    def queens(self) -> list[Cell]:
        """Cells holding a queen (the player's, gold or locked), in reading order."""
        return [cell for cell, state in self._cells() if state in (CellState.QUEEN, CellState.LOCKED)]

    def state_rows(self) -> list[str]:
        """The states as N strings of `.`, `x`, `Q`, `L`."""
        return ["".join(state.value for state in row) for row in self.states]

    def _cells(self) -> list[tuple[Cell, CellState]]:
        return [((r, c), s) for r, row in enumerate(self.states) for c, s in enumerate(row)]
