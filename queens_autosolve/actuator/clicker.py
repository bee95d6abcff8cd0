"""Making the clicks through the desktop (`capture.desktop.DesktopSession`): every point checked
against the board box, the pointer put on the board's own screen and checked there before each
cell, the clicks stopped as soon as someone else moves the mouse (stricter than pyautogui's corner
fail-safe, which it replaces), at a pace that can slow down when a page drops clicks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, Protocol

from queens_autosolve.actuator.errors import ClickAborted, ClickOutsideBoard
from queens_autosolve.actuator.plan import ClickPlan
from queens_autosolve.capture.models import Pointer
from queens_autosolve.solver.puzzle import Cell

if TYPE_CHECKING:
    from queens_autosolve.capture.desktop import DesktopSession

# The gap a round that left cells wrong starts the next one with, when it clicked with none.
FIRST_SLOWER_GAP = 0.02
MAX_GAP = 0.25  # seconds: slower than a person; a page that drops clicks at this pace is broken
# s between the two clicks of a cell (empty -> X -> queen) under a window manager: openbox takes
# every press first (click-to-focus), and without a gap it lost a cell's second click (docs/notes.md)
WM_PAIR_GAP = 0.02


@dataclass(frozen=True)
class Pace:
    """How fast to click: `gap` seconds after every click (also between the two clicks of one
    cell), `settle` seconds between moving onto a cell and pressing, and at least `pair_gap`
    seconds between the two clicks of one cell.

    A page may drop clicks that come too close together (a busy page, or a window manager that
    grabs the pointer for a moment), so a round that leaves cells wrong makes the next one slower.
    """

    gap: float = 0.0
    settle: float = 0.0
    pair_gap: float = 0.0

    def slower(self) -> Pace:
        """Twice the gaps (a first step from zero), up to MAX_GAP."""
        gap = min(MAX_GAP, max(2 * self.gap, FIRST_SLOWER_GAP))
        settle = min(MAX_GAP, max(2 * self.settle, FIRST_SLOWER_GAP / 2))
        return Pace(gap, settle, self.pair_gap)

    @classmethod
    def for_desktop(cls, gap: float, window_manager: str | None) -> Pace:
        """The first round's pace: `gap` (--delay), and under a window manager WM_PAIR_GAP between
        the two clicks of a cell."""
        return cls(gap, pair_gap=0.0 if window_manager is None else WM_PAIR_GAP)

    def describe(self) -> str:
        if not self.gap and not self.settle:
            pace = "as fast as possible"
        else:
            pace = f"{self.gap * 1000:.0f} ms between clicks, {self.settle * 1000:.0f} ms after each move"
        if self.pair_gap > self.gap:
            pace += f", {self.pair_gap * 1000:.0f} ms between a cell's two clicks (a window manager runs)"
        return pace


class Guard(Protocol):
    """Checks, before a click, that the board is still where and what it was when the clicks
    were planned (`actuator.guard.BoardGuard` is one); raises to stop the clicks."""

    def check(self, done: int, planned: int, pointer_on: Cell | None, next_cell: Cell | None) -> None: ...


def check_inside_board(plan: ClickPlan) -> None:
    """Every planned point lies inside the board box, or nothing is clicked at all."""
    for click in plan:
        if not plan.inside_board(click.x, click.y):
            raise ClickOutsideBoard(f"{click.describe()} is outside the board {plan.box}")


def click_plan(
    plan: ClickPlan,
    *,
    desktop: DesktopSession,
    pace: Pace = Pace(),
    guard: Guard | None = None,
) -> int:
    """Click every point of `plan` at `pace` on `desktop`; return how many clicks were made.

    For each cell the pointer is first moved there on the board's own screen and
    must be found there: if it is not (another screen, or someone moving the mouse), clicking
    stops. Before that, it must still be where this run left it: a user who takes the mouse
    while the tool clicks stops it at the next cell (ClickAborted), wherever they move it; the
    tool never pulls the pointer back from them. `guard` checks the window and the board before
    every cell, and before every click when they are spaced out (`pace`), the last thing before
    the pointer moves or presses: what changed stops the clicks before the next one. With no
    gap asked for, a cell's move and clicks go to the desktop together (`DesktopSession.click`
    with `times`; on sway one message instead of three).
    """
    check_inside_board(plan)
    desktop.prepare_input()
    done, planned = 0, len(plan)
    last: Cell | None = None
    point: tuple[int, int] | None = None
    # A cell's clicks go together: one pointer move for both clicks of empty -> X -> queen.
    for cell, group in groupby(plan, key=lambda click: click.cell):
        clicks = list(group)
        x, y = clicks[0].x, clicks[0].y
        _check_left_alone(desktop, done, planned)
        if guard is not None:
            guard.check(done, planned, last, cell)
        _move_onto(desktop, x, y, point, done, planned, click_follows=not pace.settle)
        last, point = cell, (x, y)
        if pace.settle:
            time.sleep(pace.settle)
            _check_left_alone(desktop, done, planned)
            if guard is not None:
                guard.check(done, planned, cell, None)
        if not (pace.gap or pace.pair_gap):  # no gap asked for: the cell's clicks go together
            desktop.click(x, y, times=len(clicks))
            done += len(clicks)
            continue
        for i in range(len(clicks)):
            if i:
                if pace.pair_gap > pace.gap:
                    time.sleep(pace.pair_gap - pace.gap)
                # a user who took the mouse during the gap is seen here, where the next click
                # would pull the pointer back to the cell
                _check_left_alone(desktop, done, planned)
                if guard is not None:
                    guard.check(done, planned, cell, None)
            desktop.click(x, y)
            done += 1
            if pace.gap:
                time.sleep(pace.gap)
    return done


def _check_left_alone(desktop: DesktopSession, done: int, planned: int) -> None:
    """Stop when the pointer is not where this run last put it: someone has taken the mouse."""
    moved = desktop.moved_by_someone_else()
    if moved is None:
        return
    place = (f"to ({moved.x}, {moved.y})" if moved.on_screen
             else "away (to another X screen, or another window took the focus)")
    raise ClickAborted(
        f"the mouse was moved {place} while the tool was clicking, so it stopped and left the mouse to you",
        "run again with the mouse still to finish", clicks=done, planned=planned,
    )


def _move_onto(
    desktop: DesktopSession, x: int, y: int, last: tuple[int, int] | None, done: int, planned: int,
    *, click_follows: bool,
) -> None:
    """Put the pointer on (x, y) of the board's screen, or stop: a click anywhere else is never
    made. `click_follows`: the click comes at once (no settling pause first)."""
    # on the last cell, the pointer was found where it was sent: no need to ask the server again
    where = desktop.move_pointer(x, y, before=None if last is None else Pointer(*last, True),
                                 click_follows=click_follows)
    if where.at(x, y):
        return
    if last is not None and where.on_screen and (where.x, where.y) == last:
        raise ClickAborted(
            f"the pointer did not leave the last cell clicked for ({x}, {y}); something holds the mouse "
            "(a window manager or another program grabbing it)", "run again", clicks=done, planned=planned
        )
    place = f"({where.x}, {where.y})" if where.on_screen else "another X screen"
    raise ClickAborted(
        f"the pointer was sent to ({x}, {y}) on the board's screen but is at {place} (is someone moving "
        "the mouse?)", "run again with the mouse still", clicks=done, planned=planned
    )
