"""End to end: the practice page in a real Chromium on Xvfb, solved by the pipeline with real
pyautogui clicks. Every test asserts what the page itself reports (solved), not what we read.

One Xvfb and one Chromium serve the module; the HiDPI test starts a second Chromium with a
device scale factor, and the CLI tests run `queens-autosolve` as users do.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import pytest

from queens_autosolve.autosolve.pipeline import run
from queens_autosolve.autosolve.records import Options, RunResult, Source
from queens_autosolve.pages.browser import Chromium
from queens_autosolve.pages.practice import PageState, PracticeServer
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import search
from tests.checks import present
from tests.live import practice_page, wait_painted, wait_until, xdotool

pytestmark = pytest.mark.e2e


def puzzle_of(n: int, seed: int) -> Puzzle:
    return generate_puzzle(n, rng=random.Random(1000 * n + seed))


def solve_on_page(display: str, server: PracticeServer, **options: object) -> tuple[RunResult, PageState]:
    """Run the pipeline against the page on `display`; return its result and the page's report."""
    result = run(Source(display=display), Options(**options))  # type: ignore[arg-type]
    state = server.wait_for(solved=True, timeout=5)
    return result, state


def assert_solved(result: RunResult, state: PageState, puzzle: Puzzle) -> None:
    assert state.solved and state.page_solved, f"page reports {state.states}"
    assert result.outcome.solved and result.ok, (result.outcome, result.differences)
    assert set(state.queens) == set(present(search(puzzle).solution).queens)


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10, 11, 12, 13, 14])
def test_solves_each_size_on_the_page(n, browser, xvfb):
    puzzle = puzzle_of(n, 0)
    with practice_page(browser, puzzle) as server:
        result, state = solve_on_page(xvfb.display, server)
    assert_solved(result, state, puzzle)
    assert result.clicks == 2 * n and state.moves == 2 * n  # empty board: two clicks per queen
    print(f"{n}x{n}: window found -> last click {result.to_last_click * 1000:.0f} ms; {result.timings}")


def test_delay_spaces_the_clicks_out(browser, xvfb, sent_clicks):
    puzzle = puzzle_of(5, 7)
    with practice_page(browser, puzzle) as server:
        result, state = solve_on_page(xvfb.display, server, delay=0.05)
    assert_solved(result, state, puzzle)
    # ten clicks (two per queen), each press released before the next, the delay after every click
    assert [c.name for c in sent_clicks] == ["press", "release"] * 10
    presses = [c for c in sent_clicks if c.name == "press"]
    assert all(later.at - earlier.at >= 0.05 for earlier, later in itertools.pairwise(presses))
    assert all(c.button == 1 for c in sent_clicks)  # the left button


def test_partly_filled_board_with_x_marks_and_a_wrong_queen(browser, xvfb):
    puzzle = puzzle_of(8, 1)
    answer = set(present(search(puzzle).solution).queens)
    wrong = next((r, c) for r in range(8) for c in range(8) if (r, c) not in answer)
    x_on_answer = sorted(answer)[3]
    x_elsewhere = next((r, c) for r in range(7, -1, -1) for c in range(8) if (r, c) not in answer)
    right_queen = sorted(answer)[5]
    marks = {wrong: "Q", x_on_answer: "x", x_elsewhere: "x", right_queen: "Q"}
    initial = ["".join(marks.get((r, c), ".") for c in range(8)) for r in range(8)]
    with practice_page(browser, puzzle, initial=initial) as server:
        result, state = solve_on_page(xvfb.display, server)
    assert_solved(result, state, puzzle)
    # 1 to clear the wrong queen, 1 for the X on an answer cell, 2 for each of the 6 other queens.
    assert result.clicks == 1 + 1 + 2 * 6
    row, col = x_elsewhere
    assert state.states[row][col] == "x"  # the player's X elsewhere is left alone


def test_locked_queens_are_kept_and_never_clicked(browser, xvfb):
    puzzle = puzzle_of(9, 2)
    locked = sorted(present(search(puzzle).solution).queens)[::4]  # 3 of the 9 queens pre-placed
    with practice_page(browser, puzzle, locked=locked) as server:
        result, state = solve_on_page(xvfb.display, server)
    assert_solved(result, state, puzzle)
    assert all(click.cell not in locked for click in present(result.plan))
    assert result.clicks == 2 * (9 - len(locked))
    assert all(state.states[r][c] == "L" for r, c in locked)


def test_dark_mode(browser, xvfb):
    puzzle = puzzle_of(10, 3)
    with practice_page(browser, puzzle, dark=True) as server:
        result, state = solve_on_page(xvfb.display, server)
    assert_solved(result, state, puzzle)


