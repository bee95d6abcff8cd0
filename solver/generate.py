"""Make new puzzles with exactly one solution: place a random answer, grow regions around it,
then move border cells between regions until every other answer is broken.

Vocabulary as in `solver.puzzle`. The *intended* solution is the random answer the regions are
grown around; a *rival* is any other solution of the current map. Breaking a rival: move one of
its queens that the intended solution does not use into a neighbouring region, so that region
holds k+1 of the rival's queens while every region keeps exactly k intended queens.

Rivals are found by `find_solutions`, a small enumerator that lives here on purpose: the map a
seed produces depends on which rival is broken first, so generation must not depend on the
search order of the fast solver (which may change as it is tuned). Same seed, same puzzle.

>>> p = generate_puzzle(6, rng=7)
>>> p.name, p.meta["seed"], len(find_solutions(p, limit=2))
('gen-n6-k1-s7', '7', 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from solver.errors import QueensError
from solver.puzzle import Cell, Puzzle, Rule, Solution, cells_of, mask_of
from solver.regions import grow_star_regions, is_connected, random_solution_cells

MIN_SIZE = 4
MAX_SIZE = 60  # beyond this, generation takes minutes and labels leave the printable ASCII set
_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def check_size(n: int, k: int = 1, rule: Rule = "touch") -> None:
    """Raise QueensError when no n x n puzzle with k queens per unit can exist under `rule`.

    Under ``touch`` each 2x2 block holds at most one queen, so an even board needs n >= 4k;
    exhaustive search shows odd boards need it too (k <= 4). Under ``diagonal`` k must be 1:
    n*k queens with no two on a diagonal cannot fit on the 2n-1 diagonals of one direction.
    """
    if k < 1:
        raise QueensError(f"--stars {k}: every unit needs at least one queen; use --stars 1 or more")
    if n < MIN_SIZE:
        raise QueensError(f"--size {n}: boards smaller than {MIN_SIZE}x{MIN_SIZE} have no solution; use 4 or more")
    if n > MAX_SIZE:
        raise QueensError(f"--size {n}: boards above {MAX_SIZE}x{MAX_SIZE} are not supported; use a smaller size")
    if rule == "diagonal" and k != 1:
        raise QueensError(f"--stars {k} with --rule diagonal is impossible; the diagonal rule needs --stars 1")
    if rule == "touch" and n < 4 * k:
        raise QueensError(
            f"--size {n} --stars {k}: {k} non-touching queens per row and column need a board of "
            f"at least {4 * k}x{4 * k}; use --size {4 * k} or more, or fewer stars"
        )


def puzzle_name(n: int, k: int, seed: int) -> str:
    """The name a generated puzzle carries, e.g. ``gen-n10-k2-s42``: enough to make it again."""
    return f"gen-n{n}-k{k}-s{seed}"


def generate_puzzle(
    n: int, k: int = 1, *, rng: random.Random | int, rule: Rule = "touch"
) -> Puzzle:
    """A random n x n puzzle with k queens per unit and exactly one solution.

    `rng` is a seed (the puzzle is then named ``gen-n{n}-k{k}-s{seed}`` with ``seed`` in its
    meta) or a Random to draw from (named ``gen-n{n}-k{k}``). Only that randomness is used.
    Raises QueensError when the size cannot hold a puzzle (see `check_size`).
    """
    check_size(n, k, rule)
    seed = rng if isinstance(rng, int) else None
    rand = random.Random(seed) if seed is not None else rng
    assert isinstance(rand, random.Random)
    while True:
        try:
            queens = random_solution_cells(n, k, rand, rule=rule)
        except ValueError:
            raise QueensError(
                f"--size {n} --stars {k}: could not place a random answer; try a larger size"
            ) from None
        board = RegionMap(grow_star_regions(n, queens, k, rand), k, rule)
        if make_unique(board, queens, rand):
            break
    name = puzzle_name(n, k, seed) if seed is not None else f"gen-n{n}-k{k}"
    meta = {"seed": str(seed)} if seed is not None else {}
    return board.puzzle(name=name, meta=meta)


class RegionMap:
    """A mutable region grid the generator edits cell by cell (never leaves this module's callers
    as such: `puzzle()` freezes it)."""

    def __init__(self, grid: list[list[int]], k: int, rule: Rule) -> None:
        self.grid = grid
        self.n = len(grid)
        self.k = k
        self.rule = rule

    def puzzle(self, name: str = "", meta: dict[str, str] | None = None) -> Puzzle:
        return Puzzle.from_region_grid(self.grid, k=self.k, rule=self.rule, name=name, meta=meta)

    def cells_of_region(self, region: int) -> set[Cell]:
        return {(r, c) for r, row in enumerate(self.grid) for c, v in enumerate(row) if v == region}

    def bordering_regions(self, cell: Cell) -> list[int]:
        """Regions other than the cell's own that touch it along an edge, in ascending order."""
        r, c = cell
        n, own = self.n, self.grid[r][c]
        return sorted({self.grid[r + dr][c + dc] for dr, dc in _STEPS
                       if 0 <= r + dr < n and 0 <= c + dc < n and self.grid[r + dr][c + dc] != own})

    def can_give_away(self, cell: Cell) -> bool:
        """True when the cell's region stays one connected piece without it."""
        rest = self.cells_of_region(self.grid[cell[0]][cell[1]])
        rest.discard(cell)
        return is_connected(rest)

    def move(self, cell: Cell, region: int) -> None:
        self.grid[cell[0]][cell[1]] = region


