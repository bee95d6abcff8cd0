"""Game-tree search written once for every game: alpha-beta and exact solving.

`AlphaBeta` is negamax with alpha-beta pruning, iterative deepening within a `Limit`, a
transposition table keyed by `state.key()`, and move ordering (the table's best move first,
then the game's own `ordered_moves()` when it has one, then the history heuristic).
`solve` decides a position exactly (does the player to move win?) with a memo table.

Scores are from the point of view of the player to move. A proven win is ``WIN - plies``, so
the search prefers the quickest win and the slowest loss.

>>> from queens_autosolve.twoplayer.corner import CornerGame
>>> game = CornerGame(n=4, x=3, y=4)
>>> AlphaBeta().search(game, Limit(depth=8)).score > 0
True
>>> solve(game)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic

from queens_autosolve.twoplayer.game import GameState, M, Searchable

WIN = 1_000_000
# Scores beyond this are proven wins or losses, not heuristic estimates.
PROVEN = WIN - 10_000

_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True)
class Limit:
    """How long a search may run: any of wall-clock seconds, depth in plies, nodes visited.

    >>> Limit(time=0.5)
    Limit(time=0.5, depth=None, nodes=None)
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class GameSearchResult(Generic[M]):
    """What a search found: the best move, its score, the last depth completed (the move may
    come from a deeper iteration cut short), nodes visited."""

    move: M
    score: float
    depth: int
    nodes: int
    seconds: float

    @property
    def proven(self) -> bool:
        """The score is an exact win or loss, not an estimate."""
        return abs(self.score) >= PROVEN


class SearchTimeout(Exception):
    """Raised inside the search when the limit runs out (never escapes `AlphaBeta.search`)."""


@dataclass(frozen=True)
class _Entry(Generic[M]):
    depth: int
    score: float
    flag: int
    move: M | None


