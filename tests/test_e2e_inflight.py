"""Live: the window or the page changes while the tool clicks (issue 28). Xvfb + openbox +
Chromium, a slow run (`--delay 0.3`), and in the middle of it the window is moved, resized,
minimised or covered, the page reloads with a new puzzle, or it is scrolled under a still pointer.

Each test asserts, from the page's own record, that no click landed after the change: the page
counted exactly the clicks the tool says it made, and its marks are all on cells the tool meant
to click (a click made after the window moved by a cell lands on the cell diagonally below
one it meant, which in a Queens solution is never a queen's); and that the tool exited 2 with a
message naming the change. (The Firefox case is in test_e2e_world, beside its Firefox.)
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

import pytest

from queens_autosolve.capture import Desktop, Rect, WindowRecord
from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import search
from tests.checks import present
from tests.live import (
    CHANGE_AFTER,
    assert_stopped_at_once,
    marked_cells,
    moved_by_a_cell,
    practice_page,
    rect_now,
    run_changed_under,
    start_run,
    wait_until,
    xdotool,
    xmessage,
)

pytestmark = pytest.mark.e2e



def puzzle_of(n: int, seed: int) -> Puzzle:
    return generate_puzzle(n, rng=random.Random(2800 + 10 * n + seed))


def test_a_window_moved_by_a_cell_during_the_clicks_gets_no_more_clicks(openbox_chromium, openbox_xvfb):
    display, puzzle = openbox_xvfb.display, puzzle_of(9, 1)

    def change(_server: PracticeServer, window: WindowRecord, board: Rect) -> AbstractContextManager[object]:
        return moved_by_a_cell(display, window, board, puzzle.n)

    done = run_changed_under(openbox_chromium, display, puzzle, change)
    assert_stopped_at_once(done, "moved by (")


def test_a_window_resized_during_the_clicks_gets_no_more_clicks(openbox_chromium, openbox_xvfb):
    display = openbox_xvfb.display

    @contextmanager
    def change(_server: PracticeServer, window: WindowRecord, _board: Rect) -> Iterator[None]:
        w, h = window.rect.width, window.rect.height
        xdotool(display, "windowsize", str(window.wid), str(w - 40), str(h - 30))
        try:
            with Desktop(display) as desktop:
                wait_until(lambda: rect_now(desktop, window).width == w - 40)
            yield
        finally:
            xdotool(display, "windowsize", str(window.wid), str(w), str(h))

    done = run_changed_under(openbox_chromium, display, puzzle_of(9, 2), change)
    assert_stopped_at_once(done, "was resized from")


def test_a_window_minimised_during_the_clicks_gets_no_more_clicks(openbox_chromium, openbox_xvfb):
    display = openbox_xvfb.display

    @contextmanager
    def change(_server: PracticeServer, window: WindowRecord, _board: Rect) -> Iterator[None]:
        xdotool(display, "windowminimize", "--sync", str(window.wid))
        try:
            yield
        finally:
            xdotool(display, "windowactivate", "--sync", str(window.wid))

    done = run_changed_under(openbox_chromium, display, puzzle_of(9, 3), change)
    assert_stopped_at_once(done, "was minimised or hidden")


def test_a_window_that_comes_over_the_board_during_the_clicks_gets_none(openbox_chromium, openbox_xvfb):
    display = openbox_xvfb.display

    def change(_server: PracticeServer, _window: WindowRecord, board: Rect) -> AbstractContextManager[object]:
        at = (board.left + board.width // 3, board.top + board.height // 3)
        return xmessage(display, "Reminder", at=at)

    done = run_changed_under(openbox_chromium, display, puzzle_of(9, 4), change)
    assert_stopped_at_once(done, "the window 'Reminder' came over the board")


def test_a_page_reloaded_with_a_new_puzzle_during_the_clicks_gets_none(openbox_chromium, openbox_xvfb):
    display, other = openbox_xvfb.display, puzzle_of(9, 6)

    @contextmanager
    def change(server: PracticeServer, _window: WindowRecord, _board: Rect) -> Iterator[None]:
        server.replace_puzzle(other)
        openbox_chromium.evaluate("location.reload()")
        yield

    done = run_changed_under(openbox_chromium, display, puzzle_of(9, 5), change)
    assert done.returncode == 2, done.stderr
    assert "the page changed under the board" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    # nothing landed on the new board: the new page has counted no move and shows no mark
    assert done.state.moves == 0 and not marked_cells(done.state), done.state


@pytest.mark.parametrize("pixels", [40, 3])
def test_a_page_scrolled_during_the_clicks_stops_them_unless_every_click_still_lands(
    openbox_chromium, openbox_xvfb, pixels
):
    """The user scrolls with the pointer still (an arrow key: 40 px; a wheel notch is 120): the
    window stays put and the board moves within it. From 12 px on the run stops at the next
    check (the page changed under the board); a shift of a few pixels leaves every click inside
    its cell, and the run ends solved."""
    display = openbox_xvfb.display

    @contextmanager
    def change(_server: PracticeServer, _window: WindowRecord, _board: Rect) -> Iterator[None]:
        openbox_chromium.evaluate(f"window.scrollBy(0, {pixels})")
        wait_until(lambda: openbox_chromium.evaluate("window.scrollY") == pixels, what="the page scrolled")
        yield
        openbox_chromium.evaluate("window.scrollTo(0, 0)")

    done = run_changed_under(openbox_chromium, display, puzzle_of(9, 9), change)
    assert marked_cells(done.state) <= done.meant, done.state
    if pixels >= 12:
        assert_stopped_at_once(done, "the page changed under the board")
        assert "a scroll" in done.stderr
    else:
        assert done.returncode == 0 and done.state.solved, done.stderr


def test_an_unchanged_slow_run_is_not_stopped(openbox_chromium, openbox_xvfb):
    """The checks must not stop a run that nothing disturbed (hover, the pointer's own cell)."""
    display = openbox_xvfb.display
    done = run_changed_under(openbox_chromium, display, puzzle_of(9, 7), lambda *_: nullcontext())
    assert done.returncode == 0 and done.state.solved, done.stderr


def test_a_cell_the_page_marked_itself_ends_the_round_and_the_next_round_clicks_what_it_shows(
    openbox_chromium, openbox_xvfb
):
    """The page itself puts an X on the last cell the round means to make a queen (as a page
    taking back its automatic marks changes cells the player never clicked). Believed, not
    clicked over: the round stops before that cell, the next reads it and clicks it once."""
    display, puzzle = openbox_xvfb.display, puzzle_of(9, 8)
    last = max(present(search(puzzle).solution).queens)
    with practice_page(openbox_chromium, puzzle, win_screen="none") as server:
        run = start_run(display, "--json")
        try:
            wait_until(lambda: server.state().moves >= CHANGE_AFTER, timeout=30, what="the first clicks")
            openbox_chromium.evaluate(f"queensGame.apply([[{last[0] * 9 + last[1]}, '.', 'x']])")
            out, err = run.communicate(timeout=60)
        finally:
            if run.poll() is None:
                run.kill()
        state = server.wait_for(solved=True, timeout=5) if run.returncode == 0 else server.state()
    report = json.loads(out)
    assert run.returncode == 0 and state.solved, err + out
    assert [r["clicks"] for r in report["rounds"]] == [16, 1], report["rounds"]
    assert state.moves == 16 + 1 + 1  # the tool's 17 clicks and the page's own mark
