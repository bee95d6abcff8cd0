"""The pipeline's stages one at a time: pure checks of verification and reporting, then live
safety checks on the practice page in a real Chromium (dry run, moved window, no board), each
confirmed by the page's own report that nothing was clicked."""

from __future__ import annotations

import json
import random
import urllib.parse
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from queens_autosolve.actuator.errors import UnsafeToClick
from queens_autosolve.autosolve import onscreen, pipeline
from queens_autosolve.autosolve.aftercheck import cell_differences
from queens_autosolve.autosolve.records import Options, RunOutcome, RunResult, Solved, Source, Stopwatch
from queens_autosolve.autosolve.run_report import report_lines, result_json
from queens_autosolve.capture import BoardNotVisibleError, Desktop, Frame, FrameSource, Rect
from queens_autosolve.capture.desktop import DesktopSession
from queens_autosolve.capture.models import Monitor, Pointer
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle, Solution
from queens_autosolve.vision import BoardReading
from tests.checks import present
from tests.live import practice_page, rect_now, wait_until, xdotool, xmessage
from tests.readings import reading_of

# A 4x4 puzzle with one answer: (0, 1), (1, 3), (2, 0), (3, 2).
PUZZLE = Puzzle.from_rows(["AABB", "ABBB", "CCDD", "CDDD"])
ANSWER = Solution.of([(0, 1), (1, 3), (2, 0), (3, 2)])


def reading(rows: list[str], confidence: float = 1.0) -> BoardReading:
    return reading_of(rows, PUZZLE, confidence)


def test_board_showing_the_solution_has_no_differences():
    assert cell_differences(reading([".Q..", "x..Q", "Q...", "..L."]).position(), ANSWER.queens) == ()


def test_differences_name_missing_and_extra_queens():
    found = cell_differences(reading(["Q...", "...Q", "x...", "..Q."]).position(), ANSWER.queens)
    assert found == (
        "r1c1 holds a queen that is not in the solution",
        "r1c2 should hold a queen but shows '.'",
        "r3c1 should hold a queen but shows 'x'",
    )


def test_solve_stage_reports_uniqueness():
    solved = pipeline.solve(reading(["...."] * 4))
    assert solved.unique and solved.solution == ANSWER


def test_a_source_is_one_place_never_two():
    assert Source(window="Queens", display=":1").live and not Source(image=Path("board.png")).live
    for two in ({"window": "Queens", "screen": True}, {"screen": True, "image": Path("board.png")}):
        with pytest.raises(ValueError, match="one place"):
            Source(**two)  # type: ignore[arg-type]


class ParkedPointerDesktop:
    """What `away_from_pointer` asks of a desktop before it would move the pointer: where this
    desktop last put it, and the screen. A move (or a grab) fails the test."""

    def __init__(self, placed: Pointer) -> None:
        self.placed = placed

    def monitors(self) -> list[Monitor]:
        return [Monitor(0, Rect(0, 0, 1000, 1000))]


def test_a_pointer_parked_beside_the_last_board_stays_for_a_board_read_a_pixel_off():
    """`watch`'s next board may read a pixel off the last: its park point moves with it, and the
    pointer the last run parked, off the cells, must not be moved (nor a hover waited out)."""
    board = reading_of(["...."] * 4, Puzzle.from_rows(["AABB", "ABBB", "CCDD", "CDDD"]))
    frame = Frame(np.zeros((260, 260, 4), np.uint8), Rect(101, 100, 260, 260), FrameSource.WINDOW)
    parked = Pointer(101 - pipeline.PARK_GAP + 1, 180, True)  # the park point of a board at x=102
    desktop = ParkedPointerDesktop(parked)
    watch = Stopwatch()
    session = cast(DesktopSession, desktop)  # only what away_from_pointer asks; anything else fails
    assert pipeline.away_from_pointer(session, None, frame, board, parked, watch) == (frame, board)
    assert watch.seconds == {}


def test_stopwatch_adds_up_stages_in_order(monkeypatch):
    ticks = iter([0.0, 2.0, 2.0, 2.0, 5.0, 8.0])  # grab 0 -> 2, read 2 -> 2, grab again 5 -> 8
    monkeypatch.setattr("queens_autosolve.autosolve.pipeline.time.perf_counter", lambda: next(ticks))
    watch = Stopwatch()
    for name in ("grab", "read", "grab"):
        with watch.stage(name):
            pass
    assert list(watch.seconds) == ["grab", "read"]
    assert watch.seconds == {"grab": 5.0, "read": 0.0}


