"""`queens-autosolve play GAME`: the two-player queen games in the terminal.

    play queens [--board FILE | --size N --seed S | --plain N] [--mode hard|easy] [--p1/--p2 WHO]
    play queens --analyse FILE [--mode hard|easy] [--json]
    play queens --web [--port P] [--no-open] [--size N --seed S --mode M --p1/--p2 WHO]
    play corner [--hint]
    play amazons [--setup POSITION] [--p1/--p2 WHO] [--time SECONDS] | --perft D
    play superqueen (--board FILE | --random N --density P --seed S)
"""

from __future__ import annotations

import argparse
import json
import math
import time
import webbrowser
from typing import Generic
from urllib.parse import urlencode

from queens_autosolve.autosolve.cli import time_limit
from queens_autosolve.autosolve.flags import PORT, POSITIVE_SECONDS, TIMEOUT, Share
from queens_autosolve.solver.formats import read_puzzles, read_text
from queens_autosolve.twoplayer import amazons, queens_game, queens_players, queens_solver
from queens_autosolve.twoplayer.corner import corner_session
from queens_autosolve.twoplayer.game import M, PositionError, S
from queens_autosolve.twoplayer.game_search import Limit
from queens_autosolve.twoplayer.players import Player
from queens_autosolve.twoplayer.queens_game import QueensBoard, QueensGame
from queens_autosolve.twoplayer.superqueen import SuperQueenBoard, shortest_path
from queens_autosolve.twoplayer.terminal import Console, HumanPlayer, play_game

HUMAN = "human"
QUEENS_MAX = 16  # the Queens Game's boards go up to 16x16 (position strings, --plain, --size, --board)
DEFAULT_TIMEOUT = 60.0  # seconds an AI may think about one move (perfect play can need hours)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play", help="play a two-player queen game in the terminal",
        description="Two-player queen games: the Queens Game, Corner the Queen, Amazons 6x6, "
        "Super Queen.",
    )
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    _register_queens(games)
    _register_corner(games)
    _register_amazons(games)
    _register_superqueen(games)


