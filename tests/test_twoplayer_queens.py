"""The Queens Game: placement rules, notation, positions, and the exact solver against plain
minimax."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from queens_autosolve.autosolve.cli import main
from queens_autosolve.twoplayer.game import IllegalMoveError, PositionError
from queens_autosolve.twoplayer.game_search import solve
from queens_autosolve.twoplayer.queens_game import QueensBoard, QueensGame
from queens_autosolve.twoplayer.queens_players import GreedyPlayer, PerfectPlayer
from queens_autosolve.twoplayer.queens_solver import KaylesSolver, analyse
from tests.checks import present
from tests.twoplayer_oracles import brute_force_wins

REGIONS_4 = ("AABB", "AABB", "CCDD", "CCDD")


def _attacks(board: QueensBoard, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """The rules written out plainly, independent of the conflict masks."""
    (r1, c1), (r2, c2) = a, b
    if r1 == r2 or c1 == c2:
        return True
    if board.regions is not None and board.regions[r1][c1] == board.regions[r2][c2]:
        return True
    if abs(r1 - r2) == abs(c1 - c2):
        return board.mode == "hard" or abs(r1 - r2) == 1
    return False


def test_hard_mode_forbids_the_whole_diagonal_easy_only_the_touching_cells():
    hard = QueensGame(QueensBoard.plain(5, "hard"))
    easy = QueensGame(QueensBoard.plain(5, "easy"))
    for game in (hard, easy):
        game.push((0, 0))
    assert (2, 2) not in hard.legal_moves() and (2, 2) in easy.legal_moves()
    assert (1, 1) not in easy.legal_moves()
    assert (1, 2) in hard.legal_moves() and (1, 2) in easy.legal_moves()


def test_a_queen_rules_out_its_region():
    game = QueensGame(QueensBoard.from_rows(REGIONS_4, "easy"))
    game.push((0, 0))
    assert (1, 1) not in game.legal_moves()  # region A (and touching)
    assert (0, 3) not in game.legal_moves()  # row
    assert game.legal_moves() == [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)]


def test_the_player_who_places_the_last_queen_wins():
    game = QueensGame(QueensBoard.plain(2, "hard"))
    assert game.winner() is None and game.turn == 0
    game.push((0, 0))
    assert game.is_over() and game.winner() == 0


def test_illegal_moves_say_why():
    game = QueensGame(QueensBoard.from_rows(REGIONS_4, "hard"))
    game.push(game.parse_move("r1c1"))
    with pytest.raises(IllegalMoveError, match="same row as the queen on r1c1"):
        game.parse_move("r1c3")
    with pytest.raises(IllegalMoveError, match="same region"):
        game.parse_move("r2c2")
    with pytest.raises(IllegalMoveError, match="diagonal"):
        game.parse_move("r3c3")
    with pytest.raises(IllegalMoveError, match="off the 4x4 board"):
        game.parse_move("r5c1")
    with pytest.raises(IllegalMoveError, match="not a cell"):
        game.parse_move("queen to e4")
    assert game.parse_move("3,4") == (2, 3)


def test_position_strings_round_trip_and_bad_ones_are_refused():
    game = QueensGame(QueensBoard.from_rows(REGIONS_4, "easy"))
    game.push((0, 0))
    text = game.position()
    assert text == "AABB/AABB/CCDD/CCDD easy r1c1"
    again = QueensGame.from_position(text)
    assert again.position() == text and again.free == game.free and again.turn == 1
    for bad in ("AABB/AABB hard -", "AABB/AABB/CCDD/CCDD medium -", "4 hard r1c1,r1c2", "nonsense"):
        with pytest.raises((PositionError, IllegalMoveError)):
            QueensGame.from_position(bad)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(4, 8), mode=st.sampled_from(["hard", "easy"]),
       picks=st.lists(st.integers(0, 10_000), max_size=10))
def test_random_playouts_stay_legal_and_pop_undoes_push(seed, n, mode, picks):
    game = QueensGame(QueensBoard.random(n, seed, mode))
    snapshots = []
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        snapshots.append((game.free, game.position()))
        game.push(moves[pick % len(moves)])
        queens = game.queens
        assert not any(_attacks(game.board, a, b) for i, a in enumerate(queens) for b in queens[i + 1:])
        # every cell left free really is placeable, every other one really is not
        for r in range(n):
            for c in range(n):
                placeable = (r, c) not in queens and not any(_attacks(game.board, (r, c), q) for q in queens)
                assert placeable == bool(game.free >> (r * n + c) & 1)
        assert QueensGame.from_position(game.position()).free == game.free
    while snapshots:
        game.pop()
        free, position = snapshots.pop()
        assert (game.free, game.position()) == (free, position)


@pytest.mark.parametrize("mode", ["hard", "easy"])
def test_the_exact_solver_agrees_with_plain_minimax(mode):
    for seed in range(25):
        n = 4 + seed % 3
        game = QueensGame(QueensBoard.random(n, seed, mode))
        solver = KaylesSolver(game.board)
        assert solver.is_lost(game.free) == (not brute_force_wins(game)), (n, seed)
        # and on a position one move in, where the board has started to split up
        game.push(game.legal_moves()[seed % len(game.legal_moves())])
        assert solver.is_lost(game.free) == (not solve(game)), (n, seed)


def test_grundy_values_match_the_mex_definition_on_small_boards():
    board = QueensBoard.random(5, 3, "easy")
    solver = KaylesSolver(board)
    reference = KaylesSolver(board)

    def mex_value(free: int) -> int:
        values = {mex_value(free & ~board.conflicts[i]) for i in range(25) if free >> i & 1}
        return next(v for v in range(len(values) + 1) if v not in values)

    rng = random.Random(0)
    for _ in range(30):
        free = rng.getrandbits(25)
        assert solver.grundy(free) == mex_value(free)
    assert reference.grundy(board.full) == mex_value(board.full)


def test_first_player_wins_n_queens_for_1_to_9_and_loses_for_10():
    for n in range(1, 11):
        board = QueensBoard.plain(n, "hard")
        assert KaylesSolver(board).is_lost(board.full) == (n == 10), n


def test_winning_moves_really_win():
    game = QueensGame(QueensBoard.random(6, 11, "hard"))
    result = analyse(game)
    for move in result.winning_moves:
        game.push(move)
        assert not solve(game)
        game.pop()
    losing = [m for m in game.legal_moves() if m not in result.winning_moves]
    for move in losing:
        game.push(move)
        assert solve(game)
        game.pop()


def test_greedy_takes_an_immediate_win_and_otherwise_leaves_fewest_moves():
    game = QueensGame(QueensBoard.plain(3, "hard"))
    assert GreedyPlayer(seed=1).choose(game) == (1, 1)  # the centre rules out every cell
    game = QueensGame(QueensBoard.plain(5, "hard"))
    move = GreedyPlayer(seed=1).choose(game)
    after = [(game.free & ~game.board.conflicts[r * 5 + c]).bit_count() for r, c in game.legal_moves()]
    assert (game.free & ~game.board.conflicts[move[0] * 5 + move[1]]).bit_count() == min(after)


def test_perfect_play_wins_every_won_game_against_greedy():
    for seed in range(6):
        game = QueensGame(QueensBoard.random(7, seed, "hard"))
        first_wins = analyse(game).winner == 0
        perfect, greedy = PerfectPlayer(seed), GreedyPlayer(seed)
        players = (perfect, greedy) if first_wins else (greedy, perfect)
        while not game.is_over():
            game.push(players[game.turn].choose(game))
        assert isinstance(players[present(game.winner())], PerfectPlayer)


def test_analyse_command_prints_json(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text("\n".join(REGIONS_4) + "\n")
    assert main(["play", "queens", "--analyse", str(path), "--mode", "hard", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = analyse(QueensGame(QueensBoard.from_rows(REGIONS_4, "hard")))
    assert data == expected.as_json()
    assert data["winner"] in ("first", "second")
    assert main(["play", "queens", "--analyse", str(path)]) == 0
    assert "player wins with perfect play" in capsys.readouterr().out


def test_analyse_of_a_missing_or_malformed_file_exits_2(tmp_path, capsys):
    assert main(["play", "queens", "--analyse", str(tmp_path / "nope.txt")]) == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("AAB\nAB\n")
    assert main(["play", "queens", "--analyse", str(bad)]) == 2
    assert "error" in capsys.readouterr().err


def test_board_sizes_out_of_range_exit_2(capsys):
    assert main(["play", "queens", "--size", "3"]) == 2
    assert main(["play", "queens", "--plain", "17"]) == 2
    assert main(["play", "queens", "--position", "AAB/ACB/CCB hard r1c1,r1c2"]) == 2
    err = capsys.readouterr().err
    assert "N = 1 or N >= 4" in err and "out of range" in err and "same row" in err


def test_known_lost_reads_what_the_search_left_in_the_memo():
    # The perfect player picks its reply from the memo without searching again.
    board = QueensBoard.random(6, 2, "easy")
    solver = KaylesSolver(board)
    for i in range(36):
        child = board.full & ~board.conflicts[i]
        assert not solver.known_lost(child) or solver.is_lost(child)
        lost = solver.is_lost(child)
        assert solver.known_lost(child) == lost, i


@pytest.mark.parametrize("mode", ["hard", "easy"])
def test_the_exact_solver_agrees_with_plain_minimax_on_any_free_mask(mode):
    # Masks no game reaches too: the count of free rows, columns and regions bounds the queens
    # left whatever the cells, and the search must stay exact on every one.
    rng = random.Random(mode)
    for seed in range(6):
        board = QueensBoard.random(5 + seed % 2, seed, mode)
        solver = KaylesSolver(board)
        for _ in range(40):
            free = rng.getrandbits(board.n * board.n)
            assert solver.is_lost(free) == (not brute_force_wins(QueensGame(board, free))), (seed, free)


def test_positions_with_three_queens_to_come_are_decided_without_searching_further():
    rng = random.Random(3)
    checked = 0
    for seed in range(20):
        board = QueensBoard.random(6, seed, "easy")
        game = QueensGame(board)
        while game.legal_moves() and len({r for r, _ in game.legal_moves()}) > 3:
            game.push(rng.choice(game.legal_moves()))
        if not game.legal_moves():
            continue
        solver = KaylesSolver(board)
        assert solver.is_lost(game.free) == (not brute_force_wins(game)), game.position()
        assert solver.nodes == 1, game.position()  # one position looked at: no child searched
        checked += 1
    assert checked >= 10


def test_killer_moves_reorder_the_search_and_leave_every_answer_exact(monkeypatch):
    # One solver asked about many positions keeps its killer cells from one search to the next
    # (on easy boards: on hard ones they cost more positions than they save): they change which
    # children are tried first (so how many positions are searched), never a result. Compared with
    # plain minimax, and with the same search without killers.
    import queens_autosolve.twoplayer.queens_solver as queens_solver

    hard = KaylesSolver(QueensBoard.random(6, 0, "hard"))
    hard.is_lost(hard.board.full)
    assert hard.nodes > 10 and not any(hard._killers)
    rng = random.Random(11)
    games = []
    for seed in range(8):
        board = QueensBoard.random(6 + seed % 2, seed, "easy")
        cells = board.n * board.n
        for _ in range(40):
            free = rng.getrandbits(cells) | rng.getrandbits(cells)  # three cells in four free
            if board.n == 7:
                free &= rng.getrandbits(cells)  # fewer on 7x7: plain minimax stays quick
            games.append(QueensGame(board, free))

    def answers() -> tuple[list[bool], int]:
        solvers: dict[QueensBoard, KaylesSolver] = {}
        lost = []
        for game in games:
            solver = solvers.setdefault(game.board, KaylesSolver(game.board))
            solver.proof_order_cells = 12  # the ordering by open moves as well, on these small boards
            lost.append(solver.is_lost(game.free))
        return lost, sum(solver.nodes for solver in solvers.values())

    with_killers, nodes = answers()
    assert with_killers == [not brute_force_wins(game) for game in games]
    monkeypatch.setattr(queens_solver, "KILLERS", 0)
    without, plain_nodes = answers()
    assert without == with_killers and plain_nodes != nodes


@pytest.mark.parametrize("mode", ["hard", "easy"])
def test_conflicts_are_mutual(mode):
    # The solver marks a sibling won by the same two queens placed in the other order
    # (`KaylesSolver._won_sibling`): sound only if a queen on i rules out j exactly when one on j
    # rules out i.
    for board in [QueensBoard.plain(5, mode), *(QueensBoard.random(n, seed, mode) for n in (4, 6, 8)
                                                 for seed in range(3))]:
        cells = board.n * board.n
        for i in range(cells):
            assert board.conflicts[i] >> i & 1
            for j in range(cells):
                assert (board.conflicts[i] >> j & 1) == (board.conflicts[j] >> i & 1), (board, i, j)


def _minimax(keep: list[int], table: dict[int, bool], free: int) -> bool:
    """Does the mover win `free`? Plain minimax over the free cells with a table, nothing else."""
    if free not in table:
        table[free] = any(not _minimax(keep, table, free & keep[i])
                          for i in range(len(keep)) if free >> i & 1)
    return table[free]


@pytest.mark.parametrize("mode", ["hard", "easy"])
def test_every_position_the_memo_holds_is_exact(mode):
    # Not only the answers asked for: the memo also holds the positions decided on the way,
    # siblings marked won without a search among them (`_won_sibling`), which later searches read.
    # All of them against minimax with nothing but a table of its own.
    rng = random.Random(mode)
    checked = 0
    for seed in range(12):
        board = QueensBoard.random(6 + seed % 2, seed, mode)
        keep = [~mask for mask in board.conflicts]
        plain: dict[int, bool] = {}
        solver = KaylesSolver(board)
        solver.proof_order_cells = 14  # the ordering by open moves too, on these small boards
        solver.is_lost(board.full)
        for _ in range(30):
            free = board.full & ~board.conflicts[rng.randrange(board.n * board.n)]
            solver.is_lost(free & (rng.getrandbits(board.n * board.n) | rng.getrandbits(board.n * board.n)))
        for free, result in solver.memo.items():
            assert result == _minimax(keep, plain, free), (seed, free)
        checked += len(solver.memo)
    assert checked > 5000, checked
