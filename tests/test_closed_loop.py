"""The closed loop's pure parts: pacing, where the pointer waits, what counts as a cut-off board
or a win screen, and the messages that name the cause. (The live rounds are in test_e2e_*.)"""

from __future__ import annotations

import numpy as np
import pytest

from queens_autosolve.actuator.clicker import MAX_GAP, WM_PAIR_GAP, Pace
from queens_autosolve.autosolve.aftercheck import STABLE, VERIFY_CAP, Settling, cell_differences
from queens_autosolve.autosolve.onscreen import (
    cut_advice,
    edges_touched,
    no_board_on_any,
    not_visible,
    other_monitors,
)
from queens_autosolve.autosolve.pipeline import park_point
from queens_autosolve.capture import Frame, FrameSource, Rect, WindowRecord
from queens_autosolve.capture.models import MONITOR_ROLE, Monitor
from queens_autosolve.solver.position import CellState, Position
from queens_autosolve.vision import BoardCutOff, BoardNotFound, RegionsUnreadable
from queens_autosolve.vision.reading import GridNotSquare
from queens_autosolve.vision.recheck import Recheck

E, Q, X = CellState.EMPTY, CellState.QUEEN, CellState.X


def frame(width: int = 400, height: int = 300, clipped: tuple[str, ...] = ()) -> Frame:
    window = WindowRecord(1, "Queens - Chromium", Rect(0, 0, width, height), ("chromium", "Chromium"))
    return Frame(np.zeros((height, width, 4), np.uint8), Rect(0, 0, width, height), FrameSource.WINDOW,
                 window=window, clipped=clipped)


def test_pace_starts_slowing_from_zero_and_doubles_up_to_a_cap():
    pace = Pace()
    assert pace.describe() == "as fast as possible"
    slower = pace.slower()
    assert slower.gap > 0 and slower.settle > 0
    assert slower.slower().gap == 2 * slower.gap
    for _ in range(20):
        pace = pace.slower()
    assert pace.gap == MAX_GAP


def test_under_a_window_manager_a_cells_two_clicks_are_spaced_from_the_first_round_on():
    bare, managed = Pace.for_desktop(0.0, None), Pace.for_desktop(0.0, "Openbox")
    assert bare == Pace() and bare.describe() == "as fast as possible"
    assert managed.pair_gap == WM_PAIR_GAP and managed.gap == 0.0
    said = "as fast as possible, 20 ms between a cell's two clicks (a window manager runs)"
    assert managed.describe() == said
    assert managed.slower().pair_gap == WM_PAIR_GAP  # kept while the gaps grow
    # --delay longer than that covers it
    assert "between a cell's two clicks" not in Pace.for_desktop(0.05, "Openbox").describe()


def test_pointer_parks_beside_the_board_inside_the_window():
    board = Rect(100, 100, 200, 200)
    x, y = park_point(board, Rect(0, 0, 500, 500), Rect(0, 0, 1920, 1080))
    assert not board.contains(x, y) and Rect(0, 0, 500, 500).contains(x, y)


def test_pointer_parks_on_another_side_when_the_board_fills_the_window_width():
    board = Rect(0, 100, 500, 200)
    x, y = park_point(board, Rect(0, 0, 500, 500), Rect(0, 0, 1920, 1080))
    assert not board.contains(x, y) and Rect(0, 0, 500, 500).contains(x, y)
    assert y < 100 or y >= 300


@pytest.mark.parametrize(
    ("box", "edges"),
    [((50, 50, 100, 100), ()), ((0, 50, 100, 100), ("left",)), ((50, 50, 350, 249), ("right", "bottom"))],
)
def test_a_board_at_the_edge_of_what_was_grabbed_is_named_by_edge(box, edges):
    assert edges_touched(Rect(*box), frame()) == edges


def test_covered_cells_are_left_out_of_the_differences():
    states = Position(((Q, None), (X, E)))
    assert cell_differences(states, [(0, 0), (1, 1)]) == ("r2c2 should hold a queen but shows '.'",)
    assert cell_differences(states, [(0, 0), (0, 1)]) == ()


