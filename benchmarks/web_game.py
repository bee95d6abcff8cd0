"""Queens Game benchmark: AI move latency through the REST API, per level, on 8x8 and 10x10
maps; and the perfect AI's first move on 10x10 easy maps, today's engine against the one of
git commit 0fe93c5 (before issue 11) or of any commits given with --before, all in this process.

Run from the project root::

    .venv/bin/python benchmarks/web_game.py                  # both parts
    .venv/bin/python benchmarks/web_game.py --games 4 --maps 20
    .venv/bin/python benchmarks/web_game.py --skip-latency --before 0fe93c5 --before a40ac60

Latency is the wall-clock time of one ``POST /api/game/ai-move`` against a `GameServer` in this
process (what the page waits for), with the CPU seconds of this process (and of the copies it
forks to prove big positions) in the same span beside it (what a busy shared machine does not
inflate). Each game is the level under test against
itself, from the empty board to the end, on maps from seeds 0, 1, ...
Not a test: nothing here is imported by the product or by the test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import types
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, cast

from queens_autosolve.pages.two_player import GameServer
from queens_autosolve.twoplayer import queens_game
from queens_autosolve.twoplayer.queens_game import QueensBoard
from queens_autosolve.twoplayer.queens_players import QUEENS_AIS
from queens_autosolve.twoplayer.queens_split import processes_available

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "0fe93c5"


@dataclass(frozen=True)
class Latency:
    """Seconds per AI move: median and worst wall clock, and worst CPU (`cpu_seconds`)."""

    label: str
    count: int
    median: float
    worst: float
    worst_cpu: float
    # Positions the exact search visited, most on one move (None: not counted). Unlike the
    # seconds, a loaded machine does not change it.
    worst_nodes: int | None = None

    def row(self) -> str:
        nodes = "-" if self.worst_nodes is None else str(self.worst_nodes)
        return (f"| {self.label} | {self.count} | {self.median * 1000:.1f} | {self.worst * 1000:.1f} "
                f"| {self.worst_cpu * 1000:.1f} | {nodes} |")


def post(url: str, body: dict[str, object]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=120) as response:
        return cast("dict[str, Any]", json.load(response))


def cpu_seconds() -> float:
    """CPU of this process and of the copies it forked and reaped (the perfect player proves
    big positions on every core: `twoplayer.queens_split`)."""
    copies = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + copies.ru_utime + copies.ru_stime


def timed(job: Callable[[], object]) -> tuple[float, float]:
    start, start_cpu = time.perf_counter(), cpu_seconds()
    job()
    return time.perf_counter() - start, cpu_seconds() - start_cpu


def summarise(label: str, samples: list[tuple[float, float]], nodes: list[int] | None = None) -> Latency:
    walls = [wall for wall, _ in samples]
    return Latency(label, len(samples), statistics.median(walls), max(walls), max(cpu for _, cpu in samples),
                   max(nodes) if nodes else None)


def api_latency(server: GameServer, n: int, mode: str, level: str, games: int) -> Latency:
    """Every AI move of `games` self-play games at `level` on n x n maps."""
    samples = []
    for seed in range(games):
        state = post(server.url + "api/game/init", {"n": n, "mode": mode, "seed": seed})
        while not state["game_over"]:
            answer: dict[str, Any] = {}

            def move(state: dict[str, Any] = state, answer: dict[str, Any] = answer) -> None:
                body = {"game_id": state["game_id"], "level": level}
                answer.update(post(server.url + "api/game/ai-move", body))

            samples.append(timed(move))
            state = answer
    return summarise(f"{n}x{n} {mode} {level}", samples)


# The modules of the Queens Game engine, imports first; older commits lack some (0fe93c5 held it
# all in queens_game.py).
ENGINE_MODULES = ("queens_board", "queens_solver", "queens_players", "queens_game")
TODAY = "queens_autosolve.twoplayer"  # the package's name since the product took one namespace


def show_at(ref: str, name: str) -> str | None:
    """twoplayer/`name`.py at `ref` (where it was before or after the namespace move), its
    imports of the package under today's name; None when the module did not exist then."""
    for path in (f"queens_autosolve/twoplayer/{name}.py", f"twoplayer/{name}.py"):
        shown = subprocess.run(["git", "show", f"{ref}:{path}"], cwd=ROOT, capture_output=True, text=True)
        if shown.returncode == 0:
            return shown.stdout.replace("from twoplayer.", f"from {TODAY}.")
    return None


