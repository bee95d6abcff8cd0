"""The fixed part of a Queens Game: board size, diagonal rule and region map, and what a queen on
each cell rules out (the solver's own row, column, region and neighbour masks).

>>> board = QueensBoard.from_rows(["AAB", "ACB", "CCB"], "easy")
>>> bin(board.conflicts[0])    # r1c1: its row, column, region A and r2c2
'0b1011111'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Cell, Puzzle, Rule, default_label
from queens_autosolve.solver.regions import random_regions
from queens_autosolve.twoplayer.game import PositionError

Mode = Literal["hard", "easy"]
MODES: tuple[Mode, ...] = ("hard", "easy")


@dataclass(frozen=True)
class QueensBoard:
    """The fixed part of a game: size, mode and region map (None: regions are ignored)."""

    n: int
    mode: Mode = "hard"
    regions: tuple[tuple[int, ...], ...] | None = None

    @classmethod
    def plain(cls, n: int, mode: Mode = "hard") -> QueensBoard:
        """An n x n board without regions (the N-Queens game)."""
        return cls(n, mode, None)

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle, mode: Mode = "hard") -> QueensBoard:
        return cls(puzzle.n, mode, puzzle.regions)

    @classmethod
    def from_rows(cls, rows: Sequence[str], mode: Mode = "hard") -> QueensBoard:
        """A board from rows of region labels; PositionError unless it is a square of N regions.

        >>> QueensBoard.from_rows(["AAB", "ACB", "CCB"], "easy").regions
        ((0, 0, 1), (0, 2, 1), (2, 2, 1))
        """
        try:
            puzzle = Puzzle.from_rows(list(rows))
            puzzle.validate()
        except QueensError as exc:
            raise PositionError(f"bad region map: {exc}") from None
        return cls.from_puzzle(puzzle, mode)

    @classmethod
    def random(cls, n: int, seed: int | None, mode: Mode = "hard") -> QueensBoard:
        """A random map of n connected regions (the generator's way of growing them).

        Maps grow from a placement of n non-touching queens, which 2x2 and 3x3 boards lack.
        """
        try:
            grid = random_regions(n, random.Random(seed))
        except ValueError:
            raise PositionError(f"no random {n}x{n} region map: it needs N = 1 or N >= 4") from None
        return cls(n, mode, tuple(tuple(row) for row in grid))

    @cached_property
    def _puzzle(self) -> Puzzle:
        """The solver's view of this board, whose masks say what a queen rules out."""
        rule: Rule = "diagonal" if self.mode == "hard" else "touch"
        if self.regions is None:  # one region holding every cell: it rules out nothing more
            return Puzzle(regions=((0,) * self.n,) * self.n, rule=rule, labels=("A",))
        return Puzzle.from_region_grid(self.regions, rule=rule)

    @cached_property
    def conflicts(self) -> tuple[int, ...]:
        """conflicts[i]: the cells a queen on cell i rules out, cell i included: its row, column,
        region (`solver.puzzle`'s masks) and the neighbours the mode forbids."""
        n, puzzle = self.n, self._puzzle
        geo, region_masks = puzzle.geometry, puzzle.region_masks
        out = []
        for i in range(n * n):
            r, c = divmod(i, n)
            mask = geo.rows[r] | geo.cols[c] | geo.neighbours[i]
            if self.regions is not None:
                mask |= region_masks[puzzle.regions[r][c]]
            out.append(mask)
        return tuple(out)

    @cached_property
    def units(self) -> tuple[int, ...]:
        """units[i]: cell i's row, column and region as bits of one int (bit r, bit n + c, bit
        2n + region; no region bit on a plain board). Every queen takes units of its own, so the
        queens still to come are at most the fewest units of one kind the free cells touch."""
        n, puzzle = self.n, self._puzzle
        out = []
        for i in range(n * n):
            r, c = divmod(i, n)
            bits = 1 << r | 1 << (n + c)
            if self.regions is not None:
                bits |= 1 << (2 * n + puzzle.regions[r][c])
            out.append(bits)
        return tuple(out)

    @property
    def unit_kinds(self) -> tuple[int, ...]:
        """Masks over `units` bits: the rows, the columns and (unless plain) the regions."""
        n = self.n
        kind = (1 << n) - 1
        return (kind, kind << n) if self.regions is None else (kind, kind << n, kind << 2 * n)

    @property
    def full(self) -> int:
        return (1 << (self.n * self.n)) - 1

    def split_region(self) -> str | None:
        """The label of a region that is not one connected piece (cells joined side by side),
        found in reading order; None when every region is one piece (a plain board has none).

        >>> QueensBoard.from_rows(["AB", "BA"]).split_region()
        'B'
        """
        if self.regions is None:
            return None
        n, grid = self.n, self.regions
        seen: set[Cell] = set()
        for r0 in range(n):
            for c0 in range(n):
                region = grid[r0][c0]
                if (r0, c0) in seen:
                    continue
                if any(grid[r][c] == region for r, c in seen):
                    return default_label(region)  # a second piece of a region met before
                stack = [(r0, c0)]
                seen.add((r0, c0))
                while stack:
                    r, c = stack.pop()
                    for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                        if 0 <= rr < n and 0 <= cc < n and (rr, cc) not in seen and grid[rr][cc] == region:
                            seen.add((rr, cc))
                            stack.append((rr, cc))
        return None

    def label_rows(self) -> list[str]:
        """The region map as rows of labels (A, B, ...), '.' everywhere on a plain board."""
        if self.regions is None:
            return ["." * self.n] * self.n
        return ["".join(default_label(v) for v in row) for row in self.regions]
