"""Live: issue 30, round two, on the practice page's options for them.

- LinkedIn's win dialog over a big board (items 2 and 8): on 14x14-18x18 boards its edges run
  through a row and a column; the cells they cut read as queens, and a won page ended in exit 2
  after 17 s. `win_screen="card"` lays such a dialog over the board in the same paint as the
  solving press, so it is up at the check; a second run finds it still up.
- Region letters in the cells (item 7, `letters`): refused naming them, nothing clicked.
- Strict click handling (item 4, `strict_clicks`): a press acts only when its cell still shows at
  pointerup what its pointerdown saw.
- `hint --apply` to the end on an 18x18 board at 67% zoom (item 3's coach runs).
- The conditions together: the pointer left on the board with its tooltip, strict clicks and
  the win dialog; letters with the pointer on the board.

In Chromium and Firefox, with and without a window manager (openbox). Each test asserts what the
page itself reports, the exit status and the tool's message.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from queens_autosolve.autosolve.live_coach import hint
from queens_autosolve.autosolve.records import Source
from queens_autosolve.pages.practice import PageState
from queens_autosolve.solver.coach import hint_sequence
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import search
from tests.checks import present
from tests.live import (
    PageBrowser,
    assert_solved_and_pointer_back,
    practice_page,
    run_with_the_pointer_on_the_board,
)

pytestmark = pytest.mark.e2e

BROWSERS = ("browser", "openbox_chromium", "bare_firefox", "openbox_firefox")


def puzzle_of(n: int, seed: int) -> Puzzle:
    return generate_puzzle(n, rng=random.Random(9000 + n * 10 + seed))


def display_of(request: pytest.FixtureRequest, name: str) -> tuple[PageBrowser, str]:
    browser = request.getfixturevalue(name)
    return browser, browser.display


def run_tool(display: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env["DISPLAY"] = display
    return subprocess.run([sys.executable, "-m", "queens_autosolve", "run", *args], env=env,
                          capture_output=True, text=True, timeout=90)


def assert_page_solved(state: PageState, puzzle: Puzzle) -> None:
    assert state.solved and state.page_solved and state.win_shown, f"page reports {state.states}"
    assert set(state.queens) == set(present(search(puzzle).solution).queens)


# Each size in both browsers, with and without a window manager: a pairwise cover of sizes x
# browsers x window managers (the full cross, 8 runs, cost 72 s of a worker's time in a CI run).
PAIRWISE = [(15, "browser"), (15, "openbox_firefox"), (18, "openbox_chromium"), (18, "bare_firefox")]


@pytest.mark.parametrize(("n", "name"), PAIRWISE)
def test_the_win_dialog_over_a_big_board_at_the_check_is_solved_within_a_second(request, n, name):
    browser, display = display_of(request, name)
    puzzle = puzzle_of(n, 1)
    with practice_page(browser, puzzle, win_screen="card") as server:
        done = run_tool(display, "--delay", "0.05", "--json")
        state = server.wait_for(lambda s: s.solved and s.win_shown, timeout=5)
    assert_page_solved(state, puzzle)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["message"] == "solved (the page shows its win screen)", result
    # under openbox a press it lost before the page saw it (1 first round in 40 measured) is made
    # up by a second round; the checks after both still take under a second
    rounds = 2 if "openbox" in name else 1
    assert len(result["rounds"]) <= rounds and result["timings"]["verify"] < 1.0, result


@pytest.mark.parametrize(("n", "zoom"), [(14, 0.5), (16, 0.67)])
def test_the_win_dialog_over_a_big_board_at_small_zoom_is_solved(browser, xvfb, n, zoom):
    puzzle = puzzle_of(n, 3)
    with practice_page(browser, puzzle, win_screen="card", zoom=zoom) as server:
        done = run_tool(xvfb.display, "--delay", "0.05", "--json")
        state = server.wait_for(lambda s: s.solved and s.win_shown, timeout=5)
    assert_page_solved(state, puzzle)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["message"] == "solved (the page shows its win screen)", result
    assert len(result["rounds"]) == 1 and result["timings"]["verify"] < 1.0, result


@pytest.mark.parametrize("name", BROWSERS)
def test_already_solved_with_the_win_dialog_up_is_exit_0_and_nothing_clicked(request, name):
    """Item 8: the board solved and the page's win dialog still up (a second run after a win, then
    a third with --dry-run). Before: "shows a board whose regions cannot be read ... set the page
    zoom to 100%", exit 2."""
    browser, display = display_of(request, name)
    puzzle = puzzle_of(15, 2)
    with practice_page(browser, puzzle, win_screen="card") as server:
        first = run_tool(display)
        won = server.wait_for(lambda s: s.solved and s.win_shown, timeout=5)
        again = [run_tool(display, *args) for args in [(), ("--dry-run",)]]
        state = server.state()
    assert first.returncode == 0, first.stdout + first.stderr
    assert_page_solved(state, puzzle)
    assert state.moves == won.moves  # nothing was clicked
    for done in again:
        assert done.returncode == 0, done.stdout + done.stderr
        line = done.stdout.strip()
        assert line.startswith("already solved:") and "win screen" in line, line
        assert line.endswith("nothing was clicked"), line


