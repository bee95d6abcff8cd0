"""`queens-autosolve watch` end to end on Wayland: the practice page with LinkedIn's start screen
in a native Chromium on a headless sway (tests/wayland.py) and on a headless mutter, GNOME's
(tests/gnome_session.py); `watch` started from a terminal in the session (no X11 display), Start
pressed by a real click through the desktop's own virtual pointer (sway's wlr virtual pointer,
mutter's remote desktop). Asserted from the page's own reports: each board solved once, no press
on it after."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import partial

import pytest

from queens_autosolve.pages.browser import Chromium
from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.pages.sway import Sway
from tests.gnome_session import GnomeStage, gnome_stage
from tests.test_e2e_watch import assert_untouched_since_solved, puzzles
from tests.watching import WatchProcess, is_solved_board, press_next_puzzle, press_start
from tests.wayland import native_chromium, require_sway, served, wait_for_title

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def sway() -> Iterator[Sway]:
    require_sway()
    with Sway() as stage:
        yield stage


@pytest.fixture(scope="module")
def chromium(sway: Sway) -> Iterator[Chromium]:
    browser = native_chromium(sway).start("about:blank")
    try:
        yield browser
    finally:
        browser.stop()


@pytest.fixture(scope="module")
def gnome() -> Iterator[GnomeStage]:
    with gnome_stage() as stage:
        yield stage


def assert_watch_solves_start_then_next_once(browser: Chromium, server: PracticeServer, desktop: str,
                                             session: Mapping[str, str]) -> None:
    """`watch --desktop DESKTOP` in the session; Start pressed, then Next puzzle: each board solved
    once and left alone after, and the summary on Ctrl-C."""
    browser.open(server.url)
    server.wait_for(lambda s: s.reports > 0 and not s.started, timeout=20)
    watch = WatchProcess("", ("--json", "--desktop", desktop), session=session)
    try:
        waiting = watch.wait_for_line("waiting for a board", stream="err")
        # GNOME lists no windows: the one monitor is watched, and the line says so
        assert ("watch looks at the GNOME monitor" in waiting) == (desktop == "gnome"), waiting
        press_start(server, "", desktop=desktop, session=session)
        for board in (0, 1):
            if board:
                press_next_puzzle(browser)
            try:
                server.wait_for(partial(is_solved_board, board), timeout=30)
            except TimeoutError:
                raise AssertionError(f"board {board} not solved: {server.state()}; watch said "
                                     f"{watch.out} {watch.err}") from None
            state = assert_untouched_since_solved(server, board)
            assert state.shown_to_solved_ms is not None and 0 < state.shown_to_solved_ms < 5000
        status = watch.interrupt()
    finally:
        watch.stop()
        browser.open("about:blank")
    lines = [json.loads(line) for line in watch.out]
    boards = [line for line in lines if "board" in line]
    assert [(b["board"], b["verdict"], b["ok"]) for b in boards] == [(1, "fresh", True), (2, "fresh", True)]
    summary = "watched 2 board(s): 2 solved, 0 not solved, 0 left alone, 0 already solved"
    assert lines[-1]["summary"] == summary
    assert status == 130


def test_watch_on_sway_solves_the_board_behind_start_and_the_next_one_once(sway, chromium):
    first, second = puzzles(2, 801)
    with served(sway, first, start_screen=True, win_screen="none", next_puzzles=[second]) as server:
        assert_watch_solves_start_then_next_once(chromium, server, "wlroots", sway.env)


def test_watch_on_gnome_solves_the_board_behind_start_and_the_next_one_once(gnome):
    first, second = puzzles(2, 901)
    with PracticeServer(first, start_screen=True, win_screen="none", next_puzzles=[second]) as server:
        assert_watch_solves_start_then_next_once(gnome.chromium, server, "gnome", gnome.env)


def test_watch_without_sways_ipc_finds_the_board_on_the_second_output():
    """A wlroots compositor with no window list and two outputs, the browser on the second: watch
    looks at the first output, finds no board there, and goes on to the next in turn (it waited
    on the first forever); Start, then Next puzzle, each solved once. A sway of its own: two
    outputs, SWAYSOCK left out of the session."""
    require_sway()
    first, second = puzzles(2, 805)
    with Sway() as stage:
        stage.swaymsg("create_output")
        stage.swaymsg("output", "HEADLESS-2", "mode", "1920x1080", "position", "1920", "0")
        browser = native_chromium(stage).start("about:blank")
        try:
            wait_for_title(stage, "Chromium")
            stage.swaymsg("[app_id=chromium]", "floating", "enable")
            stage.swaymsg("[app_id=chromium]", "resize", "set", "1168", "998")
            stage.swaymsg("[app_id=chromium]", "move", "absolute", "position", "2000", "20")
            session = {k: v for k, v in stage.env.items() if k != "SWAYSOCK"}
            with served(stage, first, start_screen=True, win_screen="none", next_puzzles=[second]) as server:
                assert_watch_solves_start_then_next_once(browser, server, "wlroots", session)
        finally:
            browser.stop()
