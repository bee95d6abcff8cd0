"""`queens-autosolve watch` end to end: the practice page with LinkedIn's start screen in a real
Chromium on Xvfb, `watch` started from a terminal as a user does, Start pressed with a real
click (xdotool). Asserted from the page's own reports: each board solved once, and no press at
all on a board after it was solved (the page counts every press on its board, those a solved
board ignores too); a board begun by hand gets no press from `watch`; nor does a board shown
while a real screen locker (i3lock) holds the pointer, which `watch` solves once it is unlocked."""

from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest

from queens_autosolve.pages.browser import Chromium
from queens_autosolve.pages.practice import PageState, PracticeServer
from queens_autosolve.solver.generator import generate_puzzle
from tests.checks import present
from tests.environment import require_tool
from tests.live import board_box, cell_centre, grab, xdotool
from tests.watching import WatchProcess, press_next_puzzle, press_start

pytestmark = pytest.mark.e2e

N = 8
QUIET = 1.0  # s the page is watched after a solve for a stray press


def puzzles(count: int, first_seed: int) -> list:
    return [generate_puzzle(N, rng=first_seed + i) for i in range(count)]


def open_start_screen(browser: Chromium, server: PracticeServer) -> None:
    """The page loaded in `browser` and showing its Start button (reported so)."""
    browser.open(server.url)
    server.wait_for(lambda s: s.reports > 0 and not s.started, timeout=20)
    browser.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def solved_board(server: PracticeServer, board: int) -> PageState:
    return server.wait_for(lambda s: s.board == board and s.solved, timeout=30)


def solved_once(server: PracticeServer, board: int, watch: WatchProcess) -> PageState:
    """`board` solved (what `watch` said otherwise in the error), then left alone."""
    try:
        solved_board(server, board)
    except TimeoutError:
        said = f"{watch.out} {watch.err}"
        raise AssertionError(f"board {board} not solved: {server.state()}; watch said {said}") from None
    return assert_untouched_since_solved(server, board)


def assert_untouched_since_solved(server: PracticeServer, board: int) -> PageState:
    """The board stays as solved, with one press a click (two a queen) and none more."""
    time.sleep(QUIET)
    state = server.state()
    assert state.board == board and state.solved
    assert state.presses == 2 * N, f"board {board}: {state.presses} presses for {N} queens"
    assert present(state.shown_to_solved_ms) > 0
    return state


def test_watch_solves_the_board_behind_start_then_each_next_puzzle_once(browser: Chromium):
    first, *rest = puzzles(4, 301)
    with PracticeServer(first, start_screen=True, win_screen="none", next_puzzles=rest) as server:
        open_start_screen(browser, server)
        assert not server.state().started
        watch = WatchProcess(browser.display, ("--json",))
        try:
            watch.wait_for_line("waiting for a board", stream="err")
            press_start(server, browser.display)
            solved_board(server, 0)
            assert_untouched_since_solved(server, 0)
            for board in (1, 2, 3):
                press_next_puzzle(browser)
                solved_board(server, board)
                assert_untouched_since_solved(server, board)
            status = watch.interrupt()
        finally:
            watch.stop()
    lines = [json.loads(line) for line in watch.out]
    boards = [line for line in lines if "board" in line]
    assert [b["board"] for b in boards] == [1, 2, 3, 4]
    assert all(b["verdict"] == "fresh" and b["ok"] and b["clicks"] == 2 * N for b in boards)
    summary = "watched 4 board(s): 4 solved, 0 not solved, 0 left alone, 0 already solved"
    assert lines[-1]["summary"] == summary
    assert status == 130


def test_watch_leaves_a_board_begun_by_hand_alone_and_solves_the_next(browser: Chromium):
    first, second = puzzles(2, 401)
    with PracticeServer(first, start_screen=True, win_screen="none", next_puzzles=[second]) as server:
        open_start_screen(browser, server)
        press_start(server, browser.display)
        server.wait_for(lambda s: s.started and s.shown_ms is not None, timeout=10)
        pixels, at = grab(browser)
        box = board_box(pixels)
        assert box is not None
        cx, cy = cell_centre(box, N, (0, 0), at)
        xdotool(browser.display, "mousemove", str(cx), str(cy), "click", "1")  # an X, by hand
        server.wait_for(lambda s: s.moves == 1, timeout=10)
        watch = WatchProcess(browser.display)
        try:
            line = watch.wait_for_line("board 1:")
            assert "begun by hand: left alone" in line
            time.sleep(QUIET)
            state = server.state()
            assert (state.presses, state.moves, state.solved) == (1, 1, False)
            press_next_puzzle(browser)
            solved_board(server, 1)
            assert_untouched_since_solved(server, 1)
            assert "solved" in watch.wait_for_line("board 2:")
            assert watch.interrupt() == 130
        finally:
            watch.stop()
    assert watch.out[-1] == "watched 2 board(s): 1 solved, 0 not solved, 1 left alone, 0 already solved"


