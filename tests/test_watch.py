"""The `watch` loop's pure logic: which boards it solves, which it leaves alone, what it
samples between looks, and what it says about each board (the live loop: test_e2e_watch.py)."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from queens_autosolve.autosolve.records import RunOutcome, RunResult, Solved
from queens_autosolve.autosolve.watch import (
    BoardDone,
    BoardKey,
    Marks,
    Tally,
    Verdict,
    judge_board,
    sample_lines,
)
from queens_autosolve.capture import Frame, Rect
from queens_autosolve.solver.puzzle import Puzzle, Solution
from queens_autosolve.vision import BoardReading
from tests.readings import reading_of

# A 4x4 puzzle with one answer: (0, 1), (1, 3), (2, 0), (3, 2).
PUZZLE = Puzzle.from_rows(["AABB", "ABBB", "CCDD", "CDDD"])
OTHER = Puzzle.from_rows(["AAAB", "ABBB", "CCDD", "CDDD"])


def reading(rows: list[str], puzzle: Puzzle = PUZZLE, confidence: float = 1.0) -> BoardReading:
    return reading_of(rows, puzzle, confidence)


EMPTY = ["...."] * 4


def interrupt_and_wait(stopped: threading.Event) -> None:
    os.kill(os.getpid(), signal.SIGINT)
    stopped.wait(5)


def test_an_empty_board_never_met_is_fresh():
    assert judge_board(reading(EMPTY), set()) is Verdict.FRESH


def test_locked_queens_alone_leave_a_board_fresh():
    assert judge_board(reading(["....", "...L", "....", "...."]), set()) is Verdict.FRESH


def test_an_uncertain_reading_is_never_acted_on():
    assert judge_board(reading(EMPTY, confidence=0.5), set()) is Verdict.UNCERTAIN
    marked = reading(["x...", *EMPTY[1:]], confidence=0.5)
    assert judge_board(marked, set(), take_over=True) is Verdict.UNCERTAIN


def test_a_board_met_before_is_not_clicked_again_even_emptied():
    seen = {BoardKey.of(reading(EMPTY))}
    assert judge_board(reading(EMPTY), seen) is Verdict.SEEN
    assert judge_board(reading([".Q..", "...Q", "....", "...."]), seen, take_over=True) is Verdict.SEEN


def test_a_new_board_with_other_regions_is_fresh_after_one_met():
    seen = {BoardKey.of(reading(EMPTY))}
    assert judge_board(reading(EMPTY, OTHER), seen) is Verdict.FRESH


def test_a_solved_board_is_skipped_even_with_take_over():
    solved = [".Q..", "...Q", "Q...", "..Q."]
    assert judge_board(reading(solved), set()) is Verdict.SOLVED
    assert judge_board(reading(solved), set(), take_over=True) is Verdict.SOLVED


def test_a_board_with_the_players_marks_or_queens_is_left_alone():
    assert judge_board(reading(["x...", "....", "....", "...."]), set()) is Verdict.BEGUN
    assert judge_board(reading([".Q..", "....", "....", "...."]), set()) is Verdict.BEGUN
    # four queens that are not the answer: begun, not solved
    assert judge_board(reading(["Q...", "..Q.", ".Q..", "...Q"]), set()) is Verdict.BEGUN


def test_take_over_solves_a_begun_board():
    assert judge_board(reading(["x...", ".Q..", "....", "...."]), set(), take_over=True) is Verdict.FRESH


def test_sample_lines_cross_the_area_one_point_wide():
    lines = sample_lines(Rect(100, 50, 400, 200), columns=(0.25, 0.5), rows=(0.5,))
    assert lines == [Rect(200, 50, 1, 200), Rect(300, 50, 1, 200), Rect(100, 150, 400, 1)]
    assert sample_lines(Rect(0, 0, 0, 0)) == []


def _result(outcome: RunOutcome) -> RunResult:
    import numpy as np

    frame = Frame(np.zeros((4, 4, 4), np.uint8), Rect(0, 0, 4, 4))
    solved = Solved(PUZZLE, Solution.of([(0, 1), (1, 3), (2, 0), (3, 2)]), 1, 1)
    return RunResult(frame=frame, reading=reading(EMPTY), solved=solved, plan=None, clicks=8, timings={},
                     outcome=outcome, to_last_click=0.0734)


def test_the_line_per_board_says_size_time_rounds_and_result():
    done = BoardDone(3, 4, Verdict.FRESH, result=_result(RunOutcome.SOLVED))
    assert done.line() == ("board 3: 4x4, board shown -> last click 73 ms, 0 round(s), 8 click(s): "
                           "solved: the board shows the solution")
    begun = BoardDone(1, 9, Verdict.BEGUN)
    assert begun.line() == "board 1: 9x9, begun by hand: left alone (--take-over solves it)"
    assert BoardDone(2, 9, Verdict.FRESH, error="x", status=2).line() == "board 2: 9x9, stopped: x"


def test_the_json_per_board_carries_when_it_was_seen_and_read_on_the_wall_clock():
    marks = Marks(changed=100.0, read=100.002, read_done=100.016, reads=2)
    data = BoardDone(1, 4, Verdict.FRESH, result=_result(RunOutcome.SOLVED), marks=marks).to_json()
    assert data["marks"] == {"changed": 100.0, "read": 100.002, "read_done": 100.016, "reads": 2}
    assert BoardDone(2, 4, Verdict.BEGUN).to_json()["marks"] is None


def test_the_summary_counts_each_kind_of_board():
    tally = Tally([
        BoardDone(1, 4, Verdict.FRESH, result=_result(RunOutcome.SOLVED)),
        BoardDone(2, 4, Verdict.FRESH, result=_result(RunOutcome.DIFFERS), status=1),
        BoardDone(3, 4, Verdict.FRESH, error="the window moved", status=2),
        BoardDone(4, 4, Verdict.BEGUN),
        BoardDone(5, 4, Verdict.SOLVED),
    ])
    assert tally.summary() == "watched 5 board(s): 1 solved, 2 not solved, 1 left alone, 1 already solved"




def test_watch_without_a_display_says_so_in_one_line(monkeypatch, capsys):
    from queens_autosolve.autosolve.cli import main

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["watch", "--once"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no X11 display" in err and "Traceback" not in err


def test_reads_that_find_nothing_space_out_while_the_page_keeps_changing():
    from queens_autosolve.autosolve.records import Source
    from queens_autosolve.autosolve.watch import READ_GAP, READ_GAP_MAX, Watcher

    watcher = Watcher(desktop=None, source=Source(), options=None)  # type: ignore[arg-type]  # only its counters are used
    gaps = []
    for reads in range(8):
        watcher._idle_reads = reads
        gaps.append(watcher.read_gap())
    assert gaps[:3] == [READ_GAP] * 3
    assert gaps[3] == 2 * READ_GAP and gaps == sorted(gaps) and gaps[-1] == READ_GAP_MAX


def test_ctrl_c_sets_the_stop_between_looks_and_a_second_one_raises():
    from queens_autosolve.autosolve.commands.watch import ctrl_c_between_looks

    before = signal.getsignal(signal.SIGINT)
    with ctrl_c_between_looks() as stopped:
        os.kill(os.getpid(), signal.SIGINT)
        assert stopped.wait(5)  # no KeyboardInterrupt: the loop ends at its next check
        with pytest.raises(KeyboardInterrupt):  # a second Ctrl-C is not held back
            interrupt_and_wait(stopped)
    assert signal.getsignal(signal.SIGINT) is before