def test_a_dialog_over_the_board_looks_overlaid_but_conflict_stripes_do_not():
    dialog = Recheck(((Q, None, None), (E, None, None), (E, E, Q)), frozenset({(0, 2), (1, 2)}))
    assert dialog.looks_overlaid()
    # stripes over two queens in one row: both cells only partly off their colour, none hidden
    stripes = Recheck(((None, E, None), (E, E, E), (E, Q, E)), frozenset())
    assert not stripes.looks_overlaid()
    # a partly covered cell far from any hidden one is not the edge of a cover
    patchy = Recheck(((None, E, E), (E, E, E), (E, E, None)), frozenset({(2, 2)}))
    assert not patchy.looks_overlaid()


def test_lone_hidden_cells_are_no_cover():
    """A dialog or card hides neighbouring cells; single cells hidden here and there (X marks
    misjudged as covers let a board with dropped clicks pass for a win screen) are not one."""
    scattered = Recheck(((None, E, E), (E, Q, E), (E, E, None)), frozenset({(0, 0), (2, 2)}))
    assert not scattered.looks_overlaid()


def test_cut_off_board_message_names_the_edge_the_amount_and_the_way_out():
    exc = BoardCutOff("cut", ("bottom",), {"bottom": 40})
    text = str(not_visible(frame(), exc))
    assert "at the bottom (at least 40 px of it hidden)" in text
    assert "scroll down" in text and "--scroll" in text and "nothing was clicked" in text
    assert "press Start" not in text


def test_a_board_cut_by_the_screen_edge_says_move_the_window_onto_the_screen():
    text = str(not_visible(frame(clipped=("right",)), BoardCutOff("cut", ("right",))))
    assert "right edge of the screen" in text and "move the window fully onto one screen" in text


def test_no_board_at_all_keeps_the_start_and_tutorial_hint():
    text = str(not_visible(frame(), BoardNotFound("no board found: no grid of square cells in the image")))
    assert "press Start" in text


def test_no_board_on_the_one_gnome_monitor_says_to_bring_the_browser_to_it():
    """GNOME lists no windows: the record is the monitor cast. With the browser moved to a second
    monitor (headless mutter, two virtual monitors) it said only "press Start or close the
    tutorial", and called the monitor "the window 'the GNOME monitor Meta-0'"."""
    monitor = WindowRecord(0, "the GNOME monitor Meta-0", Rect(0, 0, 400, 300), role=MONITOR_ROLE)
    shot = Frame(np.zeros((300, 400, 4), np.uint8), Rect(0, 0, 400, 300), FrameSource.WINDOW, window=monitor)
    text = str(not_visible(shot, BoardNotFound("no board found: no grid of square cells in the image")))
    assert text.startswith("the GNOME monitor Meta-0 shows no Queens board")
    assert "the tool reads only this monitor: if the browser is on another, move it here" in text
    assert "the tool reads only" not in str(not_visible(frame(), BoardNotFound("no board found")))


class _Outputs:
    """A desktop with no window list whose outputs stand for windows (window_at answers with the
    output's record), as the wlroots desktop without sway's IPC."""

    def __init__(self, records: list[WindowRecord]) -> None:
        self.records = records

    def monitors(self) -> list[Monitor]:
        whole = Monitor(0, Rect(0, 0, 4000, 1000))
        return [whole, *(Monitor(i + 1, r.rect) for i, r in enumerate(self.records))]

    def window_at(self, x: float, y: float) -> WindowRecord | None:
        return next((r for r in self.records if r.rect.contains(x, y)), None)


