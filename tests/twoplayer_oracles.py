"""Test oracles for the two-player games: slow, plain versions of what the product computes
cleverly, written independently of it (not product code: nothing in twoplayer/ imports them).

- `brute_force_wins`: the Queens Game by plain minimax, no memo, no bound, no decomposition.
- `open_moves`: one position's count of what is left to prove, move by move (what
  `KaylesSolver._open_counts` gives all children of a position at once).
- `grundy_table`: Wythoff's game (Corner the Queen) by the mex definition.
- `naive_distance`, `is_path_legal`: Super Queen by square-by-square BFS, and a path checker.
"""

from __future__ import annotations

import itertools

from queens_autosolve.solver.puzzle import cells_of
from queens_autosolve.twoplayer.queens_game import QueensGame
from queens_autosolve.twoplayer.queens_solver import _ALREADY_WON, KaylesSolver
from queens_autosolve.twoplayer.superqueen import SuperQueenBoard


def brute_force_wins(game: QueensGame) -> bool:
    """Plain minimax without memo or decomposition : does the mover win?"""
    for move in game.legal_moves():
        game.push(move)
        lost = not brute_force_wins(game)
        game.pop()
        if lost:
            return True
    return False


def open_moves(solver: KaylesSolver, free: int) -> int:
    """The moves of `free` whose result the solver's memo does not hold yet; _ALREADY_WON when a
    move ends the game or the memo shows it winning (the mover has won `free`)."""
    n, conflicts = solver.board.n, solver.board.conflicts
    count = 0
    for row, col in cells_of(free, n):
        child = free & ~conflicts[row * n + col]
        known = solver.memo.get(child)
        if child == 0 or known is False:
            return _ALREADY_WON
        count += known is None
    return count


def grundy_table(n: int) -> list[list[int]]:
    """Grundy values g[p][q] of Wythoff's game with piles p, q < n, in O(n^2) big-int steps.

    Each row, column and diagonal keeps a bitset of the values seen so far along it, so the
    mex of a field is the lowest clear bit of three OR-ed bitsets.
    """
    rows = [0] * n
    cols = [0] * n
    diagonals = [0] * (2 * n)
    table = [[0] * n for _ in range(n)]
    for p in range(n):
        for q in range(n):
            seen = rows[p] | cols[q] | diagonals[q - p + n]
            value = (~seen & (seen + 1)).bit_length() - 1
            table[p][q] = value
            bit = 1 << value
            rows[p] |= bit
            cols[q] |= bit
            diagonals[q - p + n] |= bit
    return table


_NAIVE_STEPS = [(dr, dc, True) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc] + [
    (dr, dc, False) for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))]


def naive_distance(board: SuperQueenBoard) -> int:
    """Plain square-by-square BFS walking each ray; -1 when unreachable."""
    n = board.n
    dist = {board.start: 0}
    queue = [board.start]
    for square in queue:
        r, c = divmod(square, n)
        for dr, dc, slide in _NAIVE_STEPS:
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n:
                target = rr * n + cc
                if target in board.blocked or target == board.start:
                    break
                if target not in dist:
                    dist[target] = dist[square] + 1
                    queue.append(target)
                if target == board.king or not slide:
                    break
                rr, cc = rr + dr, cc + dc
    return dist.get(board.king, -1)


def is_path_legal(board: SuperQueenBoard, path: tuple[int, ...]) -> bool:
    """Every step of `path` is one super-queen move over empty squares."""
    n = board.n
    for a, b in itertools.pairwise(path):
        (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
        dr, dc = rb - ra, cb - ca
        if b in board.blocked or b == board.start:
            return False
        if {abs(dr), abs(dc)} == {1, 2}:
            continue
        if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)) or (dr, dc) == (0, 0):
            return False
        steps = max(abs(dr), abs(dc))
        sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
        for k in range(1, steps):
            between = (ra + k * sr) * n + ca + k * sc
            if between in board.blocked or between in (board.king, board.start):
                return False
    return path[0] == board.start and path[-1] == board.king
