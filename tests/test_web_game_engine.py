"""What the game page needs of the engine (twoplayer/queens_game.py): the rule an illegal move
breaks, region maps in pieces, and an exact search that gives up on time and stays sound."""

from __future__ import annotations

import random

import pytest

from queens_autosolve.twoplayer.queens_game import QueensBoard, QueensGame
from queens_autosolve.twoplayer.queens_players import PerfectPlayer
from queens_autosolve.twoplayer.queens_solver import KaylesSolver, SolveTimeout
from tests.twoplayer_oracles import brute_force_wins, open_moves


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
    solver = KaylesSolver(board)

    def search_anew_until_the_clock_is_checked() -> None:
        for _ in range(50):  # every search starts anew on a fresh solver, and one checks the clock
            KaylesSolver.is_lost(solver, board.full)
            solver.memo.clear()
            solver.values.clear()

    with pytest.raises(SolveTimeout), solver.budget(0.0):
        search_anew_until_the_clock_is_checked()
    assert solver.deadline is None
    game = QueensGame(board)
    game.push((0, 0))
    assert solver.is_lost(game.free) == (not brute_force_wins(game))


def test_a_budget_inside_a_budget_ends_no_later_and_leaves_the_outer_one_in_place():
    solver = KaylesSolver(QueensBoard.random(7, 3, "easy"))
    with solver.budget(10.0):
        outer = solver.deadline
        assert outer is not None
        with solver.budget(100.0):
            assert solver.deadline == outer  # an inner budget cannot lengthen the outer one
        assert solver.deadline == outer
        with solver.budget(0.0):
            assert solver.deadline is not None and solver.deadline < outer
        assert solver.deadline == outer
    assert solver.deadline is None


def test_a_lost_player_out_of_time_plays_the_best_move_it_counted_instead_of_giving_up():
    """Every move loses, so running out of time while counting the opponent's winning replies
    (the caller's budget, here spent already) ends the count, not the move."""
    board = QueensBoard.random(10, 9, "easy")  # a first move that loses, and ~100 moves to count
    game, player = QueensGame(board), PerfectPlayer(0)
    solver = player.solver_for(board)
    with solver.budget(0.0):
        move = player._stubborn(game, solver)
        assert solver.nodes > 1000  # the count searched, and was stopped by the clock
    assert move in game.legal_moves() and solver.deadline is None


def test_the_perfect_player_forgets_its_memo_when_asked():
    player = PerfectPlayer(0)
    game = QueensGame(QueensBoard.random(6, 1, "hard"))
    player.choose(game)
    assert player.solver_for(game.board).size() > 0
    player.forget()
    assert player.solver_for(game.board).size() == 0


def _grundy_by_definition(conflicts: tuple[int, ...], free: int, seen: dict[int, int]) -> int:
    """The mex of the children's values, memoised by mask only (an oracle for the solver)."""
    if free not in seen:
        values = {_grundy_by_definition(conflicts, free & ~conflicts[i], seen)
                  for i in range(free.bit_length()) if free >> i & 1}
        seen[free] = next(v for v in range(len(values) + 1) if v not in values)
    return seen[free]


@pytest.mark.parametrize("mode", ["hard", "easy"])
@pytest.mark.parametrize("proof_order_cells", [0, 10**6])
def test_reply_order_by_open_moves_leaves_every_result_exact(mode, proof_order_cells):
    # 0: every position orders its replies by what is left to prove (10x10 boards use it only
    # from 60 cells up, which small boards never reach); 10**6: size order alone.
    rng = random.Random(proof_order_cells)
    for seed in range(30):
        n = 4 + seed % 3
        board = QueensBoard.random(n, seed, mode)
        game = QueensGame(board)
        solver = KaylesSolver(board)
        solver.proof_order_cells = proof_order_cells
        oracle: dict[int, int] = {}
        for _ in range(3):  # the empty board and two positions further in, same memo
            assert solver.is_lost(game.free) == (not brute_force_wins(game)), (mode, n, seed)
            assert solver.grundy(game.free) == _grundy_by_definition(board.conflicts, game.free, oracle)
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))


def test_open_counts_count_what_is_left_to_prove():
    board = QueensBoard.plain(4, "hard")
    solver = KaylesSolver(board)
    free = board.full & ~board.conflicts[1]  # after r1c2: six legal moves
    assert solver._open_counts(board.full)[free] == 6  # nothing known: all six still open
    assert not solver.is_lost(free)  # the search leaves the winning reply in the memo
    assert solver._open_counts(board.full)[free] >= 1 << 30  # won: of no use as a reply


@pytest.mark.parametrize("mode", ["hard", "easy"])
def test_open_counts_by_pairs_of_queens_match_open_moves_child_by_child(mode):
    # `_open_counts` looks each pair of queens up once for both of its orders: it must give every
    # child what `open_moves` counts for it, whatever the memo holds (nothing yet, then what a
    # search left: won and lost children among the open ones).
    rng = random.Random(7)
    for seed in range(12):
        board = QueensBoard.random(5 + seed % 3, seed, mode)
        solver = KaylesSolver(board)
        game = QueensGame(board)
        while game.legal_moves():
            free = game.free
            children = [free & ~board.conflicts[r * board.n + c] for r, c in game.legal_moves()]
            for _ in range(2):  # before and after a search of the position
                assert solver._open_counts(free) == {child: open_moves(solver, child) for child in children}
                solver.is_lost(free)
            game.push(rng.choice(game.legal_moves()))