def test_the_other_monitors_are_those_window_at_names_and_none_for_a_window():
    one, two = (WindowRecord(i, f"the output DP-{i}", Rect(1920 * (i - 1), 0, 1920, 1080), role=MONITOR_ROLE)
                for i in (1, 2))
    desktop = _Outputs([one, two])
    assert other_monitors(desktop, one) == [two] and other_monitors(desktop, two) == [one]  # type: ignore[arg-type]
    assert other_monitors(_Outputs([one]), one) == []  # type: ignore[arg-type]  # GNOME: one cast
    browser = WindowRecord(7, "Queens - Chromium", Rect(0, 0, 800, 600))
    assert other_monitors(desktop, browser) == [] and other_monitors(desktop, None) == []  # type: ignore[arg-type]
    text = str(no_board_on_any([one, two]))
    assert text.startswith("no monitor shows a Queens board (the output DP-1, the output DP-2 read)")
    assert "nothing was clicked" in text and "move any window off the board" in text


def test_a_grid_with_fewer_rows_than_columns_is_part_of_a_board_not_no_board():
    """Rows hidden under a toolbar or a page's header whose edge reads as a frame: it said "shows
    no Queens board ...; press Start or close the tutorial"."""
    part = GridNotSquare("no whole board found: the grid shows 9 columns but 4 rows")
    text = str(not_visible(frame(), part))
    assert "shows only part of a board" in text and "scroll the whole board into view" in text
    assert "press Start" not in text


def test_unreadable_regions_suggest_zoom_100_not_the_start_button():
    text = str(not_visible(frame(), RegionsUnreadable("found 7 regions on the 8x8 board, expected 8")))
    assert "zoom to 100%" in text.replace("page zoom to 100%", "zoom to 100%") and "press Start" not in text


def test_cut_advice_with_two_edges_lists_both():
    text = cut_advice(BoardCutOff("cut", ("right", "bottom")))
    assert "at the right" in text and "at the bottom" in text and "scroll right or scroll down" in text


@pytest.mark.parametrize(("edges", "larger"), [(("top", "bottom"), "taller"), (("left", "right"), "wider"),
                                               (("top", "left", "bottom", "right"), "larger")])
def test_a_board_cut_at_opposite_edges_is_larger_than_the_window_and_no_scroll_is_advised(edges, larger):
    text = cut_advice(BoardCutOff("cut", edges, {edges[0]: 30}))
    assert f"it is {larger} than the window shows; make the window {larger} or zoom out with Ctrl+-" in text
    assert "scroll" not in text and f"at the {edges[0]} (at least 30 px of it hidden)" in text


def test_a_refusal_after_clicks_says_how_many_were_made_and_never_nothing_was_clicked():
    from queens_autosolve.actuator.errors import UnsafeToClick
    from queens_autosolve.autosolve.pipeline import stopped_after

    exc = UnsafeToClick("the board reading is uncertain (confidence 0.50)", "run again")
    assert str(exc) == "the board reading is uncertain (confidence 0.50); nothing was clicked; run again"
    text = str(stopped_after(exc, 18, 1, ("r3c9 should hold a queen but shows 'x'",)))
    assert text.startswith("stopped after 18 click(s) in 1 round(s)") and "r3c9" in text
    assert "nothing was clicked" not in text
    assert text.endswith("uncertain (confidence 0.50); nothing more was clicked; run again")


def test_a_certain_reading_of_a_puzzle_with_several_solutions_says_how_many():
    from queens_autosolve.actuator.errors import UnsafeToClick
    from queens_autosolve.autosolve.pipeline import check_solvable, solve
    from queens_autosolve.solver.puzzle import Puzzle
    from queens_autosolve.solver.search import search
    from queens_autosolve.vision import BoardReading

    puzzle = Puzzle.from_rows(["AAAAA", "BBBBB", "CCCCC", "DDDDD", "EEEEE"])  # rows as regions
    count = search(puzzle, limit=100).count
    reading = BoardReading(
        n=5, regions=puzzle.regions, states=((E,) * 5,) * 5,
        centres=tuple(tuple((c * 40.0, r * 40.0) for c in range(5)) for r in range(5)),
        box=Rect(0, 0, 200, 200), region_colours=((0, 0, 0),) * 5, confidence=1.0, reasons=(),
        solved_look=False,
    )
    with pytest.raises(UnsafeToClick, match=f"has {count} solutions") as refusal:
        check_solvable(solve(reading))
    assert 1 < count < 100 and "reading is probably wrong" not in str(refusal.value)


