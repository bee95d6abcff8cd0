"""Corner the Queen: Wythoff's safe fields with exact integers, and Anne's terminal session."""

from __future__ import annotations

import io
from decimal import Decimal, getcontext

import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.twoplayer.corner import (
    CornerGame,
    WythoffPlayer,
    corner_session,
    is_safe,
    lower_wythoff,
    safe_fields,
    wythoff_move,
)
from queens_autosolve.twoplayer.game import IllegalMoveError, PositionError
from queens_autosolve.twoplayer.game_search import solve
from queens_autosolve.twoplayer.terminal import Console
from tests.twoplayer_oracles import grundy_table


def test_safe_fields_are_the_zeros_of_the_grundy_table_up_to_200():
    table = grundy_table(200)
    zeros = {(p + 1, q + 1) for p in range(200) for q in range(200) if table[p][q] == 0}
    assert zeros == set(safe_fields(200))
    assert all(is_safe(x, y) == ((x, y) in zeros) for x in range(1, 201) for y in range(1, 201))


def test_grundy_table_is_the_mex_of_the_moves_on_a_small_board():
    table = grundy_table(12)
    for p in range(12):
        for q in range(12):
            reachable = {table[p - d][q] for d in range(1, p + 1)}
            reachable |= {table[p][q - d] for d in range(1, q + 1)}
            reachable |= {table[p - d][q - d] for d in range(1, min(p, q) + 1)}
            assert table[p][q] == min(set(range(len(reachable) + 1)) - reachable)


def test_the_perfect_move_always_reaches_a_safe_field():
    for x in range(1, 80):
        for y in range(1, 80):
            target = wythoff_move(x, y)
            if target is None:
                assert is_safe(x, y)
            else:
                assert is_safe(*target) and CornerGame(80, x, y).is_legal(target)


def test_exact_integers_stay_right_on_huge_boards():
    getcontext().prec = 200
    phi = (1 + Decimal(5).sqrt()) / 2
    for k in (10**6 + 3, 10**20 + 7, 10**40 + 1):
        assert lower_wythoff(k) == int(k * phi)
    k = 10**30 + 5
    a = lower_wythoff(k)
    assert is_safe(a + 1, a + k + 1) and not is_safe(a + 2, a + k + 1)
    target = wythoff_move(a + k + 1, a + k + 50)
    assert target is not None and is_safe(*target)


def test_exact_search_agrees_with_the_formula():
    memo: dict = {}
    for x in range(1, 15):
        for y in range(1, 15):
            assert solve(CornerGame(14, x, y), memo) == (not is_safe(x, y))


def test_moves_rules_notation_and_positions():
    game = CornerGame(8, 5, 7)
    assert set(game.legal_moves()) == {(x, 7) for x in range(1, 5)} | {(5, y) for y in range(1, 7)} | {
        (5 - d, 7 - d) for d in range(1, 5)}
    for bad in ("6,7", "4,6,", "3,6", "5,7", "0,7"):
        with pytest.raises(IllegalMoveError):
            game.parse_move(bad)
    game.push(game.parse_move("(2, 4)"))
    assert game.position() == "8 2,4 1 5,7"
    again = CornerGame.from_position(game.position())
    assert again.position() == game.position()
    game.pop()
    assert (game.x, game.y, game.turn) == (5, 7, 0)
    with pytest.raises(PositionError):
        CornerGame(8, 9, 1)
    with pytest.raises(PositionError):
        CornerGame.from_position("8 3,3 2 3,3")


def _session(text: str, hint: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    wins = corner_session(Console(io.StringIO(text), out), hint=hint)
    return wins, out.getvalue()


def test_anne_plays_many_games_with_validation_cheating_and_win_messages():
    script = "\n".join([
        "0", "2",            # a bad size, then 2
        "3,3", "1,2",        # off the board, then a field Bob wins from: (1,2) -> (1,1)
        "y", "1",            # another game on a 1x1 board
        "1,1",               # cheating
        "y", "3",
        "2,3",               # a safe field: Bob must step to (1,3)
        "2,2", "1,1",        # an illegal move, then the winning one
        "n",
    ]) + "\n"
    wins, out = _session(script)
    assert wins == 2
    assert "'0' is not a board size" in out
    assert "(3,3) is not on the 2x2 board" in out
    assert "Bob wins" in out
    assert "cheating" in out
    assert "illegal move" in out and "Anne wins" in out
    assert out.rstrip().endswith("bye")


def test_hint_marks_the_safe_fields_and_end_of_input_quits():
    wins, out = _session("4\n4,4\n", hint=True)
    assert wins == 0
    board = CornerGame(4, 4, 4).board(hint=True)
    assert board.count("*") == len([f for f in safe_fields(4) if f != (4, 4)]) and board in out


def test_bob_plays_perfectly_from_any_unsafe_field():
    bob = WythoffPlayer()
    game = CornerGame(30, 30, 17)
    while not game.is_over():
        game.push(bob.choose(game))
        if not game.is_over():
            game.push(game.legal_moves()[0])
    assert game.winner() == 0  # player 0 here is the one Bob played for: he moved first


def test_corner_command_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n2,3\n1,3\n"))
    assert main(["play", "corner", "--hint"]) == 0
    out = capsys.readouterr().out
    assert "Corner the Queen" in out and "*" in out
