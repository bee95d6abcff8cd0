"""Click planning and the safety checks: pure logic on small, visible boards (no screen needed)."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from queens_autosolve.actuator.clicker import Pace, click_plan
from queens_autosolve.actuator.errors import ClickOutsideBoard, UnsafeToClick
from queens_autosolve.actuator.plan import Click, ClickPlan, plan_clicks
from queens_autosolve.actuator.safety import (
    check_certain,
    check_not_covered,
    check_unique,
    check_window_unchanged,
)
from queens_autosolve.capture import DesktopSession
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import Frame, FrameSource, Pointer, WindowRecord
from queens_autosolve.solver.position import CellState

CELL = 40  # px per cell in the fake readings below
# A 4x4 answer (one queen per row and column, none touching).
SOLUTION = [(0, 1), (1, 3), (2, 0), (3, 2)]


def reading_of(rows: list[str], *, left: int = 0, top: int = 0) -> SimpleNamespace:
    """A fake BoardReading: states from rows of . x Q L, cells CELL px wide from (left, top)."""
    n = len(rows)
    centres = tuple(
        tuple((left + c * CELL + CELL / 2, top + r * CELL + CELL / 2) for c in range(n)) for r in range(n)
    )
    return SimpleNamespace(n=n, states=[[CellState(ch) for ch in row] for row in rows], centres=centres,
                           box=Rect(left, top, n * CELL, n * CELL))


def frame(left: int = 0, top: int = 0, scale: float = 1.0) -> Frame:
    side = round(40 / scale)  # screen points covered by 40 image pixels
    return Frame(np.zeros((40, 40, 4), np.uint8), Rect(left, top, side, side), FrameSource.WINDOW)


def cycle(state: str) -> str:
    """What one click does on the page: empty -> X -> queen -> empty; locked cells do not change."""
    return {".": "x", "x": "Q", "Q": ".", "L": "L"}[state]


def play(rows: list[str], plan: ClickPlan) -> list[str]:
    board = [list(row) for row in rows]
    for click in plan:
        r, c = click.cell
        board[r][c] = cycle(board[r][c])
    return ["".join(row) for row in board]


def test_empty_board_needs_two_clicks_per_queen_in_reading_order():
    plan = plan_clicks(reading_of(["...."] * 4), SOLUTION, frame())
    assert [c.cell for c in plan] == [cell for cell in SOLUTION for _ in range(2)]
    assert [c.reason for c in plan][:2] == ["empty -> X", "X -> queen"]


def test_x_on_a_queen_cell_takes_one_click_and_other_x_marks_are_left_alone():
    rows = ["xx..", "...x", "....", "x..."]
    plan = plan_clicks(reading_of(rows), SOLUTION, frame())
    assert sum(1 for c in plan if c.cell == (0, 1)) == 1
    assert {c.cell for c in plan}.isdisjoint({(0, 0), (3, 0)})
    assert play(rows, plan) == ["xQ..", "...Q", "Q...", "x.Q."]


def test_wrong_queen_is_cleared_first_with_one_click_and_right_queen_untouched():
    rows = ["Q...", "...Q", "....", "...."]
    plan = plan_clicks(reading_of(rows), SOLUTION, frame())
    assert plan.clicks[0].cell == (0, 0) and plan.clicks[0].reason.startswith("wrong queen")
    assert sum(1 for c in plan if c.cell == (0, 0)) == 1
    assert all(c.cell != (1, 3) for c in plan)
    assert play(rows, plan) == [".Q..", "...Q", "Q...", "..Q."]


def test_locked_queens_are_never_clicked():
    rows = [".L..", "....", "L...", "...."]
    plan = plan_clicks(reading_of(rows), SOLUTION, frame())
    assert {c.cell for c in plan} == {(1, 3), (3, 2)}


def test_locked_queen_outside_the_solution_refuses_to_plan():
    with pytest.raises(UnsafeToClick, match="locked queen at r1c1"):
        plan_clicks(reading_of(["L...", "....", "....", "...."]), SOLUTION, frame())


def test_a_solved_board_needs_no_clicks():
    plan = plan_clicks(reading_of([".Q..", "...Q", "Q...", "..Q."]), SOLUTION, frame())
    assert len(plan) == 0
    assert plan.describe() == ["nothing to click: the board shows the solution"]


def test_clicks_are_mapped_to_screen_points_with_offset_and_scale():
    # A HiDPI grab: 2 image px per screen point, taken at screen (100, 50).
    plan = plan_clicks(reading_of(["...."] * 4, left=20, top=10), SOLUTION, frame(100, 50, 2.0))
    first = plan.clicks[0]  # cell (0, 1): image centre (80, 30)
    assert (first.x, first.y) == (140, 65)
    assert plan.box == Rect(110, 55, 80, 80)
    assert all(plan.inside_board(c.x, c.y) for c in plan)


def test_a_cell_centre_outside_the_board_box_refuses_to_plan():
    reading = reading_of(["...."] * 4)
    reading.box = Rect(0, 0, 2 * CELL, 4 * CELL)  # box cut in half: columns 2, 3 fall outside
    with pytest.raises(ClickOutsideBoard):
        plan_clicks(reading, SOLUTION, frame())


def test_clicker_refuses_a_plan_with_a_point_outside_the_board_before_clicking_anything():
    plan = ClickPlan((Click((0, 0), 10, 10, "empty -> X"), Click((0, 1), 500, 10, "empty -> X")),
                     box=Rect(0, 0, 100, 100), solution=((0, 0),))
    class NoPointer:
        def move_pointer(self, x: int, y: int, *, before: Pointer | None = None,
                         click_follows: bool = False) -> Pointer:
            raise AssertionError("the pointer must not even move")

        def moved_by_someone_else(self) -> Pointer | None:
            raise AssertionError("the pointer must not even be looked at")

    with pytest.raises(ClickOutsideBoard):
        click_plan(plan, desktop=cast(DesktopSession, NoPointer()))  # only the pointer calls


class RecordingDesktop:
    """What the clicker asks of the desktop and of the guard, in order (no screen)."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def prepare_input(self) -> None:
        pass

    def moved_by_someone_else(self) -> Pointer | None:
        return None

    def move_pointer(self, x: int, y: int, *, before: Pointer | None = None,
                     click_follows: bool = False) -> Pointer:
        self.calls.append(("move", x, y, click_follows))
        return Pointer(x, y, True)

    def click(self, x: int, y: int, times: int = 1) -> None:
        self.calls.append(("click", x, y, times))

    def check(self, done: int, planned: int, pointer_on: object, next_cell: object) -> None:
        self.calls.append(("check", done))