# --- when a page that repaints our clicks is done (pure logic: times given) ------------------

BEFORE = Position.from_rows(["..", ".."])
ONE_X = Position.from_rows(["x.", ".."])
TWO_X = Position.from_rows(["xx", ".."])


def test_a_page_that_shows_nothing_yet_is_waited_for_until_the_timeout():
    watch = Settling(BEFORE, start=0.0, timeout=3.0)
    for now in (0.1, 1.0, 2.9):
        watch.see(BEFORE, ("r1c1 wrong",), now)
        assert not watch.settled(now) and not watch.timed_out(now)
    assert watch.timed_out(3.0) and not watch.settled(3.0)


def test_a_fast_page_has_settled_after_stable_seconds_without_a_change():
    watch = Settling(BEFORE, start=0.0, timeout=3.0)
    watch.see(ONE_X, ("r1c1 shows x",), 0.05)
    assert not watch.settled(0.05 + STABLE - 0.01)
    assert watch.settled(0.05 + STABLE)


def test_a_slow_page_is_given_twice_its_slowest_step_between_changes():
    watch = Settling(BEFORE, start=0.0, timeout=3.0)
    watch.see(ONE_X, ("a",), 0.4)  # first change 0.4 s after the last click
    watch.see(ONE_X, ("a",), 0.7)  # no change: not a step
    assert not watch.settled(0.7)
    watch.see(TWO_X, ("b",), 0.8)
    assert not watch.settled(0.8 + 0.79) and watch.settled(0.8 + 0.8)
    assert not watch.timed_out(5.0) and watch.timed_out(VERIFY_CAP)


class ScriptedPage:
    """A desktop whose window shows, from each moment after it is made, the frame given for it:
    a page scrolled by a wheel notch that a busy renderer draws late and in stalls."""

    def __init__(self, steps: list[tuple[float, int]], tick_rows: int = 0) -> None:
        import time

        self.start, self.steps, self.tick_rows, self.grabs = time.monotonic(), steps, tick_rows, 0
        self.time = time

    def grab_window(self, _window: object) -> Frame:
        elapsed = self.time.monotonic() - self.start
        shift = [offset for at, offset in self.steps if elapsed >= at][-1]
        self.grabs += 1
        pixels = np.zeros((300, 400, 4), np.uint8)
        pixels[..., 0] = (np.arange(300)[:, None] + shift) % 251  # the page: every row moves with it
        pixels[: self.tick_rows, :, 1] = self.grabs % 2  # a clock: a few rows that change by themselves
        return Frame(pixels, Rect(0, 0, 400, 300), FrameSource.WINDOW)


def scrolled(page: ScriptedPage) -> int | None:
    from queens_autosolve.autosolve.onscreen import _scrolled_grab

    window = object()  # the scripted page shows one window
    before = page.grab_window(window)
    result = _scrolled_grab(page, window, before)  # type: ignore[arg-type]
    return None if result is None else int(result.raw[0, 0, 0])


def test_a_scroll_drawn_late_and_in_stalls_is_waited_out_to_its_end():
    # nothing for 0.3 s, a third of the way, a stall of 0.25 s, then the rest: two equal grabs
    # 50 ms apart at the start or in the stall were once taken for a page at rest
    page = ScriptedPage([(0.0, 0), (0.3, 30), (0.34, 60), (0.6, 100)])
    assert scrolled(page) == 100


def test_a_clock_changing_on_the_page_neither_counts_as_the_scroll_nor_keeps_it_from_rest(monkeypatch):
    from queens_autosolve.autosolve import onscreen

    monkeypatch.setattr(onscreen, "SCROLL_RESPONSE", 0.3)
    assert scrolled(ScriptedPage([(0.0, 0)], tick_rows=5)) is None
    assert scrolled(ScriptedPage([(0.0, 0), (0.1, 100)], tick_rows=5)) == 100
