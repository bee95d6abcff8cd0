"""Big Queens Game positions proved by several processes (`twoplayer.queens_split`): the same
answers as the solver alone, real forks, and no process left behind."""

from __future__ import annotations

import errno
import os
import threading
from typing import Literal

import pytest

from queens_autosolve.twoplayer import queens_split
from queens_autosolve.twoplayer.queens_game import QueensBoard, QueensGame
from queens_autosolve.twoplayer.queens_solver import KaylesSolver, SolveTimeout
from queens_autosolve.twoplayer.queens_split import SPLIT_CELLS, prove_children

# 9x9 maps: 81 free cells, over SPLIT_CELLS, and each child proved within 0.1 s in all. The
# first player wins the easy ones and the first two hard ones, and loses the last two.
MAPS: list[tuple[Literal["easy", "hard"], int]] = [
    ("easy", 6), ("easy", 7), ("hard", 0), ("hard", 2), ("hard", 6), ("hard", 7)]
BOARDS = [QueensBoard.random(9, seed, mode) for mode, seed in MAPS]
BOARD_NAMES = [f"9-{mode}-{seed}" for mode, seed in MAPS]


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the copies forked (os.fork itself still runs)."""
    pids: list[int] = []
    fork = os.fork

    def counted() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr("queens_autosolve.twoplayer.queens_split.os.fork", counted)
    return pids


def children_results(solver: KaylesSolver, free: int) -> dict[int, bool | None]:
    """Each child's result as the memo holds it (None: not there)."""
    keep = [~mask for mask in solver.conflicts]
    cells = [cell for cell in range(solver.board.n ** 2) if free >> cell & 1]
    return {cell: solver.memo.get(free & keep[cell]) for cell in cells}


def alone(board: QueensBoard, free: int) -> dict[int, bool]:
    """Each child's result by the solver alone, in this process."""
    solver = KaylesSolver(board)
    keep = [~mask for mask in solver.conflicts]
    return {cell: solver.wins(free & keep[cell]) for cell in range(board.n ** 2) if free >> cell & 1}


@pytest.mark.parametrize("board", BOARDS, ids=BOARD_NAMES)
def test_every_child_proved_by_two_processes_has_the_result_of_the_solver_alone(board, forks):
    free = QueensGame(board).free
    assert free.bit_count() >= SPLIT_CELLS
    solver = KaylesSolver(board)
    prove_children(solver, free, until_win=False, processes=2, alone=0)
    assert len(forks) == 1
    assert children_results(solver, free) == alone(board, free)


def test_until_win_gives_the_verdict_of_the_solver_alone_for_won_and_lost_positions(forks):
    verdicts = []
    for board in BOARDS:
        free = QueensGame(board).free
        solver = KaylesSolver(board)
        prove_children(solver, free, processes=2, alone=0)
        verdict = solver.wins(free)
        checker = KaylesSolver(board)
        assert verdict == checker.wins(free)
        if verdict:  # the memo names a winning move, and it really wins
            winning = [cell for cell, won in children_results(solver, free).items() if won is False]
            assert winning and not any(checker.wins(free & ~board.conflicts[cell]) for cell in winning)
        verdicts.append(verdict)
    assert set(verdicts) == {True, False}, "the boards should include won and lost positions"
    assert len(forks) == len(BOARDS)


def test_small_positions_and_a_single_process_are_left_to_the_solver(forks):
    small = QueensBoard.random(8, 0, "easy")  # 64 cells
    solver = KaylesSolver(small)
    prove_children(solver, QueensGame(small).free, processes=2, alone=0)
    big = BOARDS[0]
    alone_solver = KaylesSolver(big)
    prove_children(alone_solver, QueensGame(big).free, processes=1, alone=0)
    assert forks == [] and solver.memo == {} and alone_solver.memo == {}


def test_a_position_proved_within_the_time_alone_is_not_shared_out(forks):
    board = BOARDS[2]  # the first player wins it in a few ms
    free = QueensGame(board).free
    solver = KaylesSolver(board)
    prove_children(solver, free, processes=2, alone=10.0)
    assert forks == [] and solver.memo[free] is True


def test_what_a_copy_that_dies_had_taken_is_proved_here(monkeypatch, forks):
    parent = os.getpid()
    work = queens_split._Split.work

    def dies_in_the_copy(self, board, queue):
        if os.getpid() != parent:
            os.read(queue, 2)  # takes a child from the queue and dies with it
            os._exit(3)
        work(self, board, queue)

    monkeypatch.setattr(queens_split._Split, "work", dies_in_the_copy)
    board = BOARDS[3]
    free = QueensGame(board).free
    solver = KaylesSolver(board)
    prove_children(solver, free, until_win=False, processes=2, alone=0)
    assert len(forks) == 1
    assert children_results(solver, free) == alone(board, free)


def test_the_time_budget_stops_every_process_and_leaves_none_behind(forks):
    board = QueensBoard.random(10, 9, "easy")  # lost for the mover: about a second of work
    solver = KaylesSolver(board)
    with pytest.raises(SolveTimeout), solver.budget(0.2):  # 0.05 s alone, then shared out
        prove_children(solver, QueensGame(board).free, processes=2)
    assert len(forks) == 1
    with pytest.raises(ProcessLookupError):
        os.kill(forks[0], 0)  # reaped, not a zombie


def test_a_split_from_a_server_thread_works_as_from_the_main_thread(forks):
    board = BOARDS[4]
    free = QueensGame(board).free
    solver = KaylesSolver(board)
    thread = threading.Thread(target=prove_children, args=(solver, free, False, 2, 0))
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive() and len(forks) == 1
    assert children_results(solver, free) == alone(board, free)


def test_when_the_system_makes_no_copy_this_process_proves_every_child(monkeypatch):
    def refused() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr("queens_autosolve.twoplayer.queens_split.os.fork", refused)
    board = BOARDS[2]
    free = QueensGame(board).free
    solver = KaylesSolver(board)
    prove_children(solver, free, until_win=False, processes=2, alone=0)
    assert children_results(solver, free) == alone(board, free)