@pytest.mark.parametrize("name", ["browser", "openbox_chromium"])
def test_region_letters_in_the_cells_are_refused_naming_them_and_nothing_is_clicked(request, name):
    """Item 7: with the page's option that prints region letters in the cells, every run was
    refused with wrong causes (letters read as queens: "row 8 has 2 queen(s)" without "nothing
    was clicked"; "cut off"; "found 41 regions ... zoom"). Now the refusal names the letters."""
    browser, display = display_of(request, name)
    lettered: dict[str, Any] = dict(letters=True, win_screen="none", whole_board=False)
    with practice_page(browser, puzzle_of(9, 3), **lettered) as server:
        done = run_tool(display)
        state = server.state()
    assert done.returncode == 2 and state.moves == 0, done.stdout + done.stderr
    error = done.stderr.strip()
    assert len(error.splitlines()) == 1 and "Traceback" not in error, error
    assert "letters in the cells" in error and error.count("nothing was clicked") == 1, error
    assert "queen(s)" not in error and "cut off" not in error and "zoom" not in error, error


@pytest.mark.parametrize("name", BROWSERS)
def test_strict_clicks_tooltip_and_win_dialog_together_with_the_pointer_on_a_15x15_board(request, name):
    """Items 1, 2 and 4 at once: the pointer resting on the board with its tooltip up, a page that
    drops a press whose cell changed between its pointerdown and pointerup, and the win dialog
    over the board at the check: solved, the pointer put back. One round without a window
    manager; under openbox at most three: its first round was clean in 39 of 40 runs measured
    alone (a press openbox lost before the page saw it, made up by the next round), and in a CI
    run of the whole suite with both cores saturated the second round lost one as well (3 rounds,
    solved). The page itself must drop nothing."""
    browser, display = display_of(request, name)
    puzzle = puzzle_of(15, 4)
    done = run_with_the_pointer_on_the_board(browser, display, puzzle, strict_clicks=True, win_screen="card")
    assert_solved_and_pointer_back(done, rounds=1 if "openbox" not in name else 3)
    assert done.state.win_shown and done.state.dropped == 0
    assert done.report["message"] == "solved (the page shows its win screen)", done.report


@pytest.mark.parametrize("name", ["browser", "openbox_chromium"])
def test_letters_with_the_pointer_on_the_board_are_refused_and_the_pointer_put_back(request, name):
    browser, display = display_of(request, name)
    done = run_with_the_pointer_on_the_board(browser, display, puzzle_of(11, 5), letters=True,
                                             strict_clicks=True, whole_board=False)
    assert done.returncode == 2 and done.state.moves == 0, done.stderr
    assert "letters in the cells" in done.stderr and "nothing was clicked" in done.stderr
    assert done.pointer_after == done.pointer_before


def test_hint_apply_step_by_step_to_the_end_on_a_big_board(browser, xvfb):
    """Item 3's coach runs: `hint --apply` stopped after 1-3 steps on a 17x17 and an 18x18 board
    (the real page's X marks at about 24 px cells). On the practice page's 18x18 board at 67% zoom
    (20 px cells; the page's example boards then show below it, their cells 0.78 of its own),
    every step is made and the page reports solved. (To the end at 100%: test_coach_live.py.)"""
    n, zoom = 18, 0.67
    puzzle = generate_puzzle(n, rng=random.Random(9000 + n))
    made = 0
    with practice_page(browser, puzzle, zoom=zoom, win_screen="none"):
        while made < 4 * n:
            result = hint(Source(display=xvfb.display), apply=True)
            assert not result.advice.mistakes, result.advice.lines()
            if result.applied is None:  # the coach sees every queen in place
                assert result.advice.lines() == ["solved: every queen is in place"], result.advice.lines()
                break
            assert result.applied.shown and result.applied.clicks > 0, result.applied.missing
            made += 1
        # the page's own state, asked in the page: its reports to the server stalled once on an
        # 18x18 board (the server's copy stopped at 125 of 148 moves), which is not under test here
        rows, solved = browser.evaluate("[queensGame.rows(), queensGame.solved]")
    queens = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "Q"}
    assert solved and queens == set(present(search(puzzle).solution).queens)
    assert made >= len(hint_sequence(puzzle))  # (the coach's first steps, then one at a time)
