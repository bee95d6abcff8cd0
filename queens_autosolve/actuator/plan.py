"""Planning clicks: from what the board shows and where the queens must go, the clicks to make.

A click cycles a cell empty -> X -> queen -> empty, so a queen cell needs 2 clicks from empty,
1 from X and none when it already holds a queen. A queen the player put in the wrong place is
cleared with 1 click (queen -> empty). Locked (pre-placed) queens are never clicked, and X marks
elsewhere are left alone: they are the player's notes and do not stop the puzzle being solved.
Pure logic: it needs only the cell states, centres and board box of a reading, and a `Frame` (or
anything with `to_screen` and `box_to_screen`) to turn image pixels into screen points. Cell
states are solver/position.py's `CellState`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from queens_autosolve.actuator.errors import ClickOutsideBoard, UnsafeToClick
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.solver.position import CellState
from queens_autosolve.solver.puzzle import Cell, cell_name

# Clicks from each state to a queen, along empty -> X -> queen.
CLICKS_TO_QUEEN = {CellState.EMPTY: 2, CellState.X: 1, CellState.QUEEN: 0}
_STEP = {CellState.EMPTY: "empty -> X", CellState.X: "X -> queen", CellState.QUEEN: "queen -> empty"}


class ScreenMapping(Protocol):
    """Image pixels to screen points (`capture.Frame` is one)."""

    def to_screen(self, x: float, y: float) -> tuple[float, float]: ...

    def box_to_screen(self, box: Rect) -> Rect: ...


class ReadingLike(Protocol):
    """The parts of a `vision.BoardReading` the planner uses (read-only, so the frozen dataclass fits)."""

    @property
    def n(self) -> int: ...

    @property
    def states(self) -> Sequence[Sequence[CellState]]: ...

    @property
    def centres(self) -> Sequence[Sequence[tuple[float, float]]]: ...

    @property
    def box(self) -> Rect: ...


@dataclass(frozen=True)
class Click:
    """One click at screen point (x, y) on `cell`, and why."""

    cell: Cell
    x: int
    y: int
    reason: str

    def describe(self) -> str:
        return f"{cell_name(self.cell)} at ({self.x}, {self.y}): {self.reason}"


@dataclass(frozen=True)
class ClickPlan:
    """The clicks that turn the board into the solution, in order, and the board box (screen)."""

    clicks: tuple[Click, ...]
    box: Rect
    solution: tuple[Cell, ...]

    def __len__(self) -> int:
        return len(self.clicks)

    def __iter__(self) -> Iterator[Click]:
        return iter(self.clicks)

    def inside_board(self, x: float, y: float) -> bool:
        return self.box.contains(x, y)

    def describe(self) -> list[str]:
        lines = [click.describe() for click in self.clicks]
        return lines or ["nothing to click: the board shows the solution"]


def cell_steps(state: CellState, target: bool) -> list[str]:
    """The click reasons that take a cell in `state` to a queen (target) or to no queen."""
    if state is CellState.LOCKED:
        return []  # never clicked: the page would ignore it at best
    if target:
        on_the_way = [CellState.EMPTY, CellState.X]  # the states a cell leaves on its way to a queen
        return [_STEP[s] for s in on_the_way[2 - CLICKS_TO_QUEEN[state] :]]
    return ["wrong queen: " + _STEP[CellState.QUEEN]] if state is CellState.QUEEN else []


def click_on(cell: Cell, centre: tuple[float, float], reasons: list[str], frame: ScreenMapping,
             box: Rect) -> list[Click]:
    """The clicks on `cell` (image centre `centre`) at its screen point, one per reason;
    ClickOutsideBoard when that point lies outside the board's screen box."""
    x, y = frame.to_screen(*centre)
    point = (round(x), round(y))
    if not box.contains(*point):
        raise ClickOutsideBoard(
            f"cell {cell_name(cell)} centre {point} lies outside the board {box}"
        )
    return [Click(cell, point[0], point[1], reason) for reason in reasons]


def plan_clicks(reading: ReadingLike, solution: Iterable[Cell], frame: ScreenMapping) -> ClickPlan:
    """Every click that turns what `reading` shows into `solution`: wrong queens cleared first
    (so the board never shows two queens in a unit), then the queens placed in reading order.

    Raises UnsafeToClick when a locked queen is not part of the solution (the reading or the
    solve is wrong), ClickOutsideBoard when a cell centre lies outside the board box.
    """
    targets = set(solution)
    box = frame.box_to_screen(reading.box)
    clearing: list[Click] = []
    placing: list[Click] = []
    for r in range(reading.n):
        for c in range(reading.n):
            state = reading.states[r][c]
            if state is CellState.LOCKED and (r, c) not in targets:
                raise UnsafeToClick(
                    f"the locked queen at {cell_name((r, c))} is not in the solution; the reading "
                    "looks wrong"
                )
            steps = cell_steps(state, (r, c) in targets)
            if steps:
                clicks = click_on((r, c), reading.centres[r][c], steps, frame, box)
                (clearing if (r, c) not in targets else placing).extend(clicks)
    return ClickPlan(tuple(clearing + placing), box, tuple(sorted(targets)))
