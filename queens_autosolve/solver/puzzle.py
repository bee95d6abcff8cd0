"""The puzzle model shared by every stage: `Puzzle`, `Solution`, and the rules that check them.

Vocabulary used across `solver/`: a *cell* is (row, col), 0-based from the top left; a cell's
*index* is row * n + col and its *bit* is 1 << index; a *unit* is a row, a column or a region;
each unit holds exactly k *queens* (stars). A *mask* is a Python int with one bit per cell.
Rules: ``touch`` (LinkedIn: no two queens in the 8 neighbouring cells) or ``diagonal`` (classic
N-Queens: no two queens on any common diagonal).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Literal

from queens_autosolve.solver.errors import PuzzleFormatError

Cell = tuple[int, int]
Rule = Literal["touch", "diagonal"]
RULES: tuple[Rule, ...] = ("touch", "diagonal")
# The largest board accepted. Measured: the solver's masks grow as n**4 bits (a 100x100 board
# takes 55 MB and solves its easy cases in under a second; 150x150 takes 220 MB; 400x400 runs
# out of memory), and no published Queens or Star Battle board comes near 100.
MAX_SIZE = 100

# Labels for regions we name ourselves (generator, vision): one character each.
DEFAULT_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def default_label(region: int) -> str:
    """The label of region number `region` when nobody named it (A, B, ..., a, ..., 0, ...)."""
    if region < len(DEFAULT_LABELS):
        return DEFAULT_LABELS[region]
    return chr(0x100 + region)  # beyond 62 regions: Latin Extended letters, still one character


@dataclass(frozen=True)
class Geometry:
    """Bitmasks that depend only on the board size and rule, shared by all puzzles of that shape."""

    n: int
    rule: Rule
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    # neighbours[i]: cells that may not hold a queen when cell i does, ignoring rows, columns and
    # regions: the 8 neighbours (touch), or the whole diagonals (diagonal rule, which also forbids
    # touching since a touching cell shares a row, column or diagonal).
    neighbours: tuple[int, ...]

    @property
    def full(self) -> int:
        return (1 << (self.n * self.n)) - 1


@lru_cache(maxsize=64)
def geometry(n: int, rule: Rule = "touch") -> Geometry:
    """The masks for an n x n board under `rule` (cached: every puzzle of a size shares them)."""
    rows = tuple(((1 << n) - 1) << (r * n) for r in range(n))
    cols = tuple(sum(1 << (r * n + c) for r in range(n)) for c in range(n))
    neighbours = []
    for r in range(n):
        for c in range(n):
            mask = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < n and 0 <= cc < n:
                        mask |= 1 << (rr * n + cc)
            if rule == "diagonal":
                for d in range(1, n):
                    for rr, cc in ((r + d, c + d), (r + d, c - d), (r - d, c + d), (r - d, c - d)):
                        if 0 <= rr < n and 0 <= cc < n:
                            mask |= 1 << (rr * n + cc)
            neighbours.append(mask)
    return Geometry(n, rule, rows, cols, tuple(neighbours))


def cells_of(mask: int, n: int) -> list[Cell]:
    """The cells whose bits are set in `mask`, in reading order."""
    out = []
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        out.append(divmod(i, n))
        mask ^= low
    return out


def mask_of(cells: Iterable[Cell], n: int) -> int:
    """The mask with a bit set for each of `cells`."""
    mask = 0
    for r, c in cells:
        mask |= 1 << (r * n + c)
    return mask


def cell_name(cell: Cell) -> str:
    """A cell as people write it in explanations: r1c1 is the top-left cell (1-based)."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