def make_unique(
    board: RegionMap, intended: Sequence[Cell], rng: random.Random, max_moves: int | None = None
) -> bool:
    """Edit `board` until `intended` is its only solution; False if `max_moves` edits were not enough.

    Each round finds a rival and breaks it (`break_rival`); when none of the rival's queens can
    move, a random harmless border cell moves instead, so the next round sees a different map.
    """
    limit = max_moves if max_moves is not None else 30 * board.n * board.k
    keep = set(intended)
    for _ in range(limit):
        rival = find_rival(board.puzzle(), keep)
        if rival is None:
            return True
        if not break_rival(board, rival, keep, rng):
            nudge_border(board, keep, rng)
    return False


def find_rival(puzzle: Puzzle, intended: set[Cell]) -> Solution | None:
    """A solution of `puzzle` other than `intended`, or None when `intended` is the only one."""
    for solution in find_solutions(puzzle, limit=2):
        if set(solution.queens) != intended:
            return solution
    return None


def break_rival(board: RegionMap, rival: Solution, keep: set[Cell], rng: random.Random) -> bool:
    """Move one of the rival's own queens (one not in `keep`) into a neighbouring region.

    The rival then has k-1 queens in the old region and k+1 in the new one, so it is no longer a
    solution, while the intended queens never move. False when every such queen is inside its
    region or holds it together.
    """
    movable = [cell for cell in rival.queens if cell not in keep]
    rng.shuffle(movable)
    for cell in movable:
        targets = board.bordering_regions(cell)
        if targets and board.can_give_away(cell):
            board.move(cell, rng.choice(targets))
            return True
    return False


def nudge_border(board: RegionMap, keep: set[Cell], rng: random.Random) -> None:
    """Move one random border cell (never an intended queen) to a neighbouring region."""
    cells = [(r, c) for r in range(board.n) for c in range(board.n) if (r, c) not in keep]
    rng.shuffle(cells)
    for cell in cells:
        targets = board.bordering_regions(cell)
        if targets and board.can_give_away(cell):
            board.move(cell, rng.choice(targets))
            return


def find_solutions(puzzle: Puzzle, limit: int = 2) -> list[Solution]:
    """Up to `limit` solutions of `puzzle`, always in the same order for the same puzzle.

    A deliberately small search on cell bitmasks: repeatedly fill every unit that has exactly
    as many candidate cells as queens still missing; then take the unit with the fewest
    candidates and branch on its first cell (queen there, or not).
    """
    return _Enumerator(puzzle, limit).run()


class _Enumerator:
    """State for one `find_solutions` call: the masks it needs and the solutions found so far."""

    def __init__(self, puzzle: Puzzle, limit: int) -> None:
        self.n, self.k, self.limit = puzzle.n, puzzle.k, limit
        self.units = puzzle.units
        self.neighbours = puzzle.geometry.neighbours
        n = self.n
        regions = puzzle.regions
        # The three units (row, column, region) each cell belongs to, by index into `units`.
        self.units_of = [(i // n, n + i % n, 2 * n + regions[i // n][i % n]) for i in range(n * n)]
        self.given = mask_of(puzzle.given, n)
        self.full = puzzle.geometry.full
        self.found: list[Solution] = []

    def run(self) -> list[Solution]:
        cand, placed = self.place_all(self.given, self.full, 0)
        self.search(cand, placed)
        return self.found

    def place(self, i: int, cand: int, placed: int) -> tuple[int, int]:
        """Put a queen on cell index i: it and its attacked cells leave the candidates, and so do
        the other cells of any unit that is now full."""
        bit = 1 << i
        placed |= bit
        cand &= ~(bit | self.neighbours[i])
        for u in self.units_of[i]:
            unit = self.units[u]
            if (placed & unit).bit_count() == self.k:
                cand &= ~unit
        return cand, placed

    def place_all(self, cells: int, cand: int, placed: int) -> tuple[int, int | None]:
        """Place a queen on every cell of `cells`; placed is None if one of them is not a candidate."""
        while cells:
            low = cells & -cells
            if not cand & low:
                return cand, None
            cand, placed = self.place(low.bit_length() - 1, cand, placed)
            cells ^= low
        return cand, placed

    def search(self, cand: int, placed: int | None) -> None:
        if len(self.found) >= self.limit:
            return
        branch = 0  # the candidates of the unit to branch on; 0 once every unit is full
        while placed is not None:
            branch, best_count, forced = 0, 1 << 30, 0
            for unit in self.units:
                need = self.k - (placed & unit).bit_count()
                if need == 0:
                    continue
                free = cand & unit
                count = free.bit_count()
                if count < need:
                    return
                if count == need:
                    forced = free
                    break
                if count < best_count:
                    branch, best_count = free, count
            if not forced:
                break
            cand, placed = self.place_all(forced, cand, placed)
        if placed is None:
            return
        if not branch:
            self.found.append(Solution.of(cells_of(placed, self.n)))
            return
        low = branch & -branch
        self.search(*self.place(low.bit_length() - 1, cand, placed))
        self.search(cand & ~low, placed)


def generate_many(
    n: int,
    k: int,
    seeds: Sequence[int],
    *,
    rule: Rule = "touch",
    progress: Callable[[Puzzle], None] | None = None,
) -> list[Puzzle]:
    """One puzzle per seed (so each can be remade alone from its name); `progress` is called
    after each one."""
    puzzles = []
    for seed in seeds:
        puzzle = generate_puzzle(n, k, rng=seed, rule=rule)
        puzzles.append(puzzle)
        if progress is not None:
            progress(puzzle)
    return puzzles

