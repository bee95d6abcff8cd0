"""End to end in conditions we did not design: a real window manager (openbox: decorated window,
moved away from the origin, click-to-focus), Firefox, and a display with two X screens.

Each test runs `queens-autosolve run` as a user does (a terminal stand-in has the focus, the
browser does not) and asserts three things: what the page itself reports, the exit status, and
the tool's final message; the half-solved board at 50% runs the pipeline in process instead, to
count the clicks of each round. The two-screen tests also put a click recorder over screen 0 and assert
that no click ever reached it.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest

from queens_autosolve.actuator.errors import UnsafeToClick
from queens_autosolve.autosolve.onscreen import check_scroll_point
from queens_autosolve.autosolve.pipeline import run
from queens_autosolve.autosolve.records import Options, RunOutcome, Source
from queens_autosolve.autosolve.run_report import report_lines
from queens_autosolve.capture import Desktop, Rect, WindowRecord
from queens_autosolve.pages.practice import PageState
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import search
from tests.checks import present
from tests.click_recorder import ClickRecorder
from tests.live import (
    PageBrowser,
    assert_solved_and_pointer_back,
    assert_stopped_at_once,
    moved_by_a_cell,
    place_window,
    practice_page,
    run_changed_under,
    run_with_the_pointer_on_the_board,
    wait_for_window,
    wait_until,
    xdotool,
    xmessage,
)

pytestmark = pytest.mark.e2e

SOLVED_MESSAGES = (RunOutcome.SOLVED.value, RunOutcome.WIN_SCREEN.value)


def puzzle_of(n: int, seed: int) -> Puzzle:
    return generate_puzzle(n, rng=random.Random(7000 * n + seed))


def run_tool(*args: str, display: str) -> subprocess.CompletedProcess[str]:
    """`queens-autosolve run` with DISPLAY=`display`, as started from a terminal on it."""
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env["DISPLAY"] = display
    return subprocess.run([sys.executable, "-m", "queens_autosolve", "run", *args],
                          env=env, capture_output=True, text=True, timeout=90)


@contextmanager
def terminal_focused(display: str) -> Iterator[None]:
    """A terminal stand-in in the top-right corner holding the focus, as when the user types
    the command: the browser window is not focused when the first click comes."""
    with xmessage(display, "Terminal", at=(1650, 20)):
        xdotool(display, "search", "--name", "^Terminal$", "windowactivate", "--sync")
        yield


def assert_solved_by_the_tool(
    done: subprocess.CompletedProcess[str], state: PageState, puzzle: Puzzle
) -> None:
    """The page says solved, the tool exited 0 and its message says solved."""
    assert state.solved and state.page_solved, f"page reports {state.states}\n{done.stdout}{done.stderr}"
    assert set(state.queens) == set(present(search(puzzle).solution).queens)
    assert done.returncode == 0, done.stdout + done.stderr
    assert any(line in SOLVED_MESSAGES for line in done.stdout.splitlines()), done.stdout


def run_on_page(browser: PageBrowser, display: str, puzzle: Puzzle, *, move: bool = False,
                **page_options: Any) -> subprocess.CompletedProcess[str]:
    """Show `puzzle` on the practice page in `browser` (its window dragged to an offset first
    with `move`), run the tool from a focused terminal, and assert it solved the board."""
    with practice_page(browser, puzzle, **page_options) as server:
        if move:
            place_window(display, puzzle.n)
        with terminal_focused(display):
            done = run_tool(display=display)
        print(done.stdout, done.stderr)  # shown when the wait below fails too
        state = server.wait_for(solved=True, timeout=5) if done.returncode == 0 else server.state()
    assert_solved_by_the_tool(done, state, puzzle)
    return done


# --- openbox ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [9, 11])
def test_chromium_under_openbox_decorated_and_moved_is_solved(n, openbox_chromium, openbox_xvfb):
    done = run_on_page(openbox_chromium, openbox_xvfb.display, puzzle_of(n, 1), move=True)
    assert "Chromium" in done.stdout.splitlines()[0]  # "read a 9x9 board from the window '...'"


def test_firefox_under_openbox_is_solved(openbox_firefox, openbox_xvfb):
    done = run_on_page(openbox_firefox, openbox_xvfb.display, puzzle_of(10, 2), move=True)
    assert "Mozilla Firefox" in done.stdout.splitlines()[0]  # read from the Firefox window


def test_a_browser_on_another_desktop_is_named_so_and_not_clicked(openbox_chromium, openbox_xvfb):
    """openbox hides the windows of other desktops as if minimised (_NET_WM_STATE_HIDDEN): the
    refusal said "minimised; restore it". It says which desktop to go to."""
    display = openbox_xvfb.display
    with practice_page(openbox_chromium, puzzle_of(8, 3)) as server, Desktop(display) as desktop:
        browser = desktop.find_window()
        xdotool(display, "set_num_desktops", "2")
        xdotool(display, "set_desktop_for_window", str(browser.wid), "1")
        try:
            wait_until(lambda: not present(desktop.refresh(browser)).viewable)
            done = run_tool(display=display)
        finally:
            xdotool(display, "set_desktop_for_window", str(browser.wid), "0")
            wait_until(lambda: present(desktop.refresh(browser)).viewable)
        state = server.state()
    assert done.returncode == 2 and state.moves == 0, done.stdout + done.stderr
    assert "on another desktop" in done.stderr and "switch to that desktop" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("zoom", [0.5, 0.67])
def test_firefox_at_small_zoom_drops_cell_lines_and_is_still_solved(zoom, openbox_firefox, openbox_xvfb):
    """Firefox draws a 1 px line at 50% or 67% zoom by where it falls on the pixel grid, and drops
    many: at 50% every vertical cell line. The merged cells are split again by the lattice."""
    done = run_on_page(openbox_firefox, openbox_xvfb.display, puzzle_of(9, 3), zoom=zoom)
    assert "Mozilla Firefox" in done.stdout.splitlines()[0]


def test_firefox_at_half_zoom_finishes_a_board_the_user_began(openbox_firefox, openbox_xvfb):
    """A board the user has half solved, at 50% zoom in Firefox (no cell line inside a region):
    the tool reads the user's queens and X marks and clicks only what is missing. Found live:
    the crowns made such a board unreadable ("no board"), so a user's half-solved board could not
    be finished at 50%, nor could a second round re-read the board its first round had clicked."""
    puzzle = generate_puzzle(9, rng=random.Random(9003))
    queens = present(search(puzzle).solution).queens
    begun = [["."] * 9 for _ in range(9)]
    for i, (r, c) in enumerate(queens):
        begun[r][c] = "x" if i in (2, 5) else "." if i == 7 else "Q"  # two marks to turn, one left
    initial = ["".join(row) for row in begun]
    with practice_page(openbox_firefox, puzzle, zoom=0.5, initial=initial, win_screen="none") as server:
        result = run(Source(display=openbox_xvfb.display), Options())
        state = server.wait_for(solved=True, timeout=5) if result.ok else server.state()
    text = "\n".join(report_lines(result))
    assert state.solved and state.page_solved, f"page reports {state.states}\n{text}"
    assert set(state.queens) == set(queens)
    assert result.outcome is RunOutcome.SOLVED, text
    # the user's marks were read: x -> queen twice (one click each), empty -> queen (two); a busy
    # Firefox may still drop a click, which a second round makes good
    assert result.rounds[0].clicks == 4, text


def test_firefox_moved_by_a_cell_during_the_clicks_gets_no_more_clicks(openbox_firefox, openbox_xvfb):
    """Issue 28 in Firefox (the Chromium cases are in test_e2e_inflight): a slow run, the window
    moved by a cell after a few clicks; not one more click, and the move named."""
    display, puzzle = openbox_xvfb.display, puzzle_of(9, 4)

    def change(_server: object, window: WindowRecord, board: Rect) -> AbstractContextManager[object]:
        return moved_by_a_cell(display, window, board, puzzle.n)

    done = run_changed_under(openbox_firefox, display, puzzle, change)
    assert_stopped_at_once(done, "moved by (")


@pytest.mark.parametrize("which", ["chromium", "firefox"])
def test_the_pointer_left_on_the_board_under_openbox_is_moved_off_and_the_board_solved(
    which, openbox_chromium, openbox_firefox, openbox_xvfb
):
    """Issue 30 under a window manager, in both browsers: the pointer resting on the board with
    the cell darkened and its tooltip up; solved (a second round may make good a click openbox
    lost), the pointer put back."""
    browser = openbox_chromium if which == "chromium" else openbox_firefox
    done = run_with_the_pointer_on_the_board(browser, openbox_xvfb.display, puzzle_of(9, 5))
    assert_solved_and_pointer_back(done)


def window_id(display: str, title: str) -> str:
    """The id of the viewable window whose title contains `title` (once it shows), for xdotool."""
    wait_for_window(display, title, timeout=30, contains=True)
    with Desktop(display) as desktop:
        (record,) = [r for r in desktop.windows() if title in r.title and r.viewable]
    return str(record.wid)


def test_a_page_at_150_percent_cut_by_the_window_frame_is_named_and_scroll_solves_it(
    openbox_chromium, openbox_firefox, openbox_xvfb,
):
    """At 150% the 9x9 board runs past the bottom of the decorated window, whose light frame
    follows the cut row: the refusal names the bottom edge and --scroll (not "no board", which it
    was), and --scroll brings the board in and solves it. Firefox (on its blank page since the
    tests before) is put behind the browser first: --scroll must not turn the wheel over another
    window."""
    display, puzzle = openbox_xvfb.display, puzzle_of(9, 1)
    with practice_page(openbox_chromium, puzzle, zoom=1.5, whole_board=False) as server:
        window_id(display, "Mozilla Firefox")  # it shows, then goes behind the browser
        xdotool(display, "windowactivate", "--sync", window_id(display, "Queens"))
        with terminal_focused(display):
            refused = run_tool(display=display)
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert "cut off" in refused.stderr and "bottom" in refused.stderr, refused.stderr
        assert "--scroll" in refused.stderr and "nothing was clicked" in refused.stderr
        assert server.state().moves == 0
        with terminal_focused(display):
            done = run_tool("--scroll", display=display)
        state = server.wait_for(solved=True, timeout=5) if done.returncode == 0 else server.state()
    print(done.stdout)
    assert_solved_by_the_tool(done, state, puzzle)


def test_scroll_refuses_to_turn_the_wheel_over_another_window(openbox_chromium, openbox_xvfb):
    """The wheel turns whatever window is under the pointer: a window stacked over the middle of
    the browser's is named, and nothing is scrolled."""
    display = openbox_xvfb.display
    with practice_page(openbox_chromium, puzzle_of(6, 1)), Desktop(display) as desktop:
        xdotool(display, "windowactivate", "--sync", window_id(display, "Queens"))
        browser = desktop.find_window("Queens", False)
        middle = (browser.rect.left + browser.rect.width // 2, browser.rect.top + browser.rect.height // 2)
        check_scroll_point(desktop, browser, middle, 0)  # the browser itself: allowed
        with (xmessage(display, "Notes", at=(middle[0] - 20, middle[1] - 20)),
              pytest.raises(UnsafeToClick, match="'Notes' lies over the middle") as refusal):
            check_scroll_point(desktop, browser, middle, 0)
    assert "nothing scrolled" in str(refusal.value)


# --- two X screens ------------------------------------------------------------------------


def presses_before_one_of_ours(recorder: ClickRecorder) -> list[tuple[int, int, int]]:
    """The presses `recorder` got before one we make now at (40, 50): the X server delivers them
    in order, so once ours is written down every earlier one is too (no sleep, no guess)."""
    before = len(recorder.presses())
    xdotool(recorder.display, "mousemove", "--screen", "0", "40", "50", "click", "1")
    wait_until(lambda: len(recorder.presses()) > before, timeout=5, what="our press on screen 0")
    *earlier, ours = recorder.presses()
    assert ours == (40, 50, 1), ours
    return earlier


def test_click_recorder_sees_a_click_on_screen_0(two_screens, click_recorder: ClickRecorder):
    # Without this, "the recorder saw no click" below could mean a recorder that sees nothing.
    assert presses_before_one_of_ours(click_recorder) == []
    assert click_recorder.presses() == [(40, 50, 1)]


def test_browser_on_the_second_screen_is_clicked_there_and_never_on_screen_0(
    screen1_chromium, two_screens, click_recorder: ClickRecorder,
):
    n = 9
    puzzle = puzzle_of(n, 3)
    with practice_page(screen1_chromium, puzzle) as server:
        done = run_tool(display=two_screens.screen(1))
        state = server.wait_for(solved=True, timeout=5) if done.returncode == 0 else server.state()
    assert presses_before_one_of_ours(click_recorder) == [], "clicks reached screen 0"
    assert_solved_by_the_tool(done, state, puzzle)


def test_display_of_screen_0_says_the_browser_is_on_the_other_screen(
    screen1_chromium, two_screens, click_recorder: ClickRecorder,
):
    puzzle = puzzle_of(9, 4)
    with practice_page(screen1_chromium, puzzle) as server:
        done = run_tool(display=two_screens.screen(0))
        state = server.state()
    assert state.moves == 0 and state.states == server.initial, "the page was clicked"
    assert presses_before_one_of_ours(click_recorder) == []
    assert done.returncode == 2, done.stdout + done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert "error:" in message and two_screens.screen(1) in message, message


def test_the_window_manager_is_named_where_one_runs_and_none_where_none_does(openbox_xvfb, xvfb):
    """The pace of the first round depends on it (a cell's two clicks spaced under one)."""
    with Desktop(openbox_xvfb.display) as managed, Desktop(xvfb.display) as bare:
        assert managed.window_manager() == "Openbox"
        assert bare.window_manager() is None
