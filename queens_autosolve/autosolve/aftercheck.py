"""After a round of clicks: how the board differs from the solution, what the page shows, and
when a page still repainting the clicks is done (`Settling`). `pipeline.Session.after_clicks`
reads the board again with these."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from queens_autosolve.solver.position import Position
from queens_autosolve.solver.puzzle import Cell, cell_name

STABLE = 0.25  # s: a board that shows the same wrong cells this long is not still repainting
VERIFY_CAP = 30.0  # s: the longest a page that keeps changing is watched after a round's clicks
# s per click a page may take before it shows any of them: a heavy page keeps the clicks queued
# and paints once it has handled them all (judged "differs" early, they would be clicked again)
RESPONSE_PER_CLICK = 0.5


def cell_differences(position: Position, queens: tuple[Cell, ...] | list[Cell]) -> tuple[str, ...]:
    """Differences between a position and the solution; covered cells are skipped."""
    wanted = set(queens)
    n = position.n
    out = []
    for r in range(n):
        for c in range(n):
            state = position.state_at((r, c))
            if state is None:
                continue
            queen = state.is_queen
            if (r, c) in wanted and not queen:
                out.append(f"{cell_name((r, c))} should hold a queen but shows {state.value!r}")
            elif queen and (r, c) not in wanted:
                out.append(f"{cell_name((r, c))} holds a queen that is not in the solution")
    return tuple(out)


class Shown(Enum):
    """What the board shows after a round of clicks."""

    SOLUTION = "the solution"
    WIN_SCREEN = "a win screen over the board, every cell still in view right"
    DIFFERS = "cells that differ from the solution"


@dataclass(frozen=True)
class AfterClicks:
    shown: Shown
    differences: tuple[str, ...]
    reads: int


@dataclass
class Settling:
    """Whether a page repainting a round's clicks is done, judged from the cells it shows.

    The page must first show that it took the clicks: a cell differs from `before`, the states
    they were planned from. Until then it gets `timeout` seconds (`Options.verify_timeout`, more
    for many clicks: RESPONSE_PER_CLICK).
    Then it has settled when the same wrong cells have shown for STABLE seconds, or for twice
    the longest it has taken between two changes, the first counted from the last click: a slow
    page (a heavy one on a busy machine) repaints seldom, and judged early its pending clicks
    would be clicked again. While it keeps changing it is watched, up to VERIFY_CAP seconds.
    """

    before: Position
    start: float  # when the round's last click was made (time.monotonic)
    timeout: float
    responded: bool = field(default=False, init=False)
    last: tuple[str, ...] = field(default=(), init=False)
    changed_at: float = field(default=0.0, init=False)  # when the board last changed
    longest_gap: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self.changed_at = self.start  # our last click is the first change

    def see(self, position: Position, differences: tuple[str, ...], now: float) -> None:
        """Take in what the board shows at `now` (every cell visible)."""
        if not self.responded:
            if not position.differs_from(self.before):
                return
            self.responded = True
        elif differences == self.last:
            return
        self.longest_gap = max(self.longest_gap, now - self.changed_at)
        self.last, self.changed_at = differences, now

    def settled(self, now: float) -> bool:
        return self.responded and now - self.changed_at >= max(STABLE, 2 * self.longest_gap)

    def timed_out(self, now: float) -> bool:
        return now - self.start >= (VERIFY_CAP if self.responded else self.timeout)
