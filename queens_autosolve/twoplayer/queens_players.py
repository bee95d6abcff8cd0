"""The Queens Game AIs: random, greedy (the published 2-ply rule), search (alpha-beta on the
mobility evaluation) and perfect (the exact solver of `twoplayer.queens_solver`).

>>> from queens_autosolve.twoplayer.queens_game import QueensGame
>>> game = QueensGame(QueensBoard.plain(4, "hard"))
>>> QUEENS_AIS.make("perfect", seed=0).choose(game) in game.legal_moves()
True
"""

from __future__ import annotations

import random
import time
from contextlib import suppress

from queens_autosolve.solver.puzzle import Cell, cells_of
from queens_autosolve.twoplayer.game_search import AlphaBeta, Limit
from queens_autosolve.twoplayer.players import RandomPlayer, Roster
from queens_autosolve.twoplayer.queens_board import QueensBoard
from queens_autosolve.twoplayer.queens_game import QueensGame
from queens_autosolve.twoplayer.queens_solver import KaylesSolver, SolveTimeout
from queens_autosolve.twoplayer.queens_split import prove_children


class GreedyPlayer:
    """The published 2-ply rule: win at once if possible, else leave the opponent fewest moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, game: QueensGame) -> Cell:
        conflicts, n, free = game.board.conflicts, game.board.n, game.free
        scored = [((free & ~conflicts[r * n + c]).bit_count(), (r, c)) for r, c in game.legal_moves()]
        fewest = min(count for count, _ in scored)
        return self.rng.choice([cell for count, cell in scored if count == fewest])


class QueensSearchPlayer:
    """Alpha-beta with the mobility evaluation, within a limit (for boards too big to solve)."""

    def __init__(self, limit: Limit | None = None) -> None:
        self.name = "search"
        self.limit = limit or Limit(time=0.5)
        self.engine: AlphaBeta[Cell] = AlphaBeta()
        self._board: QueensBoard | None = None

    def choose(self, game: QueensGame) -> Cell:
        if game.board != self._board:
            # Positions are keyed by their free mask alone, which means something else on
            # another board: start a fresh table.
            self.engine = AlphaBeta()
            self._board = game.board
        return self.engine.search(game, self.limit).move


# How long a lost player looks for its most stubborn move. It comes on top of proving the
# position lost (on a lost 10x10 easy first move it took 0.11-0.21 s of the 0.2 s allowed), and
# only picks among losing moves: 0.1 s halves that share. After a long proof it gets what is left
# of MOVE_SECONDS since the move began, at least STUBBORN_MIN_SECONDS: a player waits for the
# proof, not for a nicer losing move (on the worst 10x10 easy first moves the proof takes
# 0.7-0.9 s).
STUBBORN_SECONDS = 0.1
STUBBORN_MIN_SECONDS = 0.02
MOVE_SECONDS = 1.0


class PerfectPlayer:
    """Exact play (`KaylesSolver`; big positions proved on every core, `prove_children`). When
    every move loses, it leaves the opponent the fewest winning replies (checked within a small
    time budget), else the most free cells."""

    def __init__(self, seed: int | None = None, processes: int | None = None) -> None:
        self.name = "perfect"
        self.rng = random.Random(seed)
        self.processes = processes  # to prove big positions (`prove_children`; None: one per core)
        self._solvers: dict[QueensBoard, KaylesSolver] = {}

    def solver_for(self, board: QueensBoard) -> KaylesSolver:
        if board not in self._solvers:
            self._solvers.clear()  # one board at a time: the memo is per board
            self._solvers[board] = KaylesSolver(board)
        return self._solvers[board]

    def forget(self) -> None:
        """Drop what the memo holds (it grows with every position proved)."""
        self._solvers.clear()

    def choose(self, game: QueensGame) -> Cell:
        start = time.perf_counter()
        solver = self.solver_for(game.board)
        conflicts, n, free = game.board.conflicts, game.board.n, game.free
        prove_children(solver, free, processes=self.processes)  # a big position: shared out
        if not solver.is_lost(free):
            # The search that proved the win has left the winning reply in the memo: known
            # lost children first, then (rarely needed) a search of the rest.
            moves = game.legal_moves()
            self.rng.shuffle(moves)
            known = [m for m in moves if solver.known_lost(free & ~conflicts[m[0] * n + m[1]])]
            for move in known + moves:
                if solver.is_lost(free & ~conflicts[move[0] * n + move[1]]):
                    return move
        left = MOVE_SECONDS - (time.perf_counter() - start)
        return self._stubborn(game, solver, min(STUBBORN_SECONDS, max(STUBBORN_MIN_SECONDS, left)))

    def _stubborn(self, game: QueensGame, solver: KaylesSolver, budget: float = STUBBORN_SECONDS) -> Cell:
        """In a lost position: the move after which the fewest replies win for the opponent,
        among those counted within `budget` (or a budget the caller set, if it ends sooner; every
        move loses, so running out means playing the best counted so far, not giving up)."""
        conflicts, n, free = game.board.conflicts, game.board.n, game.free
        moves = sorted(game.legal_moves(),
                       key=lambda cell: -(free & ~conflicts[cell[0] * n + cell[1]]).bit_count())
        best, fewest = moves[0], None
        with suppress(SolveTimeout), solver.budget(budget):
            for move in moves:
                after = free & ~conflicts[move[0] * n + move[1]]
                replies = sum(solver.is_lost(after & ~conflicts[r * n + c]) for r, c in cells_of(after, n))
                if fewest is None or replies < fewest:
                    best, fewest = move, replies
        return best


# The Queens Game AIs by name.
QUEENS_AIS: Roster[QueensGame, Cell] = Roster("Queens Game", {
    "random": lambda seed, limit: RandomPlayer(seed),
    "greedy": lambda seed, limit: GreedyPlayer(seed),
    "search": lambda seed, limit: QueensSearchPlayer(limit),
    "perfect": lambda seed, limit: PerfectPlayer(seed),
})
