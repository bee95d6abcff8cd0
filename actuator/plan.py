"""Planning clicks: from what the board shows and where the queens must go, the clicks to make.

A click cycles a cell empty -> X -> queen -> empty, so a queen cell needs 2 clicks from empty,
1 from X and none when it already holds a queen. A queen the player put in the wrong place is
cleared with 1 click (queen -> empty). Locked (pre-placed) queens are never clicked, and X marks
elsewhere are left alone: they are the player's notes and do not stop the puzzle being solved.
Pure logic: it needs only the cell states, centres and board box of a reading, and a `Frame` (or
anything with `to_screen` and `box_to_screen`) to turn image pixels into screen points.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from actuator.errors import ClickOutsideBoard, UnsafeToClick
from solver.puzzle import Cell, cell_name

# Cell states by their character (vision's CellState values), so planning needs no vision import.
EMPTY, MARK, QUEEN, LOCKED = ".", "x", "Q", "L"
# Clicks from each state to a queen, along empty -> X -> queen.
CLICKS_TO_QUEEN = {EMPTY: 2, MARK: 1, QUEEN: 0}
_STEP = {EMPTY: "empty -> X", MARK: "X -> queen", QUEEN: "queen -> empty"}

Box = tuple[float, float, float, float]  # x, y, width, height


class ScreenMapping(Protocol):
    """Image pixels to screen points (`capture.Frame` is one)."""

    def to_screen(self, x: float, y: float) -> tuple[float, float]: ...

    def box_to_screen(self, box: Box) -> Box: ...


class ReadingLike(Protocol):
    """The parts of a `vision.BoardReading` the planner uses."""

    n: int
    states: Sequence[Sequence[object]]
    centres: Sequence[Sequence[tuple[float, float]]]
    box: tuple[int, int, int, int]


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
    box: Box
    solution: tuple[Cell, ...]

    def __len__(self) -> int:
        return len(self.clicks)

    def __iter__(self) -> Iterator[Click]:
        return iter(self.clicks)

    def inside_board(self, x: float, y: float) -> bool:
        return _inside(self.box, x, y)

    def describe(self) -> list[str]:
        lines = [click.describe() for click in self.clicks]
        return lines or ["nothing to click: the board shows the solution"]


def state_char(state: object) -> str:
    """A cell state as its character: accepts vision's CellState or the character itself."""
    value = getattr(state, "value", state)
    if value not in (EMPTY, MARK, QUEEN, LOCKED):
        raise ValueError(f"unknown cell state {state!r}")
    return str(value)


def cell_steps(state: str, target: bool) -> list[str]:
    """The click reasons that take a cell in `state` to a queen (target) or to no queen."""
    if state == LOCKED:
        return []  # never clicked: the page would ignore it at best
    if target:
        on_the_way = [EMPTY, MARK]  # the states a cell leaves on its way to a queen
        return [_STEP[s] for s in on_the_way[2 - CLICKS_TO_QUEEN[state] :]]
    return ["wrong queen: " + _STEP[QUEEN]] if state == QUEEN else []


def plan_clicks(reading: ReadingLike, solution: Iterable[Cell], frame: ScreenMapping) -> ClickPlan:
    """Every click that turns what `reading` shows into `solution`: wrong queens cleared first
    (so the board never shows two queens in a unit), then the queens placed in reading order.

    Raises UnsafeToClick when a locked queen is not part of the solution (the reading or the
    solve is wrong), ClickOutsideBoard when a cell centre lies outside the board box.
    """
    targets = set(solution)
    box = frame.box_to_screen(tuple(float(v) for v in reading.box))  # type: ignore[arg-type]
    clearing: list[Click] = []
    placing: list[Click] = []
    for r in range(reading.n):
        for c in range(reading.n):
            state = state_char(reading.states[r][c])
            if state == LOCKED and (r, c) not in targets:
                raise UnsafeToClick(
                    f"the locked queen at {cell_name((r, c))} is not in the solution; the reading "
                    "looks wrong, nothing was clicked"
                )
            steps = cell_steps(state, (r, c) in targets)
            if not steps:
                continue
            x, y = frame.to_screen(*reading.centres[r][c])
            point = (round(x), round(y))
            if not _inside(box, *point):
                raise ClickOutsideBoard(
                    f"cell {cell_name((r, c))} centre {point} lies outside the board {box}; "
                    "nothing was clicked"
                )
            clicks = [Click((r, c), point[0], point[1], step) for step in steps]
            (clearing if (r, c) not in targets else placing).extend(clicks)
    return ClickPlan(tuple(clearing + placing), box, tuple(sorted(targets)))


def _inside(box: Box, x: float, y: float) -> bool:
    bx, by, bw, bh = box
    return bx <= x < bx + bw and by <= y < by + bh