def _register_queens(games: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = games.add_parser("queens", help="place queens in turn; who cannot place one loses")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--board", metavar="FILE", help="region map in the puzzle text format")
    source.add_argument("--plain", type=int, metavar="N", help="an N x N board without regions")
    source.add_argument("--analyse", "--analyze", metavar="FILE",
                        help="print who wins each board of FILE with perfect play, "
                        "and the winning first moves")
    p.add_argument("--size", type=int, default=queens_game.DEFAULT_SIZE,
                   help=f"size of a random region map (default {queens_game.DEFAULT_SIZE})")
    p.add_argument("--seed", type=int, default=None, help="seed of the random region map and AIs")
    p.add_argument("--mode", choices=queens_game.MODES, default=queens_game.DEFAULT_MODE,
                   help="hard: no shared diagonal at all; easy: no diagonal neighbours "
                   f"(default {queens_game.DEFAULT_MODE})")
    p.add_argument("--position", help="start from a position string (see `position` in a game)")
    p.add_argument("--json", action="store_true", help="with --analyse: JSON, one object per board")
    _add_players(p, (HUMAN, *queens_players.QUEENS_AIS.names), "human", queens_game.DEFAULT_AI)
    web = p.add_argument_group("in the browser", "play on a page served on 127.0.0.1 instead; "
                               "--size, --seed, --mode, --p1 and --p2 fill in its first game")
    web.add_argument("--web", action="store_true", help="serve the game page and open it in your browser")
    web.add_argument("--port", type=PORT, default=0,
                     help="with --web: port on 127.0.0.1 (default: any free port)")
    web.add_argument("--no-open", dest="open", action="store_false", help="with --web: do not open a browser")
    p.set_defaults(func=run_queens)


def _register_corner(games: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = games.add_parser("corner", help="Corner the Queen: Anne (you) against Bob (perfect play)")
    p.add_argument("--hint", action="store_true", help="mark the safe fields on the board")
    p.set_defaults(func=run_corner)


def _register_amazons(games: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = games.add_parser("amazons", help="Amazons on 6x6, two queens a side")
    p.add_argument("--setup", default=amazons.START, help=f"start position (default {amazons.START!r})")
    p.add_argument("--perft", type=int, metavar="D", help="count the move sequences of depth D and exit")
    p.add_argument("--seed", type=int, default=None, help="seed for the random player")
    _add_players(p, (HUMAN, *amazons.AMAZONS_AIS.names), "human", "search", analyse=False)
    p.set_defaults(func=run_amazons)


def _register_superqueen(games: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = games.add_parser("superqueen", help="fewest queen-or-knight moves to capture the king")
    p.add_argument("--board", metavar="FILE",
                   help="board text: S start, K king, X occupied, . empty (- for stdin)")
    p.add_argument("--random", type=int, metavar="N", help="generate an N x N board instead")
    p.add_argument("--density", type=Share(0.0, 1.0, "a share"), default=0.3,
                   help="share of occupied squares (default 0.3)")
    p.add_argument("--seed", type=int, default=None, help="seed of the generated board")
    p.set_defaults(func=run_superqueen)


def _add_players(p: argparse.ArgumentParser, choices: tuple[str, ...], first: str, second: str, *,
                 analyse: bool = True) -> None:
    p.add_argument("--p1", choices=choices, default=first, help=f"first player (default {first})")
    p.add_argument("--p2", choices=choices, default=second, help=f"second player (default {second})")
    p.add_argument("--time", type=POSITIVE_SECONDS, default=1.0,
                   help="seconds per move for searching AIs (default 1)")
    add_timeout(p, analyse=analyse)


def add_timeout(p: argparse.ArgumentParser, *, analyse: bool = True) -> None:
    """--timeout per AI move (and, where the command has --analyse, per analysed board)."""
    analysed = ", or --analyse about one board" if analyse else ""
    p.add_argument("--timeout", type=TIMEOUT, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"stop when an AI thinks longer than SECONDS about one move{analysed} (default "
                   f"{DEFAULT_TIMEOUT:g}; 0: no limit). Measured: the perfect Queens Game player "
                   "takes 2 s on a plain 10x10 and had not finished after 40 s on a plain 12x12 or a "
                   "16x16 region map")


def think_limit(seconds: float) -> Limit:
    """The searching AIs' --time per move; it must be a finite, positive number (NaN or inf
    would let a search run forever)."""
    if not (math.isfinite(seconds) and seconds > 0):
        raise PositionError(f"--time {seconds:g}: give a positive number of seconds per move")
    return Limit(time=seconds)


class TimedPlayer(Generic[S, M]):
    """An AI that must choose within `seconds` (None: no limit); past that the command stops
    with a message saying who was thinking on what."""

    def __init__(self, player: Player[S, M], seat: str, board: str, seconds: float | None) -> None:
        self.player = player
        self.name = player.name
        self.doing = f"{seat} thinking about a move on {board}"
        self.seconds = seconds

    def choose(self, state: S) -> M:
        with time_limit(self.seconds, self.doing) as work, work.step(self.doing):
            return self.player.choose(state)


# --- queens --------------------------------------------------------------------------------------


def run_queens(args: argparse.Namespace) -> int:
    if args.web:
        return run_queens_web(args)
    if args.analyse:
        return _analyse(args.analyse, args.mode, args.json, args.timeout or None)
    game = _queens_start(args)
    console = Console()
    limit = think_limit(args.time)
    names = [_seat_name(i, kind) for i, kind in enumerate((args.p1, args.p2))]
    board = f"the {game.board.n}x{game.board.n} board"
    players = [
        HumanPlayer(f"Player {i + 1}", console) if kind == HUMAN
        else TimedPlayer(queens_players.QUEENS_AIS.make(kind, _seed(args.seed, i), limit), names[i], board,
                         args.timeout or None)
        for i, kind in enumerate((args.p1, args.p2))
    ]
    console.say(f"Queens Game, {game.board.n}x{game.board.n}, {game.board.mode} mode. "
                "Moves are cells like r3c5 (row 3, column 5); 'moves' lists them.\n"
                "A queen shows as 1 or 2: the player who placed it.")
    play_game(game, players, names, console)
    return 0


def run_queens_web(args: argparse.Namespace) -> int:
    """Serve the game page until Ctrl-C (the HTTP stack loads only here)."""
    from queens_autosolve.pages.two_player import MAX_SIZE, MIN_SIZE, GameServer

    if not MIN_SIZE <= args.size <= MAX_SIZE:
        raise PositionError(f"--size {args.size}: the page plays boards from {MIN_SIZE} to {MAX_SIZE}")
    if args.board or args.plain is not None or args.analyse or args.position:
        raise PositionError("--web starts from a random map (--size, --seed); load a map on the page")
    with GameServer(port=args.port) as server:
        url = server.url + "?" + urlencode(web_settings(args))
        try:  # from the first line on: a Ctrl-C as soon as the address shows stops it cleanly
            print(f"Queens Game at {url}", flush=True)
            print("Press Ctrl-C to stop.", flush=True)
            if args.open:
                webbrowser.open(url)
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("\nstopped", flush=True)
    return 0


def web_settings(args: argparse.Namespace) -> dict[str, str]:
    """The page's first game from the command line: size, mode, seed and who plays whom.

    >>> web_settings(argparse.Namespace(size=6, mode="easy", seed=None, p1="greedy", p2="human"))
    {'n': '6', 'mode': 'easy', 'opponent': 'ai', 'first': 'ai', 'level': 'greedy'}
    """
    settings = {"n": str(args.size), "mode": args.mode}
    if args.seed is not None:
        settings["seed"] = str(args.seed)
    if args.p1 == HUMAN and args.p2 == HUMAN:
        return {**settings, "opponent": "pvp"}
    if HUMAN not in (args.p1, args.p2):
        raise PositionError("on the page a person plays: give --p1 human or --p2 human")
    first, level = ("human", args.p2) if args.p1 == HUMAN else ("ai", args.p1)
    return {**settings, "opponent": "ai", "first": first, "level": level}


def _queens_start(args: argparse.Namespace) -> QueensGame:
    if args.position:
        game = QueensGame.from_position(args.position)
        _check_size(game.board.n)
        return game
    if args.board:
        puzzle = read_puzzles(args.board)[0]
        _check_size(puzzle.n)
        return QueensGame(QueensBoard.from_puzzle(puzzle, args.mode))
    if args.plain is not None:
        _check_size(args.plain)
        return QueensGame(QueensBoard.plain(args.plain, args.mode))
    _check_size(args.size)
    return QueensGame(QueensBoard.random(args.size, args.seed, args.mode))


def _check_size(n: int) -> None:
    if not 1 <= n <= QUEENS_MAX:
        raise PositionError(f"board size {n} is out of range 1..{QUEENS_MAX}")


def _analyse(source: str, mode: queens_game.Mode, as_json: bool, timeout: float | None) -> int:
    puzzles = read_puzzles(source)
    for puzzle in puzzles:
        _check_size(puzzle.n)
    for puzzle in puzzles:
        game = QueensGame(QueensBoard.from_puzzle(puzzle, mode))
        doing = f"analysing {puzzle.name or 'the board'} ({puzzle.n}x{puzzle.n})"
        with time_limit(timeout, doing) as work, work.step(doing):
            result = queens_solver.analyse(game)
        if as_json:
            print(json.dumps(result.as_json()))
            continue
        name = f"{puzzle.name}: " if puzzle.name else ""
        who = "first" if result.winner == 0 else "second"
        print(f"{name}{who} player wins with perfect play ({mode} mode)")
        if result.winning_moves:
            cells = " ".join(game.move_name(cell) for cell in result.winning_moves)
            zero_based = " ".join(f"[{r}, {c}]" for r, c in result.winning_moves)
            print(f"winning first moves: {cells} (0-based row, col: {zero_based})")
        else:
            print("winning first moves: none (every first move loses)")
    return 0


# --- corner ------------------------------------------------------------------------------------


def run_corner(args: argparse.Namespace) -> int:
    console = Console()
    console.say("Corner the Queen. Fields are x,y: column from the left, row from the bottom; "
                "(1,1) is the bottom-left corner. The queen moves left, down or diagonally "
                "down-left; whoever moves it to (1,1) wins. Anne (you) places it, Bob moves first.")
    corner_session(console, hint=args.hint)
    return 0


# --- amazons -----------------------------------------------------------------------------------


def run_amazons(args: argparse.Namespace) -> int:
    game = amazons.AmazonsGame(args.setup)
    if args.perft is not None:
        if not 0 <= args.perft <= 6:
            raise PositionError(f"perft depth {args.perft} is out of range 0..6")
        print(f"perft {args.perft} from {game.position()}")
        print(amazons.perft(game, args.perft))
        return 0
    console = Console()
    limit = think_limit(args.time)
    players = [
        HumanPlayer(name, console) if kind == HUMAN
        else TimedPlayer(amazons.AMAZONS_AIS.make(kind, _seed(args.seed, i), limit), name, "the 6x6 board",
                         args.timeout or None)
        for i, (name, kind) in enumerate((("White", args.p1), ("Black", args.p2)))
    ]
    console.say("Amazons 6x6. A move is from-to/arrow, e.g. a4-c4/c2; 'moves' lists them.")
    play_game(game, players, ["White", "Black"], console)
    return 0


# --- super queen -------------------------------------------------------------------------------


def run_superqueen(args: argparse.Namespace) -> int:
    if args.random is not None:
        board = SuperQueenBoard.random(args.random, args.density, args.seed)
    elif args.board:
        board = SuperQueenBoard.parse(read_text(args.board, "board"), args.board)
    else:
        raise PositionError("give a board: --board FILE, or --random N [--density P --seed S]")
    print(board)
    print()
    result = shortest_path(board)
    if not result.found:
        print("not found")
        return 0
    print(f"minimum moves: {result.moves}")
    print(result.render(board))
    return 0


def _seed(seed: int | None, seat: int) -> int | None:
    return None if seed is None else seed * 2 + seat


def _seat_name(seat: int, kind: str) -> str:
    return f"Player {seat + 1}" + ("" if kind == HUMAN else f" ({kind})")