@dataclass(frozen=True)
class Puzzle:
    """An n x n board split into regions; k queens go in every row, column and region.

    `regions[r][c]` is the region number (0..n-1) of cell (r, c); `labels[i]` is how region i is
    written in text (its original character or token). `given` queens are placed by the puzzle.
    `colour_names[i]`, when the puzzle came off a screen or a page, is the colour region i is
    shown in: sentences then name regions as a person sees them ("the purple region").

    >>> p = Puzzle.from_rows(["AAB", "ACB", "CCB"])
    >>> p.n, p.region_count, p.labels
    (3, 3, ('A', 'B', 'C'))
    >>> p.region_name(1), p.with_colour_names(("purple", "green", "pink")).region_name(1)
    ('region B', 'the green region')
    """

    regions: tuple[tuple[int, ...], ...]
    k: int = 1
    rule: Rule = "touch"
    given: tuple[Cell, ...] = ()
    name: str = ""
    labels: tuple[str, ...] = ()
    meta: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    colour_names: tuple[str, ...] = field(default=(), compare=False, hash=False)

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[Sequence[str]] | Sequence[str],
        *,
        k: int = 1,
        rule: Rule = "touch",
        given: Iterable[Cell] = (),
        name: str = "",
        meta: dict[str, str] | None = None,
    ) -> Puzzle:
        """Build a puzzle from rows of labels (strings of characters, or lists of tokens).

        Regions are numbered in order of first appearance, reading row by row. Only the shape is
        checked here (`validate` checks the rules).
        """
        numbers: dict[str, int] = {}
        grid = []
        for row in rows:
            grid.append(tuple(numbers.setdefault(label, len(numbers)) for label in row))
        return cls(
            regions=tuple(grid),
            k=k,
            rule=rule,
            given=tuple(sorted(set(given))),
            name=name,
            labels=tuple(numbers),
            meta=dict(meta or {}),
        )

    @classmethod
    def from_region_grid(
        cls, grid: Sequence[Sequence[int]], **kwargs: object
    ) -> Puzzle:
        """Build a puzzle from region numbers (any ints), labelled A, B, C, ... in reading order."""
        numbers: dict[int, int] = {}
        rows = [[default_label(numbers.setdefault(v, len(numbers))) for v in row] for row in grid]
        return cls.from_rows(rows, **kwargs)  # type: ignore[arg-type]

    @property
    def n(self) -> int:
        return len(self.regions)

    @property
    def region_count(self) -> int:
        return len(self.labels)

    @cached_property
    def geometry(self) -> Geometry:
        return geometry(self.n, self.rule)

    @cached_property
    def region_masks(self) -> tuple[int, ...]:
        """One mask per region number."""
        masks = [0] * self.region_count
        for r, row in enumerate(self.regions):
            for c, region in enumerate(row):
                masks[region] |= 1 << (r * self.n + c)
        return tuple(masks)

    @cached_property
    def units(self) -> tuple[int, ...]:
        """Every unit's mask: the n rows, then the n columns, then the regions."""
        g = self.geometry
        return g.rows + g.cols + self.region_masks

    def unit_name(self, unit: int) -> str:
        """How a person names unit number `unit` of `units` (rows and columns 1-based)."""
        if unit < self.n:
            return f"row {unit + 1}"
        if unit < 2 * self.n:
            return f"column {unit - self.n + 1}"
        return self.region_name(unit - 2 * self.n)

    def region_name(self, region: int) -> str:
        """Region number `region` as a person names it: by its colour on screen, else its letter."""
        if self.colour_names:
            return f"the {self.colour_names[region]} region"
        return f"region {self.labels[region]}"

    def regions_name(self, regions: Sequence[int]) -> str:
        """Several regions: "the purple and green regions", or by letter "regions A, C".

        >>> p = Puzzle.from_rows(["AAB", "ACB", "CCB"])
        >>> p.regions_name([0, 2]), p.with_colour_names(("red", "blue", "pink")).regions_name([0, 1, 2])
        ('regions A, C', 'the red, blue and pink regions')
        """
        if len(regions) == 1:
            return self.region_name(regions[0])
        if self.colour_names:
            names = [self.colour_names[g] for g in regions]
            return f"the {', '.join(names[:-1])} and {names[-1]} regions"
        return f"regions {', '.join(self.labels[g] for g in regions)}"

    def with_colour_names(self, names: Sequence[str]) -> Puzzle:
        """This puzzle with region i shown in colour `names[i]` (one name per region)."""
        if len(names) != self.region_count:
            raise ValueError(f"{len(names)} colour names for {self.region_count} regions")
        return replace(self, colour_names=tuple(names))

    def region_at(self, cell: Cell) -> int:
        return self.regions[cell[0]][cell[1]]

    def label_rows(self) -> list[list[str]]:
        """The board as rows of region labels."""
        return [[self.labels[v] for v in row] for row in self.regions]

    def validate(self) -> None:
        """Raise PuzzleFormatError naming the first way this puzzle cannot be a valid board."""
        n, k = self.n, self.k
        if n == 0:
            raise PuzzleFormatError("the board is empty")
        if n > MAX_SIZE:
            raise PuzzleFormatError(f"the board is {n}x{n}; the solver takes up to {MAX_SIZE}x{MAX_SIZE}")
        for r, row in enumerate(self.regions):
            if len(row) != n:
                raise PuzzleFormatError(
                    f"row {r + 1} has {len(row)} cells but there are {n} rows: the board must be square"
                )
        if not 1 <= k <= n:
            raise PuzzleFormatError(f"k={k} stars per row is impossible on a {n}x{n} board")
        if self.rule not in RULES:
            raise PuzzleFormatError(f"unknown rule {self.rule!r}; expected one of {', '.join(RULES)}")
        if self.region_count != n:
            raise PuzzleFormatError(
                f"{n}x{n} board has {self.region_count} regions; it needs exactly {n} "
                f"(k={k} queens in each row, column and region)"
            )
        for region, mask in enumerate(self.region_masks):
            if mask.bit_count() < k:
                raise PuzzleFormatError(
                    f"{self.region_name(region)} has {mask.bit_count()} cell(s), too few for {k} queen(s)"
                )
        for cell in self.given:
            if not (0 <= cell[0] < n and 0 <= cell[1] < n):
                raise PuzzleFormatError(f"given queen {cell[0]},{cell[1]} is outside the {n}x{n} board")
        problems = violations(self, self.given, complete=False)
        if problems:
            raise PuzzleFormatError(f"the given queens break the rules: {problems[0]}")