@pytest.mark.parametrize("where", [(), ("--screen",)], ids=["window", "screen"])
def test_watch_once_exits_with_runs_status_after_the_first_board(browser: Chromium, where: tuple[str, ...]):
    (puzzle,) = puzzles(1, 501)
    with PracticeServer(puzzle, start_screen=True, win_screen="none") as server:
        open_start_screen(browser, server)
        watch = WatchProcess(browser.display, ("--once", *where))
        try:
            watch.wait_for_line("waiting for a board", stream="err")
            press_start(server, browser.display)
            assert watch.wait(timeout=30) == 0
        finally:
            watch.stop()
        assert server.wait_for(lambda s: s.solved, timeout=5).presses == 2 * N
    assert len(watch.out) == 1 and watch.out[0].startswith(f"board 1: {N}x{N}, board shown -> last click")


def assert_left_as_it_is(server: PracticeServer, board: int) -> None:
    """A board `watch` has met before, shown again: after QUIET s, no press on it."""
    state = server.wait_for(lambda s: s.board == board and s.shown_ms is not None, timeout=10)
    time.sleep(QUIET)
    state = server.state()
    assert (state.presses, state.queens) == (0, ()), f"board {board} met again was clicked: {state}"


def test_watch_survives_reload_tab_switch_move_resize_and_the_window_closed_and_opened_again(xvfb):
    """Its own Chromium (the shared one stays where the other tests expect it)."""
    first, *rest = puzzles(4, 601)
    with PracticeServer(first, start_screen=True, win_screen="none", next_puzzles=rest) as server:
        browser = Chromium(xvfb.display, size=(1100, 1000), position=(40, 30)).start("about:blank")
        watch = WatchProcess(xvfb.display)
        try:
            open_start_screen(browser, server)
            press_start(server, xvfb.display)
            solved_once(server, 0, watch)
            browser.call("Page.reload")  # the same board behind Start again: met before
            server.wait_for(lambda s: s.reports > 0 and not s.started and not s.queens, timeout=20)
            time.sleep(0.3)
            press_start(server, xvfb.display)
            assert_left_as_it_is(server, 0)
            xdotool(xvfb.display, "search", "--name", "Queens", "windowmove", "--sync", "300", "150")
            press_next_puzzle(browser)
            solved_once(server, 1, watch)
            said = len(watch.err)
            other = browser.call("Target.createTarget", url="about:blank")["targetId"]  # another tab
            watch.wait_for_line("waiting for a board", stream="err", since=said)
            browser.call("Target.closeTarget", targetId=other)  # back to the Queens tab: met before
            browser.call("Page.bringToFront")
            time.sleep(QUIET)
            assert server.state().presses == 2 * N
            xdotool(xvfb.display, "search", "--name", "Queens", "windowsize", "--sync", "1000", "960")
            press_next_puzzle(browser)
            solved_once(server, 2, watch)
            said = len(watch.err)
            browser.stop()
            watch.wait_for_line("waiting for a browser window", stream="err", since=said)
            browser = Chromium(xvfb.display, size=(1100, 1000), position=(0, 0)).start("about:blank")
            open_start_screen(browser, server)
            press_start(server, xvfb.display)
            assert_left_as_it_is(server, 2)
            press_next_puzzle(browser)
            solved_once(server, 3, watch)
            status = watch.interrupt()
        finally:
            watch.stop()
            browser.stop()
    assert watch.out[-1] == "watched 4 board(s): 4 solved, 0 not solved, 0 left alone, 0 already solved"
    assert status == 130


def lock_screen(display: str) -> subprocess.Popen[str]:
    """i3lock on `display`, in the foreground (-n) so that the test can end it: it covers the screen
    and holds the pointer and the keyboard, as a user's locked screen does."""
    require_tool(shutil.which("i3lock") is not None, "i3lock")
    env = {"DISPLAY": display, "PATH": "/usr/bin:/bin"}
    return subprocess.Popen(["i3lock", "-n", "-c", "224466"], env=env, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_watch_waits_while_the_screen_is_locked_and_solves_the_board_shown_meanwhile(browser: Chromium):
    first, second = puzzles(2, 701)
    with PracticeServer(first, start_screen=True, win_screen="none", next_puzzles=[second]) as server:
        open_start_screen(browser, server)
        watch = WatchProcess(browser.display)
        locker = None
        try:
            watch.wait_for_line("waiting for a board", stream="err")
            press_start(server, browser.display)
            solved_once(server, 0, watch)
            said = len(watch.err)
            locker = lock_screen(browser.display)
            watch.wait_for_line("waiting for the screen to be unlocked", stream="err", since=said)
            press_next_puzzle(browser)  # a new board behind the lock (as a page may load one itself)
            # (Chromium paints no frame of a window the lock hides: the page's clock starts at unlock)
            server.wait_for(lambda s: s.board == 1, timeout=10)
            time.sleep(QUIET)
            assert locker.poll() is None, "i3lock ended by itself"
            state = server.state()
            assert (state.board, state.presses, state.solved) == (1, 0, False), f"clicked locked: {state}"
            locker.terminate()  # the user unlocks
            locker.wait(timeout=10)
            solved_once(server, 1, watch)
            assert "solved" in watch.wait_for_line("board 2:")
            assert watch.interrupt() == 130
        finally:
            if locker is not None and locker.poll() is None:
                locker.kill()
                locker.wait(timeout=10)
            watch.stop()
    assert watch.out[-1] == "watched 2 board(s): 2 solved, 0 not solved, 0 left alone, 0 already solved"
