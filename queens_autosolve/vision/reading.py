"""What the vision layer hands downstream: a `BoardReading` of one Queens board, its cell states,
and the errors raised when no trustworthy reading exists."""

from __future__ import annotations

from dataclasses import dataclass
from typing import overload

import numpy as np

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.position import CellState, Position, state_rows
from queens_autosolve.solver.puzzle import Cell, Puzzle

# The one sureness threshold: below it the actuator must not click (see BoardReading.is_certain).
CONFIDENT = 0.9
# What a reading says of a board whose frame a tight crop cut on all four sides (vision/tight.py):
# in JSON ("frame"), and as a line of text.
TIGHT_NOTE = "cut, read as a tight crop"
TIGHT_LINE = "frame: cut on all four sides, read as a tight crop of the whole board"


class BoardNotFound(QueensError):
    """No single, whole, readable board in the image; the message says what was not found."""


class BoardCutOff(BoardNotFound):
    """A board runs past the edge of the image (or of the grabbed window or screen): reading what
    is visible would give a smaller, wrong board.

    `edges` names the image edges that cut it ("top", "bottom", "left", "right"); `missing_px`
    says for each about how many pixels of board lie beyond it (0 when unknown), so the caller can
    say how far to scroll or how much to enlarge the window.
    """

    def __init__(
        self, message: str, edges: tuple[str, ...] = (), missing_px: dict[str, int] | None = None
    ) -> None:
        super().__init__(message)
        self.edges = edges
        self.missing_px = dict(missing_px or {})


class GridNotSquare(BoardNotFound):
    """The grid of cells seen has more columns than rows, or more rows than columns, and no image
    edge cuts it: some line of cells was not seen as cells."""


class TwoBoards(BoardNotFound):
    """More than one board shows (other than LinkedIn's small examples below the main one)."""


class RegionsUnreadable(BoardNotFound):
    """A whole board was found, but its cells do not fall into N regions."""


@dataclass(frozen=True)
class Margin:
    """One witness's weakest measured margin, as a score 0..1 (CONFIDENT exactly at the margin
    calibration showed to be safe) and a sentence saying what it is and where."""

    witness: str
    score: float
    reason: str


@overload
def margin_score(value: float, zero: float, sure: float, full: float) -> float: ...
@overload
def margin_score(value: np.ndarray, zero: float, sure: float, full: float) -> np.ndarray: ...
def margin_score(value: float | np.ndarray, zero: float, sure: float, full: float) -> float | np.ndarray:
    """A measured margin (or an array of them) as a score: 0 at `zero` (where the decision
    flips), CONFIDENT at `sure`, 1 at `full`, linear between and clipped; the thresholds may run
    either way."""
    if full < zero:
        value, zero, sure, full = -np.asarray(value), -zero, -sure, -full
    return np.interp(value, (zero, sure, full), (0.0, CONFIDENT, 1.0))


Point = tuple[float, float]


@dataclass(frozen=True)
class BoardReading:
    """One board read off an image: size, regions, cell states and where each cell is on screen.

    `centres[r][c]` is the (x, y) pixel of cell (r, c) in the image that was read, `box` the board
    in that image's pixels. `confidence` is 0..1 and `reasons` say why it is below 1.
    """

    n: int
    regions: tuple[tuple[int, ...], ...]
    states: tuple[tuple[CellState, ...], ...]
    centres: tuple[tuple[Point, ...], ...]
    box: Rect
    region_colours: tuple[tuple[int, int, int], ...]
    confidence: float
    reasons: tuple[str, ...]
    solved_look: bool
    # a still cropped tightly to the board (the frame and a sliver of the outer cells cut away on
    # every side), read as the whole board: see vision/tight.py
    tight_crop: bool = False

    @property
    def is_certain(self) -> bool:
        """True when the reading is sure enough to act on (click) without a person checking it."""
        return self.confidence >= CONFIDENT

    @property
    def frame_note(self) -> str:
        """How the board's outer frame was seen: "whole", or TIGHT_NOTE."""
        return TIGHT_NOTE if self.tight_crop else "whole"

    def uncertain_line(self, consequence: str) -> str:
        """The warning every command gives for a reading below the click threshold: why, what
        follows from it (`consequence`), and what to do."""
        return (f"warning: the reading is uncertain ({'; '.join(self.reasons)}): {consequence}; "
                "check it with `queens-autosolve detect`")

    def puzzle(self, name: str = "screen") -> Puzzle:
        """The regions as a Puzzle, each named by the colour it was read in ("the purple
        region"); locked (pre-placed) queens become its `given` cells."""
        from queens_autosolve.vision.colour_names import region_colour_names

        locked = [cell for cell, state in self._cells() if state is CellState.LOCKED]
        puzzle = Puzzle.from_region_grid(self.regions, given=locked, name=name)
        # The puzzle numbers regions in reading order of their first cell, the reading by its own.
        order = list(dict.fromkeys(v for row in self.regions for v in row))
        if len(self.region_colours) <= max(order, default=-1):
            return puzzle  # a reading without a colour for each region: letters it is
        names = region_colour_names([self.region_colours[v] for v in order])
        return puzzle if names is None else puzzle.with_colour_names(names)

    def queens(self) -> list[Cell]:
        """Cells holding a queen (the player's, gold or locked), in reading order."""
        return [cell for cell, state in self._cells() if state.is_queen]

    def position(self) -> Position:
        """The board as the player has it."""
        return Position(self.states)

    def state_rows(self) -> list[str]:
        """The states as N strings of `.`, `x`, `Q`, `L`."""
        return state_rows(self.states)

    def _cells(self) -> list[tuple[Cell, CellState]]:
        return [((r, c), s) for r, row in enumerate(self.states) for c, s in enumerate(row)]
