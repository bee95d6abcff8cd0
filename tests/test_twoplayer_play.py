"""The shared machinery: alpha-beta and exact search, terminal play through stdin, the arena."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from typing import Any

from queens_autosolve.autosolve.cli import main
from queens_autosolve.twoplayer.corner import CornerGame, is_safe
from queens_autosolve.twoplayer.game_search import PROVEN, AlphaBeta, Limit, solve, winning_moves
from queens_autosolve.twoplayer.matches import elo_difference, play_match
from queens_autosolve.twoplayer.players import Player, RandomPlayer
from queens_autosolve.twoplayer.queens_game import QueensBoard, QueensGame
from queens_autosolve.twoplayer.queens_solver import KaylesSolver
from queens_autosolve.twoplayer.terminal import Console, HumanPlayer, play_game


def test_alpha_beta_proves_wins_and_losses_that_exact_solving_finds():
    for x, y in [(5, 7), (4, 6), (8, 8), (6, 4), (3, 3)]:
        game = CornerGame(8, x, y)
        result = AlphaBeta[Any]().search(game, Limit(depth=20))
        assert result.proven and (result.score > 0) == (not is_safe(x, y)) == solve(game)
        if result.score > 0:
            game.push(result.move)
            assert is_safe(game.x, game.y)


def test_alpha_beta_on_the_queens_game_matches_the_exact_solver():
    for seed in range(6):
        game = QueensGame(QueensBoard.random(5, seed, "easy"))
        result = AlphaBeta[Any]().search(game, Limit(depth=30))
        lost = KaylesSolver(game.board).is_lost(game.free)
        assert result.score >= PROVEN or result.score <= -PROVEN
        assert (result.score < 0) == lost


def test_search_respects_a_time_limit_and_always_returns_a_move(monkeypatch):
    # a clock that moves 1 ms each time the search reads it: the limit is reached after a known
    # amount of work, whatever the machine's load
    ticks = itertools.count()
    clock = "queens_autosolve.twoplayer.game_search.time.perf_counter"
    monkeypatch.setattr(clock, lambda: next(ticks) / 1000)
    game = QueensGame(QueensBoard.plain(12, "easy"))
    result = AlphaBeta[Any]().search(game, Limit(time=0.05))
    assert result.move in game.legal_moves() and result.depth >= 1
    assert result.seconds < 0.06  # stopped within a few clock reads of the limit


def test_winning_moves_lists_exactly_the_moves_to_safe_fields():
    game = CornerGame(10, 7, 9)
    assert {m for m in winning_moves(game)} == {m for m in game.legal_moves() if is_safe(*m)}


def test_a_game_goes_on_after_bad_input_and_undo_takes_back_a_pair():
    out = io.StringIO()
    console = Console(io.StringIO("nonsense\nr1c1\nr9c9\nmoves\nundo\nr1c2\nquit\n"), out)
    game = QueensGame(QueensBoard.plain(6, "hard"))
    human = HumanPlayer("You", console)
    players: list[Player[Any, Any]] = [human, RandomPlayer(seed=2)]
    result = play_game(game, players, ["You", "Computer"], console)
    text = out.getvalue()
    assert result is None and "game abandoned" in text
    assert "not a cell" in text and "off the 6x6 board" in text
    assert "legal moves (" in text and "move taken back" in text
    assert game.queens[0] == (0, 1)


def test_human_against_human_to_the_end():
    out = io.StringIO()
    console = Console(io.StringIO("r1c1\nr1c2\nr2c3\n"), out)
    game = QueensGame(QueensBoard.plain(3, "hard"))
    players = [HumanPlayer("A", console), HumanPlayer("B", console)]
    result = play_game(game, players, ["A", "B"], console)
    assert result is not None and result.winner == 1
    assert "same row" in out.getvalue() and "B wins" in out.getvalue()


def test_play_commands_take_moves_from_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("r2c2\n"))
    assert main(["play", "queens", "--plain", "3", "--p2", "perfect"]) == 0
    assert "Player 1 wins" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("a4-a5/a6\nb1-b2/b3\n"))
    assert main(["play", "amazons", "--p2", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "White plays a4-a5/a6" in out and "illegal move" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "queens", "--p1", "greedy", "--p2", "random", "--size", "6", "--seed", "4"]) == 0
    assert " wins " in capsys.readouterr().out
    assert main(["play", "queens", "--board", "/no/such/file"]) == 2


def test_elo_difference_is_symmetric_and_grows_with_the_score():
    assert elo_difference(50, 100)[0] == 0
    up, error = elo_difference(70, 100)
    down, _ = elo_difference(30, 100)
    assert up > 0 and abs(up + down) < 1e-9 and 0 < error < 200
    assert elo_difference(80, 100)[0] > up
    assert elo_difference(10, 10)[0] == float("inf")


def test_match_swaps_colours_every_other_game():
    first_movers = []

    def new_game(index: int) -> CornerGame:
        first_movers.append(index)
        return CornerGame(6, 6, 5)  # not safe: whoever moves first wins with perfect play

    class Perfect:
        def __init__(self, name: str) -> None:
            self.name = name

        def choose(self, game: CornerGame):
            return winning_moves(game)[0] if winning_moves(game) else game.legal_moves()[0]

    result = play_match(new_game, Perfect("a"), Perfect("b"), 6)
    assert (result.p1_wins, result.p2_wins) == (3, 3) and first_movers == list(range(6))
    assert "a 3 - 3 b over 6 games" in result.summary()


def test_arena_command_prints_score_and_elo(capsys):
    assert main(["arena", "queens", "--p1", "greedy", "--p2", "random", "--games", "4", "--size", "6",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "over 4 games" in out and "Elo difference" in out
    assert main(["arena", "amazons", "--games", "0"]) == 2


def test_twoplayer_never_imports_the_screen_stack():
    code = ("import sys; from queens_autosolve.twoplayer import queens_game, terminal; "
            "from queens_autosolve.autosolve.commands import play, arena; "
            "screen = {'vision', 'capture', 'actuator', 'cv2', 'pyautogui', 'mss'}; "
            "print(sorted(m for m in sys.modules "
            "             if m.removeprefix('queens_autosolve.').split('.')[0] in screen))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