class AlphaBeta(Generic[M]):
    """Negamax alpha-beta with iterative deepening and a transposition table.

    `evaluate` scores a non-final position for the player to move (default: the state's own
    `evaluate`). The table persists between searches of the same object, so an engine that
    keeps its `AlphaBeta` reuses work from move to move.
    """

    def __init__(
        self,
        evaluate: Callable[[Searchable[M]], float] | None = None,
        *,
        table_size: int = 200_000,
    ) -> None:
        self._evaluate = evaluate
        self.table: dict[Hashable, _Entry[M]] = {}
        self.table_size = table_size
        self.history: dict[M, int] = {}
        self.nodes = 0
        self._deadline = float("inf")
        self._node_limit: int | None = None
        self._root_moves: list[M] = []
        self._partial: tuple[float, M] | None = None

    def search(self, state: Searchable[M], limit: Limit) -> GameSearchResult[M]:
        """The best move found within `limit` (at least depth 1 is always completed)."""
        start = time.perf_counter()
        moves = list(state.legal_moves())
        if not moves:
            raise ValueError("no legal moves: the game is over")
        if len(self.table) > self.table_size:
            self.table.clear()
        self.nodes = 0
        max_depth = limit.depth if limit.depth is not None else 200
        best = GameSearchResult(moves[0], 0.0, 0, 0, 0.0)
        for depth in range(1, max_depth + 1):
            # Depth 1 must finish so there is always an informed move to play.
            self._deadline = start + limit.time if (limit.time is not None and depth > 1) else float("inf")
            self._node_limit = limit.nodes if depth > 1 else None
            self._partial = None
            try:
                score, move = self._root(state, depth)
            except SearchTimeout:
                if self._partial is not None:
                    # The moves searched to this depth so far include last iteration's best
                    # (searched first), so the best of them is at least as well founded.
                    score, move = self._partial
                    best = GameSearchResult(move, score, depth - 1, self.nodes, time.perf_counter() - start)
                break
            best = GameSearchResult(move, score, depth, self.nodes, time.perf_counter() - start)
            if abs(score) >= PROVEN:
                break
            if limit.time is not None and time.perf_counter() - start > 0.6 * limit.time:
                break  # the next depth would not get far enough to change the move
        return GameSearchResult(best.move, best.score, best.depth, self.nodes, time.perf_counter() - start)

    def _root(self, state: Searchable[M], depth: int) -> tuple[float, M]:
        alpha, beta = -WIN - 1.0, WIN + 1.0
        best_move: M | None = None
        if depth == 1:
            self._root_moves = self._ordered(state, state.legal_moves(), state.key())
        scores = {}
        for move in self._root_moves:
            state.push(move)
            try:
                score = -self._negamax(state, depth - 1, -beta, -alpha, 1)
            finally:
                state.pop()
            scores[move] = score
            if best_move is None or score > alpha:
                alpha, best_move = score, move
                self._partial = (score, move)
        # The next iteration tries the moves in this iteration's order of merit (bounds for
        # all but the best, but a good guess).
        self._root_moves.sort(key=lambda m: -scores[m])
        self.table[state.key()] = _Entry(depth, alpha, _EXACT, best_move)
        assert best_move is not None, "a position that is not over has a move"
        return alpha, best_move

    def _negamax(self, state: Searchable[M], depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.nodes & 255 == 0:
            self._check_limits()
        if state.is_over():
            return _terminal_score(state, ply)
        if depth <= 0:
            return self._evaluate(state) if self._evaluate else state.evaluate()
        moves = state.legal_moves()
        key = state.key()
        entry = self.table.get(key)
        tt_move: M | None = None
        if entry is not None:
            tt_move = entry.move
            if entry.depth >= depth or abs(entry.score) >= PROVEN:
                score = _from_table(entry.score, ply)
                if entry.flag == _EXACT:
                    return score
                if entry.flag == _LOWER and score >= beta:
                    return score
                if entry.flag == _UPPER and score <= alpha:
                    return score
        original_alpha = alpha
        best_score = -WIN - 1.0
        best_move: M | None = None
        for move in self._ordered(state, moves, key, tt_move):
            state.push(move)
            try:
                score = -self._negamax(state, depth - 1, -beta, -alpha, ply + 1)
            finally:
                state.pop()
            if score > best_score:
                best_score, best_move = score, move
            if score > alpha:
                alpha = score
            if alpha >= beta:
                self.history[move] = self.history.get(move, 0) + depth * depth
                break
        if best_score <= original_alpha:
            flag = _UPPER
        elif best_score >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self.table[key] = _Entry(depth, _to_table(best_score, ply), flag, best_move)
        return best_score

    def _ordered(
        self, state: GameState[M], moves: Sequence[M], key: Hashable, tt_move: M | None = None
    ) -> list[M]:
        if tt_move is None:
            entry = self.table.get(key)
            tt_move = entry.move if entry is not None else None
        ordering = getattr(state, "ordered_moves", None)
        ordered = list(ordering(moves)) if ordering else list(moves)
        history = self.history
        if history:
            # sort is stable: the game's own order breaks ties between equal history scores
            ordered.sort(key=lambda m: -history.get(m, 0))
        if tt_move is not None and tt_move in moves:
            ordered.remove(tt_move)
            ordered.insert(0, tt_move)
        return ordered

    def _check_limits(self) -> None:
        if time.perf_counter() > self._deadline:
            raise SearchTimeout
        if self._node_limit is not None and self.nodes > self._node_limit:
            raise SearchTimeout


def _terminal_score(state: GameState[M], ply: int) -> float:
    winner = state.winner()
    if winner is None:
        winner = 1 - state.turn
    return WIN - ply if winner == state.turn else -(WIN - ply)


# Proven scores count plies from the root; the table stores them relative to the node so an
# entry stays right when the same position is reached at another ply.
def _to_table(score: float, ply: int) -> float:
    if score >= PROVEN:
        return score + ply
    if score <= -PROVEN:
        return score - ply
    return score


def _from_table(score: float, ply: int) -> float:
    if score >= PROVEN:
        return score - ply
    if score <= -PROVEN:
        return score + ply
    return score


class BudgetExceeded(Exception):
    """`solve` visited more nodes than its budget allows."""


def solve(
    state: GameState[M],
    memo: dict[Hashable, bool] | None = None,
    *,
    budget: int | None = None,
    deadline: float | None = None,
) -> bool:
    """Exactly: does the player to move win with perfect play? (Normal play, no draws.)

    Memoised by `state.key()`; pass the same `memo` between calls to share work. Raises
    BudgetExceeded after `budget` positions are expanded, or once `time.perf_counter()`
    passes `deadline`.

    >>> from queens_autosolve.twoplayer.corner import CornerGame
    >>> solve(CornerGame(n=3, x=2, y=3))   # (2, 3) is a safe field: the mover loses
    False
    """
    table: dict[Hashable, bool] = {} if memo is None else memo
    counter = [0]

    def wins() -> bool:
        key = state.key()
        known = table.get(key)
        if known is not None:
            return known
        counter[0] += 1
        if budget is not None and counter[0] > budget:
            raise BudgetExceeded
        if deadline is not None and counter[0] & 63 == 0 and time.perf_counter() > deadline:
            raise BudgetExceeded
        ordering = getattr(state, "ordered_moves", None)
        moves = state.legal_moves()
        result = False
        for move in ordering(moves) if ordering else moves:
            state.push(move)
            try:
                opponent_wins = wins()
            finally:
                state.pop()
            if not opponent_wins:
                result = True
                break
        table[key] = result
        return result

    return wins()


def winning_moves(state: GameState[M], memo: dict[Hashable, bool] | None = None) -> list[M]:
    """Every move after which the opponent (to move) loses with perfect play."""
    table: dict[Hashable, bool] = {} if memo is None else memo
    found = []
    for move in list(state.legal_moves()):
        state.push(move)
        try:
            if not solve(state, table):
                found.append(move)
        finally:
            state.pop()
    return found