def load_engine(ref: str) -> types.ModuleType:
    """twoplayer/queens_game.py as it was at git `ref`, as a module of its own, importing the
    board, solver and players of `ref` too (not today's: `from twoplayer.queens_solver import`
    inside it would otherwise bind the working tree's solver)."""
    saved = {name: sys.modules.get(f"{TODAY}.{name}") for name in ENGINE_MODULES}
    module = types.ModuleType(f"queens_game_{ref}")
    try:
        for name in ENGINE_MODULES:
            shown = show_at(ref, name)
            if shown is None:
                continue  # not at that commit
            module = types.ModuleType(f"{name}_{ref}")
            module.__dict__["__name__"] = module.__name__
            sys.modules[module.__name__] = module  # dataclasses look their module up
            sys.modules[f"{TODAY}.{name}"] = module  # what the later modules of `ref` import
            exec(compile(shown, f"{ref}:twoplayer/{name}.py", "exec"), module.__dict__)
    finally:
        for name, today in saved.items():
            if today is None:
                sys.modules.pop(f"{TODAY}.{name}", None)
            else:
                sys.modules[f"{TODAY}.{name}"] = today
    return module  # queens_game, loaded last


def first_moves(engine: types.ModuleType, label: str, maps: int, size: int = 10,
                mode: str = "easy", processes: int | None = None) -> Latency:
    """The perfect player's first move (the hardest one) on `maps` random maps, fresh memo each;
    with the positions searched where the engine counts them (the one of 0fe93c5 does not).
    `processes`: how many the player proves big positions with (today's engine; None: its own
    default, one per core)."""
    samples: list[tuple[float, float]] = []
    nodes: list[int | None] = []
    for seed in range(maps):
        board = engine.QueensBoard.random(size, seed, mode)
        game = engine.QueensGame(board)
        extra = {} if processes is None else {"processes": processes}  # the old engines take no such thing
        player = engine.PerfectPlayer(0, **extra)
        samples.append(timed(partial(player.choose, game)))
        nodes.append(getattr(player.solver_for(board), "nodes", None))
    counted = [count for count in nodes if count is not None]
    return summarise(label, samples, counted if len(counted) == len(nodes) else None)


def first_move_api(server: GameServer, maps: int, size: int = 10, mode: str = "easy") -> Latency:
    samples = []
    for seed in range(maps):
        state = post(server.url + "api/game/init", {"n": size, "mode": mode, "seed": seed})
        body = {"game_id": state["game_id"], "level": "perfect"}
        samples.append(timed(partial(post, server.url + "api/game/ai-move", body)))
    return summarise(f"{size}x{size} {mode} perfect first move, API", samples)


def check_same_maps(old: types.ModuleType, ref: str) -> None:
    """Both engines must see the same maps, or the comparison means nothing."""
    for seed in range(3):
        then, now = old.QueensBoard.random(10, seed, "easy"), QueensBoard.random(10, seed, "easy")
        same = then.regions == now.regions
        assert same, f"the maps of seed {seed} differ between {ref} and today"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="self-play games per level and size (default 3)")
    parser.add_argument("--maps", type=int, default=20, help="maps for the first-move figures (default 20)")
    parser.add_argument("--mode", choices=queens_game.MODES, help="only this mode (default: easy, then hard)")
    parser.add_argument("--skip-latency", action="store_true", help="only the first-move comparison")
    parser.add_argument("--skip-before", action="store_true",
                        help=f"first moves of today's engine only, not of {BEFORE} (half the time)")
    parser.add_argument("--before", action="append", metavar="REF",
                        help=f"an older engine to compare, by git commit (repeatable; default {BEFORE})")
    args = parser.parse_args(argv)

    header = ("| what | moves | median ms | worst ms | worst CPU ms | worst nodes |\n"
              "|---|---|---|---|---|---|")
    with GameServer() as server:
        if not args.skip_latency:
            print(f"AI move latency through POST /api/game/ai-move ({args.games} self-play games each)")
            print(header)
            for mode in [args.mode] if args.mode else queens_game.MODES[::-1]:
                for n in (8, 10):
                    for level in QUEENS_AIS.names:
                        print(api_latency(server, n, mode, level, args.games).row(), flush=True)
        print()
        print(f"Perfect AI, first move on {args.maps} random 10x10 easy maps (fresh memo each)")
        print(header)
        for ref in [] if args.skip_before else args.before or [BEFORE]:
            old = load_engine(ref)
            check_same_maps(old, ref)
            print(first_moves(old, f"engine of {ref} (before)", args.maps).row(), flush=True)
        print(first_moves(queens_game, "engine today, one process", args.maps, processes=1).row(), flush=True)
        cores = processes_available()
        print(first_moves(queens_game, f"engine today, {cores} processes", args.maps).row(), flush=True)
        print(first_move_api(server, args.maps).row(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
