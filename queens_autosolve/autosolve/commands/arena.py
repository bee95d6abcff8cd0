"""`queens-autosolve arena GAME`: AI against AI over many games, colours swapped every other
game; prints the score and the Elo difference with its error.

    arena amazons --p1 search --p2 baseline --games 100 --time 0.5
    arena queens --p1 perfect --p2 greedy --games 200 --size 8 --mode hard --seed 0
    arena bench          (timings too slow for the tests)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from queens_autosolve.autosolve.commands.play import QUEENS_MAX, TimedPlayer, add_timeout, think_limit
from queens_autosolve.autosolve.flags import POSITIVE_SECONDS
from queens_autosolve.twoplayer import amazons, queens_game, queens_players
from queens_autosolve.twoplayer.game import M, PositionError, S
from queens_autosolve.twoplayer.matches import play_match
from queens_autosolve.twoplayer.players import Player
from queens_autosolve.twoplayer.queens_game import QueensBoard, QueensGame


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "arena", help="AI against AI: score and Elo difference",
        description="Play one AI against another, colours swapped every other game.",
    )
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    p = games.add_parser("amazons", help="Amazons 6x6 AIs: random, search, baseline (depth-2 territory)")
    _common(p, amazons.AMAZONS_AIS.names, "search", "baseline", games=20)
    p.add_argument("--setup", default=amazons.START, help="start position of every game")
    p.set_defaults(func=run_amazons)
    q = games.add_parser(
        "queens", help="Queens Game AIs on random region maps (each map played twice, colours swapped): "
        "random, greedy, search, perfect")
    _common(q, queens_players.QUEENS_AIS.names, "greedy", "random", games=200)
    q.add_argument("--size", type=int, default=8, help="board size (default 8)")
    q.add_argument("--mode", choices=queens_game.MODES, default="hard", help="diagonal rule (default hard)")
    q.set_defaults(func=run_queens)
    b = games.add_parser("bench", help="timings: perfect Queens Game play on 10x10, N-Queens 10, "
                         "Super Queen 100x100, Amazons perft and search")
    b.set_defaults(func=run_bench)


def _common(p: argparse.ArgumentParser, choices: tuple[str, ...], p1: str, p2: str, games: int) -> None:
    p.add_argument("--p1", choices=choices, default=p1, help=f"first AI (default {p1})")
    p.add_argument("--p2", choices=choices, default=p2, help=f"second AI (default {p2})")
    p.add_argument("--games", type=int, default=games, help=f"number of games (default {games})")
    p.add_argument("--time", type=POSITIVE_SECONDS, default=0.5,
                   help="seconds per move for searching AIs (default 0.5)")
    p.add_argument("--seed", type=int, default=0, help="seed of boards and random players (default 0)")
    p.add_argument("--quiet", action="store_true", help="no line per game")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_timeout(p, analyse=False)


def run_amazons(args: argparse.Namespace) -> int:
    _check_games(args.games)
    amazons.AmazonsGame(args.setup)  # a bad setup fails here, before any game
    limit = think_limit(args.time)
    board = "the 6x6 board"
    p1, p2 = (_timed(amazons.AMAZONS_AIS.make(kind, args.seed + seat, limit), board, args)
              for seat, kind in enumerate((args.p1, args.p2)))
    result = play_match(lambda _: amazons.AmazonsGame(args.setup), p1, p2, args.games,
                        on_game=None if args.quiet else _report(args.p1, args.p2))
    print(json.dumps(result.as_json()) if args.json else result.summary())
    return 0


def run_queens(args: argparse.Namespace) -> int:
    _check_games(args.games)
    if not 1 <= args.size <= QUEENS_MAX:
        raise PositionError(f"board size {args.size} is out of range 1..{QUEENS_MAX}")
    limit = think_limit(args.time)
    board = f"a {args.size}x{args.size} board"
    p1, p2 = (_timed(queens_players.QUEENS_AIS.make(kind, args.seed + seat, limit), board, args)
              for seat, kind in enumerate((args.p1, args.p2)))

    def new_game(index: int) -> QueensGame:
        # Games 2k and 2k+1 share a map, so each map is played with both colourings and the
        # luck of the map cancels out.
        return QueensGame(QueensBoard.random(args.size, args.seed * 100_003 + index // 2, args.mode))

    result = play_match(new_game, p1, p2, args.games,
                        on_game=None if args.quiet else _report(args.p1, args.p2))
    print(json.dumps(result.as_json()) if args.json else result.summary())
    return 0


def run_bench(args: argparse.Namespace) -> int:
    """The two-player games' timings (queens_autosolve.twoplayer.timings)."""
    from queens_autosolve.twoplayer.timings import run_all

    for line in run_all():
        print(line, flush=True)
    return 0


def _timed(player: Player[S, M], board: str, args: argparse.Namespace) -> TimedPlayer[S, M]:
    """`player` held to --timeout per move: perfect play on a big board would think for hours."""
    return TimedPlayer(player, player.name, board, args.timeout or None)


def _check_games(games: int) -> None:
    if games < 1:
        raise PositionError(f"--games {games}: play at least one game")


def _report(p1: str, p2: str) -> Callable[[int, int], None]:
    def on_game(index: int, winner: int) -> None:
        first = p1 if index % 2 == 0 else p2
        print(f"game {index + 1}: {first} moved first; {p1 if winner == 0 else p2} won", file=sys.stderr,
              flush=True)

    return on_game
