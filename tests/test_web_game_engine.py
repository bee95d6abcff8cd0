"""What the game page needs of the engine (twoplayer/queens_game.py): the rule an illegal move
breaks, region maps in pieces, and an exact search that gives up on time and stays sound."""

from __future__ import annotations

import pytest

from twoplayer.queens_game import (
    KaylesSolver,
    PerfectPlayer,
    QueensBoard,
    QueensGame,
    SolveTimeout,
    brute_force_wins,
)


@pytest.mark.parametrize(
    ("mode", "cell", "reason"),
    [
        ("hard", (1, 3), "shares the same row as the queen on r2c2"),
        ("hard", (3, 1), "shares the same column as the queen on r2c2"),
        ("hard", (0, 0), "shares the same region as the queen on r2c2"),
        ("hard", (3, 3), "shares a diagonal with the queen on r2c2"),
        ("easy", (2, 2), "is a diagonal neighbour of the queen on r2c2"),
        ("easy", (1, 1), "already holds a queen"),
        ("easy", (3, 3), None),
    ],
)
def test_illegal_reason_names_the_rule(mode, cell, reason):
    game = QueensGame(QueensBoard.from_rows(["AABB", "AABB", "CCDD", "CCDD"], mode))
    game.push((1, 1))
    assert game.illegal_reason(cell) == reason


@pytest.mark.parametrize(
    ("rows", "split"),
    [(["AABB", "AABB", "CCDD", "CCDD"], None), (["ABBB", "BBBB", "CCDD", "ACDD"], "A"), (["AB", "BA"], "B")],
)
def test_split_region_finds_a_region_in_pieces(rows, split):
    assert QueensBoard.from_rows(rows).split_region() == split


def test_a_search_out_of_time_raises_and_what_it_proved_stays_sound():
    board = QueensBoard.random(7, 3, "easy")
    solver = KaylesSolver(board.conflicts)
    with pytest.raises(SolveTimeout), solver.budget(0.0):
        for _ in range(50):  # every search starts anew on a fresh solver, and one checks the clock
            KaylesSolver.is_lost(solver, board.full)
            solver.memo.clear()
            solver.values.clear()
    assert solver.deadline is None
    game = QueensGame(board)
    game.push((0, 0))
    assert solver.is_lost(game.free) == (not brute_force_wins(game))


def test_the_perfect_player_forgets_its_memo_when_asked():
    player = PerfectPlayer(0)
    game = QueensGame(QueensBoard.random(6, 1, "hard"))
    player.choose(game)
    assert player.solver_for(game.board).size() > 0
    player.forget()
    assert player.solver_for(game.board).size() == 0
