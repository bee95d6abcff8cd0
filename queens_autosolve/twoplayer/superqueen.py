"""Super Queen: the fewest moves for a queen that also jumps like a knight to capture the king.

The board is N x N (1 <= N <= 100), read from text: ``S`` the super queen's start, ``K`` the
king, ``X`` an occupied square, ``.`` empty (spaces between cells are allowed). Queen moves
slide over empty squares only and stop at the first blocked one; knight moves jump. The path
may not capture or pass through any piece but the king.

The search is a breadth-first search over whole layers at once: the board is a Python int
with one bit per square and two padding columns per row (never empty), so a slide is a
shift-and-mask loop and a knight jump one shift; a square joins the first layer that reaches
it and is never expanded again.

>>> board = SuperQueenBoard.parse("S . X\\n. X .\\nX . K")
>>> result = shortest_path(board)
>>> result.moves, [board.name(s) for s in result.path]
(2, ['a3', 'b3', 'c1'])
>>> print(result.render(board))
S Q X
. X .
X . K
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from queens_autosolve.twoplayer.game import PositionError

MAX_SIZE = 100
PAD = 2  # knight jumps move two files: two padding columns keep them from wrapping


@dataclass(frozen=True)
class SuperQueenBoard:
    """A parsed board: size, start and king squares (row-major r * n + c, row 0 on top), blocks."""

    n: int
    start: int
    king: int
    blocked: frozenset[int]

    @classmethod
    def parse(cls, text: str, source: str = "<board>") -> SuperQueenBoard:
        """Read a board; PositionError names the line and the problem."""
        rows = [line.replace(" ", "").replace("\t", "") for line in text.splitlines()]
        rows = [row for row in rows if row]
        n = len(rows)
        if not 1 <= n <= MAX_SIZE:
            raise PositionError(f"{source}: board has {n} rows; N must be 1..{MAX_SIZE}")
        start = king = -1
        blocked = set()
        for r, row in enumerate(rows):
            if len(row) != n:
                raise PositionError(
                    f"{source}: row {r + 1} has {len(row)} cells, expected {n} (square board)")
            for c, ch in enumerate(row):
                square = r * n + c
                if ch == "S":
                    if start >= 0:
                        raise PositionError(f"{source}: more than one S (start)")
                    start = square
                elif ch == "K":
                    if king >= 0:
                        raise PositionError(f"{source}: more than one K (king)")
                    king = square
                elif ch in "Xx":
                    blocked.add(square)
                elif ch != ".":
                    raise PositionError(f"{source}: row {r + 1}, column {c + 1}: {ch!r} is not S, K, X or .")
        if start < 0 or king < 0:
            raise PositionError(f"{source}: the board needs one S (start) and one K (king)")
        return cls(n, start, king, frozenset(blocked))

    @classmethod
    def random(cls, n: int, density: float, seed: int | None = None) -> SuperQueenBoard:
        """Each square blocked with probability `density`, then S and K on two distinct random
        squares (which are cleared)."""
        if not 2 <= n <= MAX_SIZE:
            raise PositionError(f"N={n} is out of range 2..{MAX_SIZE} (S and K need two squares)")
        if not 0.0 <= density <= 1.0:
            raise PositionError(f"density {density} is not between 0 and 1")
        rng = random.Random(seed)
        blocked = {square for square in range(n * n) if rng.random() < density}
        start, king = rng.sample(range(n * n), 2)
        return cls(n, start, king, frozenset(blocked - {start, king}))

    def name(self, square: int) -> str:
        """Chess-like name: files a.. from the left, ranks 1.. from the bottom (for N <= 26:
        bigger boards use (row,col), 1-based from the top)."""
        r, c = divmod(square, self.n)
        if self.n <= 26:
            return f"{chr(ord('a') + c)}{self.n - r}"
        return f"({r + 1},{c + 1})"

    def rows(self) -> list[list[str]]:
        grid = [["."] * self.n for _ in range(self.n)]
        for square in self.blocked:
            grid[square // self.n][square % self.n] = "X"
        grid[self.start // self.n][self.start % self.n] = "S"
        grid[self.king // self.n][self.king % self.n] = "K"
        return grid

    def __str__(self) -> str:
        return "\n".join(" ".join(row) for row in self.rows())


@dataclass(frozen=True)
class PathResult:
    """The shortest capture: number of moves and the squares visited, start and king included
    (empty path and moves = -1 when the king cannot be reached)."""

    moves: int
    path: tuple[int, ...]

    @property
    def found(self) -> bool:
        return self.moves >= 0

    def render(self, board: SuperQueenBoard) -> str:
        """The board with the path's intermediate squares marked Q."""
        grid = board.rows()
        for square in self.path[1:-1]:
            grid[square // board.n][square % board.n] = "Q"
        return "\n".join(" ".join(row) for row in grid)


class _Geometry:
    """Shifts and masks for one board in the padded layout (row stride n + PAD)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.stride = stride = n + PAD
        self.full = sum(((1 << n) - 1) << (r * stride) for r in range(n))
        self.slides = (1, stride, stride + 1, stride - 1)
        self.jumps = (2 * stride + 1, 2 * stride - 1, stride + 2, stride - 2)

    def bit(self, square: int) -> int:
        r, c = divmod(square, self.n)
        return 1 << (r * self.stride + c)

    def square(self, bit_index: int) -> int:
        r, c = divmod(bit_index, self.stride)
        return r * self.n + c

    def step(self, sources: int, empty: int, target: int) -> int:
        """Squares one super-queen move from `sources`: slides over `empty`, ending there or on
        `target`; knight jumps landing on `empty` or `target`."""
        landing = empty | target
        out = 0
        for shift in self.slides:
            ray = sources
            while ray:
                ray <<= shift
                out |= ray & target
                ray &= empty
                out |= ray
            ray = sources
            while ray:
                ray >>= shift
                out |= ray & target
                ray &= empty
                out |= ray
        for shift in self.jumps:
            out |= ((sources << shift) | (sources >> shift)) & landing
        return out


def shortest_path(board: SuperQueenBoard) -> PathResult:
    """Breadth-first search by layers; the path is traced back through the stored layers."""
    geo = _Geometry(board.n)
    blocked = 0
    for square in board.blocked:
        blocked |= geo.bit(square)
    start, king = geo.bit(board.start), geo.bit(board.king)
    empty = geo.full & ~blocked & ~start & ~king
    layers = [start]
    visited = start
    while not visited & king:
        frontier = geo.step(layers[-1], empty, king) & ~visited
        if not frontier:
            return PathResult(-1, ())
        visited |= frontier
        layers.append(frontier)
    # Walk back: from the king, any square of the previous layer one move away.
    path = [king]
    for layer in reversed(layers[:-1]):
        back = geo.step(path[-1], empty, layer) & layer
        path.append(back & -back)
    squares = tuple(geo.square(b.bit_length() - 1) for b in reversed(path))
    return PathResult(len(layers) - 1, squares)