# two clicks on r1c1 (empty -> X -> queen), one on r2c3 (X -> queen)
TWO_CELLS = ClickPlan((Click((0, 0), 10, 10, "empty -> X"), Click((0, 0), 10, 10, "X -> queen"),
                       Click((1, 2), 30, 20, "X -> queen")),
                      box=Rect(0, 0, 100, 100), solution=((0, 0), (1, 2)))


def clicked(pace: Pace) -> list[tuple[object, ...]]:
    desktop = RecordingDesktop()
    made = click_plan(TWO_CELLS, desktop=cast(DesktopSession, desktop), pace=pace, guard=desktop)
    assert made == 3
    return desktop.calls


def test_with_no_gap_a_cells_move_and_clicks_go_to_the_desktop_together_after_its_check():
    assert clicked(Pace()) == [("check", 0), ("move", 10, 10, True), ("click", 10, 10, 2),
                               ("check", 2), ("move", 30, 20, True), ("click", 30, 20, 1)]


def test_with_a_gap_each_click_goes_alone_and_the_board_is_checked_before_each():
    assert clicked(Pace(gap=0.001)) == [
        ("check", 0), ("move", 10, 10, True), ("click", 10, 10, 1), ("check", 1), ("click", 10, 10, 1),
        ("check", 2), ("move", 30, 20, True), ("click", 30, 20, 1)]


