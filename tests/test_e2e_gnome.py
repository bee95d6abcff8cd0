"""Live: the GNOME desktop (capture/gnome.py) against a headless mutter, with the practice page in a
native Wayland Chromium (tests/gnome_session.py). Frames come from mutter's screen cast through
PipeWire, clicks go through its RemoteDesktop session; every test asserts what the page itself
reports, and the command's exit status and message.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from queens_autosolve.autosolve import onscreen
from queens_autosolve.capture.gnome import GnomeDesktop
from queens_autosolve.capture.models import FrameSource
from queens_autosolve.pages.practice import region_colours
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import search
from queens_autosolve.vision import read_board
from tests.checks import present
from tests.environment import require_tool
from tests.gnome_session import (
    GnomeStage,
    command,
    gnome_stage,
    page_on_gnome,
    run_in,
    start_in,
    without_any_desktop,
)
from tests.live import marked_cells, wait_until

pytestmark = pytest.mark.e2e


def puzzle_of(n: int, seed: int) -> Puzzle:
    return generate_puzzle(n, rng=random.Random(3500 + 10 * n + seed))


@pytest.fixture(scope="module")
def gnome() -> Iterator[GnomeStage]:
    with gnome_stage() as stage:
        yield stage


def rgb_of(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def test_a_grab_shows_the_page_as_it_paints_it(gnome):
    puzzle = puzzle_of(7, 0)
    with page_on_gnome(gnome, puzzle), GnomeDesktop(gnome.env) as desktop:
        frame = desktop.grab_screen()
        assert (frame.width, frame.height) == (1920, 1080) and frame.on_screen
        reading = read_board(frame.rgb)
        colours = region_colours(puzzle)
        for r in range(puzzle.n):
            for c in range(puzzle.n):
                x, y = reading.centres[r][c]
                pixel = frame.rgb[round(y), round(x)].astype(int)
                wanted = rgb_of(colours[puzzle.regions[r][c]])
                assert max(abs(pixel - wanted)) <= 2, (r, c, pixel, wanted)


def test_the_boards_grabs_come_from_a_cast_of_its_area_showing_what_the_monitors_shows(gnome):
    """`will_grab` casts the board's area and a margin (mutter's RecordArea): from its first frame
    on, a grab of the board comes from it, pixel for pixel what the monitor's cast shows there, and
    a grab of the whole monitor ends it (watch between boards: two casts would slow mutter)."""
    puzzle = puzzle_of(9, 8)
    with page_on_gnome(gnome, puzzle) as (_, first), GnomeDesktop(gnome.env) as desktop:
        board = onscreen.board_on_screen(first, onscreen.read(first))
        desktop.will_grab(board)
        wait_until(lambda: desktop.area is not None and desktop.area.stream() is not None, timeout=10,
                   what="the area cast's first frame")
        assert desktop.area is not None
        assert desktop.area.covers(board.grown(max(board.width, board.height) // 10 + 4))
        ours = desktop.grab(board, source=FrameSource.WINDOW)
        assert desktop.area is not None and desktop.area.stream() is not None
        whole = desktop.grab_screen()
        assert desktop.area is None, "the area's cast outlived a grab of the whole monitor"
    assert ours.rect == board and whole.rect == desktop.monitor.rect
    at = (slice(board.top, board.bottom), slice(board.left, board.right))
    assert np.array_equal(ours.raw[..., :3], whole.raw[at][..., :3])


def test_a_click_lands_on_the_cell_it_was_sent_to(gnome):
    puzzle = puzzle_of(7, 1)
    with page_on_gnome(gnome, puzzle) as (server, _), GnomeDesktop(gnome.env) as desktop:
        reading = read_board(desktop.grab_screen().rgb)
        desktop.prepare_input()  # the warm-up move: the first click after it lands
        for cell in [(0, 0), (3, 5), (6, 2)]:
            x, y = reading.centres[cell[0]][cell[1]]
            desktop.move_pointer(round(x), round(y))
            desktop.click(round(x), round(y))
        state = server.wait_for(lambda s: s.moves >= 3, timeout=5)
        assert marked_cells(state) == {(0, 0), (3, 5), (6, 2)}, state.states
        assert state.moves == 3


def test_run_solves_the_page_on_the_gnome_session_it_finds(gnome):
    puzzle = puzzle_of(11, 0)
    with page_on_gnome(gnome, puzzle) as (server, _):
        done = run_in(gnome, "run", "--json")  # auto: XDG_CURRENT_DESKTOP=GNOME picks the GNOME desktop
        state = server.wait_for(solved=True, timeout=5)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["outcome"] in ("solved", "win_screen") and result["ok"], result
    answer = present(search(puzzle).solution)
    assert state.solved and state.page_solved and set(state.queens) == set(answer.queens)
    assert state.moves == 2 * puzzle.n  # empty board: two clicks per queen, none lost
    print(f"11x11 on GNOME: window found -> last click {result['to_last_click'] * 1000:.0f} ms; "
          f"{result['timings']}")


def test_run_names_the_gnome_monitor_and_says_solved(gnome):
    puzzle = puzzle_of(9, 0)
    with page_on_gnome(gnome, puzzle, win_screen="none") as (server, _):
        done = run_in(gnome, "run", "--desktop", "gnome")
        state = server.wait_for(solved=True, timeout=5)
    assert done.returncode == 0, done.stderr
    assert "from the window 'the GNOME monitor Meta-0'" in done.stdout
    assert "solved: the board shows the solution" in done.stdout, done.stdout
    assert state.page_solved


def test_hint_apply_makes_the_step_and_the_page_counts_its_clicks(gnome):
    puzzle = puzzle_of(7, 3)
    with page_on_gnome(gnome, puzzle) as (server, _):
        done = run_in(gnome, "hint", "--apply")
        state = server.wait_for(lambda s: s.moves > 0, timeout=5)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the board shows the step" in done.stdout, done.stdout
    made = int(done.stdout.split("applied: ")[1].split(" click")[0])
    assert state.moves == made and marked_cells(state), state


def test_a_session_bus_without_mutter_or_portal_is_named_in_one_line(tmp_path):
    require_tool(shutil.which("dbus-daemon") is not None, "dbus")
    bus = f"unix:path={tmp_path / 'bus'}"
    daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address={bus}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_exists(tmp_path / "bus")
        env = {**without_any_desktop(), "DBUS_SESSION_BUS_ADDRESS": bus}
        done = subprocess.run([*_autosolve(), "run", "--desktop", "gnome"], env=env, capture_output=True,
                              text=True, timeout=60)
    finally:
        daemon.terminate()
        daemon.wait(timeout=5)
    assert done.returncode == 2
    assert "neither mutter's screen cast nor the desktop portal answers" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def wait_until_exists(path, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.02)


def test_window_titles_cannot_be_asked_on_gnome_and_say_so_in_one_line(gnome):
    done = run_in(gnome, "run", "--desktop", "gnome", "--window", "Queens")
    assert done.returncode == 2
    assert "cannot see window titles" in done.stderr and "leave --window out" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_page_reloaded_with_a_new_puzzle_during_the_clicks_gets_none(gnome):
    puzzle, other = puzzle_of(9, 5), puzzle_of(9, 6)
    with page_on_gnome(gnome, puzzle) as (server, _):
        running = start_in(gnome, "run", "--desktop", "gnome", "--delay", "0.3")
        server.wait_for(lambda s: s.moves >= 2, timeout=30)
        server.replace_puzzle(other)
        gnome.chromium.evaluate("location.reload()")
        _, stderr = running.communicate(timeout=60)
        time.sleep(0.5)  # a click sent after the change would be on the page by now
        state = server.state()
    print(f"clicks that landed on the reloaded page: {state.moves}")
    assert running.returncode == 2, stderr
    assert "the page changed under the board" in stderr and "nothing more was clicked" in stderr, stderr
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr
    # Clicks land on the new page until its picture reaches the cast of the board's area (Chromium
    # runs the reloaded page before mutter, rendering in software, shows it): 0-3 clicks in the
    # helper's runs at load 5-9, 6 in a merge check at load 8 beside other suites (docs/wayland.md;
    # on X11 none, test_e2e_inflight). The allowance is that and 2 clicks more.
    assert state.moves <= 8 and len(marked_cells(state)) <= 8, state


def processes_with(variable: str) -> list[int]:
    """The processes whose environment holds `variable` (a run's and what it started)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and f"{variable}=".encode() in Path(f"/proc/{entry}/environ").read_bytes():
                found.append(int(entry))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:100]
    except OSError:
        return "(gone)"