def test_dry_run_report_prints_solution_and_plan_and_json_has_timings():
    board = reading(["...."] * 4)
    frame = Frame(np.zeros((160, 160, 4), np.uint8), Rect(10, 20, 160, 160), FrameSource.WINDOW)
    solved = Solved(PUZZLE, ANSWER, 1, 1)
    plan = pipeline.plan(board, solved, frame)
    result = RunResult(frame=frame, reading=board, solved=solved, plan=plan, clicks=0,
                       timings={"grab": 0.004, "read": 0.03}, outcome=RunOutcome.DRY_RUN)
    text = "\n".join(report_lines(result))
    assert ".Q.." in text and "plan: 8 click(s)" in text and "r1c2 at (70, 40): empty -> X" in text
    data: dict[str, Any] = result_json(result)
    assert data["ok"] is True and data["n"] == 4 and data["timings"]["read"] == 0.03
    first = {"cell": [0, 1], "x": 70, "y": 40, "reason": "empty -> X"}
    assert json.loads(json.dumps(data))["plan"][0] == first


# --- live: the practice page in a real Chromium on Xvfb -------------------------------------


def test_dry_run_reads_and_plans_but_clicks_nothing(browser, xvfb, sent_clicks):
    puzzle = generate_puzzle(7, rng=random.Random(7))
    with practice_page(browser, puzzle) as server:
        before = server.state()
        result = pipeline.run(Source(display=xvfb.display), Options(dry_run=True))
        assert sent_clicks == []
        assert server.state().states == before.states and server.state().moves == 0
    assert result.solved.unique and result.reading.n == 7
    assert len(present(result.plan)) == 14 and result.clicks == 0


def test_window_moved_between_capture_and_click_is_refused(browser, xvfb, sent_clicks):
    puzzle = generate_puzzle(6, rng=random.Random(6))
    with practice_page(browser, puzzle) as server, Desktop(xvfb.display) as desktop:
        window = pipeline.find_window(desktop)
        frame = onscreen.grab(desktop, window)
        board = onscreen.read(frame)
        clicks = pipeline.plan(board, pipeline.solve(board), frame)
        xdotool(xvfb.display, "windowmove", str(window.wid), "40", "30")
        try:
            wait_until(lambda: rect_now(desktop, window) != window.rect)
            with pytest.raises(UnsafeToClick, match="moved"):
                pipeline.click(desktop, frame, board, clicks)
            assert sent_clicks == [] and server.state().moves == 0
        finally:
            xdotool(xvfb.display, "windowmove", str(window.wid), "0", "0")
            wait_until(lambda: rect_now(desktop, window) == window.rect)


def test_window_opened_over_the_board_after_capture_is_refused(browser, xvfb, sent_clicks):
    puzzle = generate_puzzle(6, rng=random.Random(16))
    with practice_page(browser, puzzle) as server, Desktop(xvfb.display) as desktop:
        frame = onscreen.grab(desktop, pipeline.find_window(desktop))
        board = onscreen.read(frame)
        clicks = pipeline.plan(board, pipeline.solve(board), frame)
        covered = pytest.raises(UnsafeToClick, match="'Reminder' covers part of the board")
        with xmessage(xvfb.display, "Reminder", at=(500, 500)), covered:
            pipeline.click(desktop, frame, board, clicks)
        assert sent_clicks == [] and server.state().moves == 0


def test_window_without_a_board_is_reported_and_nothing_is_clicked(browser, xvfb, sent_clicks):
    start_page = "<title>Queens</title><body style='font:40px sans-serif'><button>Start game</button></body>"
    browser.open("data:text/html," + urllib.parse.quote(start_page))
    wait_until(lambda: _title_on(xvfb.display) == "Queens - Chromium")
    with pytest.raises(BoardNotVisibleError, match=r"shows no Queens board.*nothing was clicked"):
        pipeline.run(Source(display=xvfb.display), Options())
    assert sent_clicks == []


def _title_on(display: str) -> str:
    with Desktop(display) as desktop:
        titles = [r.title for r in desktop.windows() if r.is_browser and r.viewable]
    return titles[-1] if titles else ""
