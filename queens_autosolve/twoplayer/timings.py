"""Timings of the two-player games that are too slow or too machine-dependent for the tests: the
perfect Queens Game player on 10x10 maps, N-Queens 10, Super Queen on 100x100 boards, Amazons
perft and search.

Run through ``queens-autosolve arena bench``. Each function returns plain figures; `run_all`
gives them as printable lines.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from queens_autosolve.twoplayer.amazons import AmazonsGame, AmazonsMove, perft
from queens_autosolve.twoplayer.game_search import AlphaBeta, Limit
from queens_autosolve.twoplayer.queens_game import Mode, QueensBoard, QueensGame
from queens_autosolve.twoplayer.queens_players import PerfectPlayer
from queens_autosolve.twoplayer.queens_solver import KaylesSolver
from queens_autosolve.twoplayer.superqueen import SuperQueenBoard, shortest_path


@dataclass(frozen=True)
class Timing:
    """Seconds for `count` runs of one job: mean and worst wall-clock time, and the worst CPU
    time of this process (what a busy shared machine does not inflate)."""

    label: str
    count: int
    mean: float
    worst: float
    worst_cpu: float = 0.0

    def line(self) -> str:
        mean, worst, cpu = self.mean * 1000, self.worst * 1000, self.worst_cpu * 1000
        return f"{self.label}: {self.count} runs, mean {mean:.1f} ms, worst {worst:.1f} ms (cpu {cpu:.1f} ms)"


def _time_runs(label: str, jobs: Iterator[Callable[[], object]]) -> Timing:
    seconds, cpu = [], []
    for job in jobs:
        start, start_cpu = time.perf_counter(), time.process_time()
        job()
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return Timing(label, len(seconds), sum(seconds) / max(1, len(seconds)), max(seconds, default=0.0),
                  max(cpu, default=0.0))


@dataclass(frozen=True)
class FirstMoves:
    """The perfect player's first move on `count` maps: median and worst CPU seconds of this
    process (what a busy shared machine inflates least), worst wall clock, and the most
    positions the exact search visited on one map (the same on any machine)."""

    label: str
    count: int
    median_cpu: float
    worst_cpu: float
    worst: float
    worst_nodes: int

    def line(self) -> str:
        return (f"{self.label}: {self.count} maps, cpu median {self.median_cpu * 1000:.1f} ms, "
                f"worst {self.worst_cpu * 1000:.1f} ms (wall {self.worst * 1000:.1f} ms), "
                f"worst {self.worst_nodes} positions")


def perfect_first_move_times(size: int = 10, mode: Mode = "hard", boards: int = 10,
                             seed: int = 0) -> FirstMoves:
    """The perfect player's first move (the hardest one) on `boards` random maps, fresh memo each."""
    seconds: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    for index in range(boards):
        board = QueensBoard.random(size, seed + index, mode)
        player = PerfectPlayer(0)
        start, start_cpu = time.perf_counter(), time.process_time()
        player.choose(QueensGame(board))
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        nodes.append(player.solver_for(board).nodes)
    return FirstMoves(f"queens perfect first move, {size}x{size} {mode}", boards, statistics.median(cpu),
                      max(cpu), max(seconds), max(nodes))


def perfect_game_move_times(size: int = 10, mode: Mode = "hard", boards: int = 5, seed: int = 0) -> Timing:
    """Every move of perfect-vs-perfect games (the memo is kept within a game, as in play)."""
    seconds: list[float] = []
    cpu: list[float] = []
    for index in range(boards):
        game = QueensGame(QueensBoard.random(size, seed + index, mode))
        player = PerfectPlayer(0)
        while not game.is_over():
            start, start_cpu = time.perf_counter(), time.process_time()
            game.push(player.choose(game))
            seconds.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
    return Timing(f"queens perfect every move, {size}x{size} {mode}", len(seconds),
                  sum(seconds) / len(seconds), max(seconds), max(cpu))


def n_queens_time(n: int = 10) -> Timing:
    """Solving the plain n x n board (hard mode) from the empty board."""
    board = QueensBoard.plain(n, "hard")
    def job() -> object:
        return KaylesSolver(board).is_lost(board.full)

    return _time_runs(f"plain {n}-queens game solved", iter([job]))


def superqueen_times(n: int = 100, density: float = 0.3, boards: int = 20, seed: int = 0) -> Timing:
    """Super Queen shortest paths on random n x n boards."""
    def jobs() -> Iterator[Callable[[], object]]:
        for index in range(boards):
            board = SuperQueenBoard.random(n, density, seed + index)
            yield partial(shortest_path, board)

    return _time_runs(f"super queen {n}x{n} density {density}", jobs())


def amazons_figures() -> list[str]:
    """Perft counts from the start and how deep one second of search gets there."""
    game = AmazonsGame()
    lines = []
    for depth in (1, 2):
        start = time.perf_counter()
        count = perft(game, depth)
        lines.append(f"amazons perft {depth}: {count} ({time.perf_counter() - start:.2f} s)")
    result = AlphaBeta[AmazonsMove]().search(game, Limit(time=1.0))
    lines.append(f"amazons search from the start, 1 s: depth {result.depth}, {result.nodes} nodes, "
                 f"best {game.move_name(result.move)}")
    return lines


def run_all() -> list[str]:
    """Every figure, as printable lines."""
    lines = [n_queens_time(10).line()]
    for mode in ("hard", "easy"):
        lines.append(perfect_first_move_times(10, mode, boards=20).line())
        lines.append(perfect_game_move_times(10, mode, boards=5).line())
    lines.append(superqueen_times(100, 0.3).line())
    lines.append(superqueen_times(100, 0.5).line())
    lines.extend(amazons_figures())
    return lines