def test_a_run_killed_mid_clicks_leaves_no_screen_cast_running(gnome):
    """SIGKILL gives the run no chance to stop its gst-launch readers: mutter ends the casts when
    the run's D-Bus connection closes, and their readers end with them."""
    puzzle = puzzle_of(9, 7)
    mark = f"QUEENS_TEST_RUN_{os.getpid()}"
    with page_on_gnome(gnome, puzzle) as (server, _):
        running = subprocess.Popen(command("run", "--desktop", "gnome", "--delay", "0.3"),
                                   env={**gnome.env, mark: "1"}, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            server.wait_for(lambda s: s.moves >= 2, timeout=30)
            readers = [pid for pid in processes_with(mark) if pid != running.pid]
        finally:
            running.kill()
            running.wait()
        deadline = time.monotonic() + 10
        while processes_with(mark) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = {pid: command_line(pid) for pid in processes_with(mark)}
        for pid in left:  # only ever ours: they carry this test's variable
            os.kill(pid, signal.SIGKILL)
    assert readers, "the run had started no gst-launch reader to leave behind"
    assert not left, f"left running 10 s after the run was killed: {left}"


def test_a_board_cut_off_by_the_monitor_is_refused_and_scroll_brings_it_in(gnome):
    """Refused with nothing clicked; then --scroll turns the wheel over a cell of the board that
    shows (the record is the whole monitor: its middle could lie on any window) and solves it."""
    puzzle = puzzle_of(9, 2)
    with page_on_gnome(gnome, puzzle, win_screen="none") as (server, _):
        board_top = gnome.chromium.evaluate("document.getElementById('board').getBoundingClientRect().top")
        gnome.chromium.evaluate(f"window.scrollTo(0, {board_top} + 300)")  # its top rows under the toolbar
        time.sleep(0.5)
        done = run_in(gnome, "run", "--desktop", "gnome")
        time.sleep(0.3)
        state = server.state()
        scrolled = run_in(gnome, "run", "--desktop", "gnome", "--scroll")
        solved = server.wait_for(solved=True, timeout=5) if scrolled.returncode == 0 else server.state()
    assert done.returncode == 2, done.stdout + done.stderr
    assert "nothing was clicked" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert state.moves == 0
    assert scrolled.returncode == 0, scrolled.stdout + scrolled.stderr
    assert solved.solved


def test_demo_starts_its_own_headless_gnome_and_the_page_reports_solved(gnome):  # gnome: the programs
    done = subprocess.run([*_autosolve(), "demo", "--desktop", "gnome", "--size", "7", "--json"],
                          env=without_any_desktop(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome["solved"] is True and outcome["n"] == 7 and outcome["error"] is None, outcome
    assert "mutter" in outcome["setup"], outcome["setup"]


def _autosolve() -> list[str]:
    return [sys.executable, "-m", "queens_autosolve"]
