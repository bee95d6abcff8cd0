"""The practice page's start screen on the server side: Next puzzle (``POST /api/next``) serves
the next board without a page load, reports about a board the page has replaced are ignored,
and the page's own times come back in its state (the page itself: test_e2e_watch.py)."""

from __future__ import annotations

import pytest

from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Puzzle
from tests.live import post

FIVE = Puzzle.from_rows(["AAAAE", "ACCAE", "ACCEE", "DDCBB", "DDBBB"], name="five")
OTHER = Puzzle.from_rows(["AAAEE", "ACCAE", "ACCEE", "DDCBB", "DDBBB"], name="other")
EMPTY = ["....."] * 5


def report(board: int, seq: int, states: list[str] = EMPTY, **fields: object) -> dict[str, object]:
    return {"session": "s", "seq": seq, "states": states, "board": board, **fields}


def test_next_puzzle_serves_the_queued_board_then_makes_one_of_the_same_size():
    with PracticeServer(FIVE, start_screen=True, next_puzzles=[OTHER]) as server:
        assert server.puzzle_json()["board"] == 0 and not server.state().started
        status, answer = post(server, "/api/next", {})
        assert status == 200 and answer["name"] == "other" and answer["board"] == 1
        assert server.state().board == 1 and server.state().started
        status, answer = post(server, "/api/next", {})
        assert status == 200 and answer["n"] == 5 and answer["board"] == 2


def test_a_report_about_a_replaced_board_is_ignored():
    with PracticeServer(FIVE, start_screen=True, next_puzzles=[OTHER]) as server:
        server.record(report(0, 1, ["x....", *EMPTY[1:]]))
        server.next_board()
        late = server.record(report(0, 2, ["Q....", *EMPTY[1:]]))
        assert late.board == 1 and late.queens == () and late.states == tuple(EMPTY)
        taken = server.record(report(1, 3, ["x....", *EMPTY[1:]], presses=1))
        assert taken.states[0] == "x...." and taken.presses == 1


def test_the_pages_times_come_back_and_give_shown_to_solved():
    with PracticeServer(FIVE, start_screen=True) as server:
        state = server.record(report(0, 1, started=True, shown_ms=1200.5, solved_ms=None))
        assert state.started and state.shown_ms == 1200.5 and state.shown_to_solved_ms is None
        state = server.record(report(0, 2, shown_ms=1200.5, solved_ms=1287.0))
        assert state.shown_to_solved_ms == pytest.approx(86.5)
        with pytest.raises(ValueError, match="shown_ms"):
            server.record(report(0, 3, shown_ms=float("inf")))
        with pytest.raises(ValueError, match="solved_ms"):
            server.record(report(0, 4, solved_ms="soon"))


def test_start_screen_must_be_true_or_false():
    with pytest.raises(QueensError, match="start_screen"):
        PracticeServer(FIVE, start_screen="yes")  # type: ignore[arg-type]
