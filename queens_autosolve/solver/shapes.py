"""How a puzzle's regions are shaped: their sizes and how compact they are, per puzzle and over a
set, so generated puzzles can be held against LinkedIn's.

Vocabulary: a region's *size* is its number of cells; its *compactness* is 16 A / P^2 for area A
and perimeter P counted in cell edges (1 for a square, 0.75 for a 1x3 bar or an L of three, 0.36
for a 1x9 bar). LinkedIn's levels (benchmarks/region_shapes.py measures them) have no region of
one cell in most puzzles, a smallest region of three cells, a largest of about 2.8 N cells, and
regions that wind (compactness 0.58 on average).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from queens_autosolve.solver.puzzle import Cell, Puzzle


@dataclass(frozen=True)
class RegionShapes:
    """One puzzle's regions: sizes (smallest first) and the compactness of each."""

    n: int
    sizes: tuple[int, ...]
    compactness: tuple[float, ...]

    @property
    def smallest(self) -> int:
        return self.sizes[0]

    @property
    def largest_per_n(self) -> float:
        """The largest region's size in units of N (the mean region has N cells)."""
        return self.sizes[-1] / self.n


def region_shapes(puzzle: Puzzle) -> RegionShapes:
    """The shapes of `puzzle`'s regions."""
    return shapes_of_grid(puzzle.regions)


def shapes_of_grid(regions: Sequence[Sequence[int]]) -> RegionShapes:
    """The shapes of the regions of a grid of region numbers."""
    cells: dict[int, set[Cell]] = {}
    for r, row in enumerate(regions):
        for c, region in enumerate(row):
            cells.setdefault(region, set()).add((r, c))
    members = sorted(cells.values(), key=len)
    return RegionShapes(len(regions), tuple(len(m) for m in members), tuple(compactness(m) for m in members))


def compactness(cells: set[Cell]) -> float:
    """16 A / P^2: 1 for a square of cells, less the more a region winds or stretches."""
    perimeter = sum(
        (r + dr, c + dc) not in cells for r, c in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
    )
    return 16 * len(cells) / perimeter**2


@dataclass(frozen=True)
class ShapeSummary:
    """Region shapes over a set of puzzles."""

    puzzles: int
    smallest_median: float  # cells in the smallest region, median over puzzles
    single_share: float  # share of puzzles with a region of one cell
    largest_per_n: float  # the largest region in units of N, median over puzzles
    compactness: float  # mean over all regions

    def row(self, name: str) -> str:
        return (f"| {name} | {self.puzzles} | {self.smallest_median:g} | {self.single_share:.0%} | "
                f"{self.largest_per_n:.2f} | {self.compactness:.2f} |")


TABLE_HEAD = ("| set | puzzles | smallest region (median) | with a 1-cell region | "
              "largest region / N (median) | compactness (mean) |\n|---|---|---|---|---|---|")


def summarise(shapes: Iterable[RegionShapes]) -> ShapeSummary:
    """The summary of many puzzles' region shapes (ValueError when there are none)."""
    shapes = list(shapes)
    if not shapes:
        raise ValueError("no puzzles to summarise")
    return ShapeSummary(
        puzzles=len(shapes),
        smallest_median=float(statistics.median(s.smallest for s in shapes)),
        single_share=sum(s.smallest == 1 for s in shapes) / len(shapes),
        largest_per_n=float(statistics.median(s.largest_per_n for s in shapes)),
        compactness=statistics.fmean(c for s in shapes for c in s.compactness),
    )


# LinkedIn's 608 official levels, measured by benchmarks/region_shapes.py.
LINKEDIN = ShapeSummary(puzzles=608, smallest_median=3, single_share=0.23, largest_per_n=2.76,
                        compactness=0.58)
