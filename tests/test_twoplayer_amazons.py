"""Amazons 6x6: move generation against a plain 2-D implementation, perft, notation, positions,
and the AI."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from queens_autosolve.autosolve.cli import main
from queens_autosolve.twoplayer import amazons
from queens_autosolve.twoplayer.amazons import START, AmazonsAI, AmazonsGame, perft, square_name
from queens_autosolve.twoplayer.game import IllegalMoveError, PositionError
from queens_autosolve.twoplayer.game_search import Limit, solve
from queens_autosolve.twoplayer.players import RandomPlayer

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def _grid(game: AmazonsGame) -> dict[tuple[int, int], str]:
    """(file, rank) -> 'W', 'B', 'x' or '.', read from the printed board (independent path)."""
    rows = str(game).splitlines()[:6]
    return {(f, 5 - i): row.split()[1 + f] for i, row in enumerate(rows) for f in range(6)}


def _slides(grid: dict[tuple[int, int], str], f: int, r: int) -> list[tuple[int, int]]:
    out = []
    for df, dr in DIRECTIONS:
        ff, rr = f + df, r + dr
        while 0 <= ff < 6 and 0 <= rr < 6 and grid[(ff, rr)] == ".":
            out.append((ff, rr))
            ff, rr = ff + df, rr + dr
    return out


def naive_moves(game: AmazonsGame) -> set[str]:
    """Every legal move in notation, from square-by-square ray walking."""
    grid = _grid(game)
    mine = "W" if game.turn == 0 else "B"
    names = set()
    for (f, r), piece in list(grid.items()):
        if piece != mine:
            continue
        for to in _slides(grid, f, r):
            grid[(f, r)], grid[to] = ".", mine
            for arrow in _slides(grid, *to):
                names.add("-".join(_name(sq) for sq in ((f, r), to)) + "/" + _name(arrow))
            grid[(f, r)], grid[to] = mine, "."
    return names


def _name(square: tuple[int, int]) -> str:
    return "abcdef"[square[0]] + str(square[1] + 1)


def test_default_start_and_perft():
    game = AmazonsGame()
    assert game.position() == START and game.turn == 0
    assert perft(game, 1) == 424
    assert perft(game, 2) == sum(len(naive_moves(_after(game, m))) for m in game.legal_moves()) == 147748


def _after(game: AmazonsGame, move) -> AmazonsGame:
    child = game.copy()
    child.push(move)
    return child


@settings(max_examples=25, deadline=None)
@given(picks=st.lists(st.integers(0, 100_000), max_size=30))
def test_random_playouts_match_the_plain_generator_and_pop_undoes_push(picks):
    game = AmazonsGame()
    history = []
    for pick in picks:
        moves = game.legal_moves()
        assert {game.move_name(m) for m in moves} == naive_moves(game)
        assert len(moves) == len(set(moves)) == game.count_moves()
        assert game.is_over() == (not moves)
        if not moves:
            assert game.winner() == 1 - game.turn
            break
        history.append(game.position())
        move = moves[pick % len(moves)]
        assert game.parse_move(game.move_name(move)) == move
        game.push(move)
        assert AmazonsGame.from_position(game.position()).key() == game.key()
        assert bin(game.queens[0]).count("1") == 2 and bin(game.queens[1]).count("1") == 2
    while history:
        game.pop()
        assert game.position() == history.pop()


def test_illegal_moves_are_explained():
    game = AmazonsGame()
    with pytest.raises(IllegalMoveError, match="no White queen on d6"):
        game.parse_move("d6-d5/d4")
    with pytest.raises(IllegalMoveError, match="cannot reach"):
        game.parse_move("a4-b6/b5")  # not a queen line
    with pytest.raises(IllegalMoveError, match="not a move"):
        game.parse_move("a4 to c4")
    game = AmazonsGame("6/6/W1B3/5W/6/2B3 w")
    with pytest.raises(IllegalMoveError, match="cannot reach d4"):
        game.parse_move("a4-d4/d5")  # would jump over the Black queen on c4
    with pytest.raises(IllegalMoveError, match="arrow cannot reach"):
        game.parse_move("a4-b4/d4")  # the arrow would fly through c4
    assert game.move_name(game.parse_move("a4-b4/a4")) == "a4-b4/a4"  # back to the vacated square


def test_bad_setups_are_refused():
    for bad in ("3B2/6/W5/5W/6 w", "3B2/6/W5/5W/6/2B3", "3B2/6/W5/5W/6/2B4 w", "3B2/6/W5/5W/6/2Q3 w"):
        with pytest.raises(PositionError):
            AmazonsGame(bad)


def test_a_player_whose_queens_are_walled_in_has_lost():
    game = AmazonsGame("Wx4/xx4/6/6/6/4B1 w")
    assert game.is_over() and game.winner() == 1 and game.legal_moves() == []


def test_the_ai_plays_the_winning_move_of_won_endgames():
    checked = 0
    for seed in range(12):
        game = AmazonsGame()
        walker = RandomPlayer(seed)
        while game.empty_count() > 11 and not game.is_over():
            game.push(walker.choose(game))
        if game.is_over() or not solve(game):
            continue
        game.push(AmazonsAI(Limit(time=1.0)).choose(game))
        assert not solve(game), game.position()
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("ai_side", [0, 1], ids=("ai-first", "ai-second"))
def test_the_ai_beats_a_random_player_every_game(ai_side, monkeypatch):
    """Depth 1 and no endgame solver (it has a clock of its own): nothing depends on the
    machine's load, and the territory evaluation alone wins 5 games of 5 on each side."""
    monkeypatch.setattr(amazons, "ENDGAME_EMPTY", -1)
    for seed in range(5):
        game, ai, walker = AmazonsGame(), AmazonsAI(Limit(depth=1)), RandomPlayer(seed=seed)
        players = (ai, walker) if ai_side == 0 else (walker, ai)
        while not game.is_over():
            game.push(players[game.turn].choose(game))
        assert game.winner() == ai_side, f"seed {seed}: lost to the random player"


def test_perft_command_prints_the_count_alone_on_its_last_line(capsys):
    assert main(["play", "amazons", "--perft", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "424"
    assert main(["play", "amazons", "--perft", "1", "--setup", "nonsense"]) == 2


def test_square_names():
    assert [square_name(s) for s in (0, 5, 7, 40)] == ["a1", "f1", "a2", "f6"]


@pytest.mark.parametrize(("setup", "missing"), [
    ("6/6/6/6/6/6 w", "no white queen (W)"),
    ("3B2/6/6/6/6/2B3 w", "no white queen (W)"),
    ("6/6/W5/5W/6/6 b", "no black queen (B)"),
])
def test_a_setup_without_a_queen_on_each_side_is_refused(setup, missing):
    with pytest.raises(PositionError, match=re.escape(missing)):
        AmazonsGame(setup)