def test_browser_zoomed_out_to_75_percent(browser, xvfb):
    puzzle = puzzle_of(9, 4)
    with practice_page(browser, puzzle) as server:
        _zoom(browser, "ctrl+minus", 0.9, 0.8, 0.75)  # Chromium's steps: 90 %, 80 %, 75 %
        try:
            result, state = solve_on_page(xvfb.display, server)
        finally:
            _zoom(browser, "ctrl+0", 1.0)
    assert_solved(result, state, puzzle)
    cell_pitch = result.reading.centres[0][1][0] - result.reading.centres[0][0][0]
    assert cell_pitch < 45  # really smaller than at 100 % (about 53 px for 9x9)


def test_hidpi_device_scale_factor_1_5(xvfb):
    puzzle = puzzle_of(7, 5)
    hidpi = Chromium(xvfb.display, size=(800, 700), position=(400, 0), scale=1.5)
    with hidpi.start("about:blank"), practice_page(hidpi, puzzle) as server:
        result, state = solve_on_page(xvfb.display, server)
    assert_solved(result, state, puzzle)
    assert result.frame.left >= 600  # the clicks were mapped into a window away from the origin


def test_cli_run_json_solves_the_page_and_reports_every_stage_time(browser, xvfb):
    puzzle = puzzle_of(11, 6)
    with practice_page(browser, puzzle) as server:
        done = subprocess.run(
            [sys.executable, "-m", "queens_autosolve", "run", "--json", "--display", xvfb.display],
            capture_output=True, text=True, timeout=60,
        )
        state = server.wait_for(solved=True, timeout=5)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ok"] and data["verified"] and data["n"] == 11 and state.solved
    assert data["outcome"] in ("solved", "win_screen") and data["rounds"][0]["clicks"] == 22
    assert set(data["timings"]) >= {"find window", "grab", "read", "solve", "plan", "click", "verify"}
    # every stage timed; board seen -> last click lies within them (not the window search, not the verify)
    assert all(seconds > 0 for seconds in data["timings"].values())
    assert 0 < data["to_last_click"] < sum(data["timings"].values())
    # how fast: scripts/bench_live.py (make bench-live), not here


def test_demo_without_chromium_says_how_to_install_it_and_exits_2():
    env = {"PATH": "/nonexistent", "HOME": os.environ.get("HOME", "/root")}
    done = subprocess.run([sys.executable, "-m", "queens_autosolve", "demo", "--size", "5"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "apt-get install -y chromium" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_demo_command_starts_its_own_xvfb_and_reports_the_page_solved():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    # a temporary directory of its own, with a short path: Chromium's singleton socket lies in it,
    # and a socket's path must stay under 108 bytes (pytest's tmp_path under xdist is longer)
    temporary = Path(tempfile.mkdtemp(prefix="qa-"))
    env["TMPDIR"] = str(temporary)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "queens_autosolve", "demo", "--size", "6", "--json"],
            env=env, capture_output=True, text=True, timeout=120,
        )
        left = list(temporary.iterdir())
    finally:
        shutil.rmtree(temporary)
    ended = time.time()
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["solved"] is True and data["n"] == 6
    assert "click" in data["timings"] and "xvfb" in data["setup"]
    # the demo's Xvfb is gone: its display is free, or held by a server another worker started
    # after the demo ended (Xvfb takes the lowest free number; a CI run saw one take it at once)
    started = x_server_started(data["display"])
    assert started is None or started > ended - 1.5, (data["display"], started, ended)
    # nor is anything else it made: the browser's profile and temporary files
    assert left == []


def x_server_started(display: str) -> float | None:
    """When the X server that holds `display` (its lock file names its process) started, in
    time.time() terms to about a second (the boot time is kept in whole seconds); None when
    no running server holds it."""
    lock = Path(f"/tmp/.X{display.lstrip(':').split('.')[0]}-lock")
    try:
        pid = int(lock.read_text().strip())
        ticks = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError):
        return None
    boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                if line.startswith("btime "))
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def _zoom(browser: Chromium, key: str, *steps: float) -> None:
    """Press `key` once per zoom step, each time waiting until the page is at that step (browser
    zoom is the page's devicePixelRatio here) and has been drawn so."""
    def at(ratio: float) -> bool:
        return abs(float(browser.evaluate("window.devicePixelRatio")) - ratio) < 0.01  # type: ignore[arg-type]

    for ratio in steps:
        xdotool(browser.display, "key", "--clearmodifiers", key)
        wait_until(partial(at, ratio), what=f"zoom {ratio:.0%}")
    wait_painted(browser)
