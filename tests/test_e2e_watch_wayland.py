"""`queens-autosolve watch` end to end on Wayland: the practice page with LinkedIn's start screen
in a native Chromium on a headless sway (tests/wayland.py), `watch` started from a terminal in the
session (no X11 display), Start pressed by a real click through sway's virtual pointer. Asserted
from the page's own reports: each board solved once, no press on it after."""

from __future__ import annotations

import json

import pytest
from test_e2e_watch import assert_untouched_since_solved, puzzles
from watching import WatchProcess, press_next_puzzle, press_start
from wayland import native_chromium, require_sway, served

from queens_autosolve.pages.sway import Sway

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def sway():
    require_sway()
    with Sway() as stage:
        yield stage


@pytest.fixture(scope="module")
def chromium(sway):
    browser = native_chromium(sway).start("about:blank")
    try:
        yield browser
    finally:
        browser.stop()


def test_watch_on_sway_solves_the_board_behind_start_and_the_next_one_once(sway, chromium):
    first, second = puzzles(2, 801)
    with served(sway, first, start_screen=True, win_screen="none", next_puzzles=[second]) as server:
        chromium.open(server.url)
        server.wait_for(lambda s: s.reports > 0 and not s.started, timeout=20)
        watch = WatchProcess("", ("--json", "--desktop", "wlroots"), session=sway.env)
        try:
            watch.wait_for_line("waiting for a board", stream="err")
            press_start(server, "", desktop="wlroots", session=sway.env)
            for board in (0, 1):
                if board:
                    press_next_puzzle(chromium)
                try:
                    server.wait_for(lambda s, b=board: s.board == b and s.solved, timeout=30)
                except TimeoutError:
                    raise AssertionError(f"board {board} not solved: {server.state()}; watch said "
                                         f"{watch.out} {watch.err}") from None
                state = assert_untouched_since_solved(server, board)
                assert 0 < state.shown_to_solved_ms < 5000
            status = watch.interrupt()
        finally:
            watch.stop()
            chromium.open("about:blank")
    lines = [json.loads(line) for line in watch.out]
    boards = [line for line in lines if "board" in line]
    assert [(b["board"], b["verdict"], b["ok"]) for b in boards] == [(1, "fresh", True), (2, "fresh", True)]
    summary = "watched 2 board(s): 2 solved, 0 not solved, 0 left alone, 0 already solved"
    assert lines[-1]["summary"] == summary
    assert status == 130