def test_a_settling_pause_has_the_move_sent_before_it_and_the_board_checked_after_it():
    assert clicked(Pace(gap=0.001, settle=0.001)) == [
        ("check", 0), ("move", 10, 10, False), ("check", 0), ("click", 10, 10, 1), ("check", 1),
        ("click", 10, 10, 1), ("check", 2), ("move", 30, 20, False), ("check", 2), ("click", 30, 20, 1)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(".xQ"), min_size=16, max_size=16), st.sampled_from([(), ((0, 1), (2, 0))]))
def test_playing_the_plan_on_any_board_gives_exactly_the_solution(cells, locked):
    for cell in locked:  # locked queens sit on solution cells
        cells[cell[0] * 4 + cell[1]] = "L"
    rows = ["".join(cells[r * 4 : r * 4 + 4]) for r in range(4)]
    plan = plan_clicks(reading_of(rows), SOLUTION, frame())
    after = play(rows, plan)
    queens = {(r, c) for r, row in enumerate(after) for c, ch in enumerate(row) if ch in "QL"}
    assert queens == set(SOLUTION)
    for r, row in enumerate(rows):  # X marks off the solution are never touched
        for c, ch in enumerate(row):
            if ch == "x" and (r, c) not in SOLUTION:
                assert after[r][c] == "x"
    assert len(plan) <= 2 * 4 + 16


# --- safety --------------------------------------------------------------------------------


@dataclass
class Sureness:
    confidence: float
    reasons: tuple[str, ...] = ()

    @property
    def is_certain(self) -> bool:
        return self.confidence >= 0.9


def test_uncertain_reading_refuses_and_says_why_and_offers_dry_run():
    check_certain(Sureness(0.95))
    with pytest.raises(UnsafeToClick, match=r"0\.50: cell r2c3 unclear.*--dry-run"):
        check_certain(Sureness(0.5, ("cell r2c3 unclear",)))


@pytest.mark.parametrize(("count", "words"), [(0, "no solution"), (2, "more than one solution")])
def test_solution_count_other_than_one_refuses(count, words):
    with pytest.raises(UnsafeToClick, match=words):
        check_unique(count)
    check_unique(1)


WINDOW = WindowRecord(wid=7, title="Queens - Chromium", rect=Rect(0, 0, 800, 600), wm_class=("chromium",))


@pytest.mark.parametrize(
    ("now", "words"),
    [
        (None, "closed"),
        (WindowRecord(7, "Queens - Chromium", Rect(5, 0, 800, 600)), "moved"),
        (WindowRecord(7, "Queens - Chromium", Rect(0, 0, 800, 500)), "resized"),
        (WindowRecord(7, "Queens - Chromium", Rect(0, 0, 800, 600), minimised=True), "hidden"),
        (WindowRecord(7, "Inbox - Chromium", Rect(0, 0, 800, 600)), "title changed"),
    ],
)
def test_window_changed_since_capture_refuses(now, words):
    with pytest.raises(UnsafeToClick, match=words):
        check_window_unchanged(WINDOW, now)


def test_a_window_only_raised_or_lowered_since_capture_is_unchanged():
    restacked = WindowRecord(7, "Queens - Chromium", Rect(0, 0, 800, 600), stacking=3)
    assert restacked != WINDOW  # another record, the same window where it was
    check_window_unchanged(WINDOW, restacked)  # no UnsafeToClick


def test_a_window_over_the_board_refuses_and_one_beside_it_does_not():
    board = Rect(300, 280, 600, 600)
    check_not_covered(board, [WindowRecord(9, "Notes", Rect(0, 0, 300, 280))])  # touches a corner only
    with pytest.raises(UnsafeToClick, match="'Notes' covers part of the board"):
        check_not_covered(board, [WindowRecord(9, "Notes", Rect(850, 850, 100, 100))])