@dataclass(frozen=True)
class Solution:
    """Where the queens go: cells sorted in reading order."""

    queens: tuple[Cell, ...]

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> Solution:
        return cls(tuple(sorted(cells)))

    def grid(self, n: int) -> list[str]:
        """The solution as rows of ``Q`` (queen) and ``.`` (empty)."""
        rows = [["."] * n for _ in range(n)]
        for r, c in self.queens:
            rows[r][c] = "Q"
        return ["".join(row) for row in rows]

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.queens)

    def __len__(self) -> int:
        return len(self.queens)


def violations(puzzle: Puzzle, queens: Iterable[Cell], *, complete: bool = True) -> list[str]:
    """Every rule the queens break, as sentences; empty when they are a valid (partial) answer.

    With ``complete`` each unit must hold exactly k queens; without it, at most k (a partial
    placement, such as the given queens or a board mid-game).
    """
    n, k = puzzle.n, puzzle.k
    cells = sorted(set(queens))
    problems = []
    for cell in cells:
        if not (0 <= cell[0] < n and 0 <= cell[1] < n):
            problems.append(f"queen {cell_name(cell)} is off the board")
    cells = [c for c in cells if 0 <= c[0] < n and 0 <= c[1] < n]
    units = puzzle.units
    placed = mask_of(cells, n)
    for u, unit in enumerate(units):
        count = (unit & placed).bit_count()
        if count > k or (complete and count != k):
            problems.append(f"{puzzle.unit_name(u)} has {count} queen(s), needs {k}")
    neighbours = puzzle.geometry.neighbours
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            if neighbours[a[0] * n + a[1]] >> (b[0] * n + b[1]) & 1:
                how = "touch" if max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 else "share a diagonal"
                problems.append(f"queens {cell_name(a)} and {cell_name(b)} {how}")
    return problems


def is_solution(puzzle: Puzzle, queens: Iterable[Cell]) -> bool:
    """True when `queens` is a complete answer that obeys every rule and keeps the given queens."""
    cells = set(queens)
    return set(puzzle.given) <= cells and not violations(puzzle, cells)
