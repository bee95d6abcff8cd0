"""Random region maps: grow n connected regions from seed cells (used by the generator and
the two-player Queens game)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from solver.puzzle import Cell

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def grow_regions(n: int, seeds: Sequence[Cell], rng: random.Random) -> list[list[int]]:
    """Grow one connected region from each seed until the n x n board is covered.

    Each step picks a random frontier cell (an unassigned cell next to a region) and gives it
    to a random neighbouring region, so regions come out connected and of uneven, organic shape.
    Region i contains seeds[i].
    """
    grid = [[-1] * n for _ in range(n)]
    frontier: list[Cell] = []
    for region, (r, c) in enumerate(seeds):
        if grid[r][c] != -1:
            raise ValueError(f"two seeds on cell {(r, c)}")
        grid[r][c] = region
    for r, c in seeds:
        frontier.extend(_open_neighbours(grid, n, r, c))
    while frontier:
        index = rng.randrange(len(frontier))
        frontier[index], frontier[-1] = frontier[-1], frontier[index]
        r, c = frontier.pop()
        if grid[r][c] != -1:
            continue
        owners = [grid[r + dr][c + dc] for dr, dc in _STEPS
                  if 0 <= r + dr < n and 0 <= c + dc < n and grid[r + dr][c + dc] != -1]
        grid[r][c] = rng.choice(owners)
        frontier.extend(_open_neighbours(grid, n, r, c))
    return grid


def random_solution_cells(n: int, k: int, rng: random.Random, tries: int = 1000) -> list[Cell]:
    """k cells per row and column, no two touching (diagonals included), chosen at random."""
    for _ in range(tries):
        cells = _random_placement(n, k, rng)
        if cells is not None:
            return cells
    raise ValueError(f"could not place {k} non-touching queens per row and column on {n}x{n}")


def random_regions(n: int, rng: random.Random) -> list[list[int]]:
    """A random map of n connected regions grown from a random non-touching queen placement,
    so the map has at least that one-queen solution."""
    return grow_regions(n, random_solution_cells(n, 1, rng), rng)


def _open_neighbours(grid: list[list[int]], n: int, r: int, c: int) -> list[Cell]:
    return [(r + dr, c + dc) for dr, dc in _STEPS
            if 0 <= r + dr < n and 0 <= c + dc < n and grid[r + dr][c + dc] == -1]


def _random_placement(n: int, k: int, rng: random.Random) -> list[Cell] | None:
    """Row by row random backtracking with a step budget; None when the budget runs out."""
    cols_used = [0] * n
    rows: list[list[int]] = []
    budget = [2000 * n]

    def fits(r: int, cols: list[int]) -> bool:
        if any(b - a < 2 for a, b in zip(cols, cols[1:])):
            return False
        if any(cols_used[c] >= k for c in cols):
            return False
        prev = rows[r - 1] if r else []
        return all(abs(a - b) > 1 for a in cols for b in prev)

    def place(r: int) -> bool:
        if r == n:
            return all(count == k for count in cols_used)
        budget[0] -= 1
        if budget[0] < 0:
            return False
        options = list(range(n))
        for _ in range(4 * n):
            cols = sorted(rng.sample(options, k))
            if not fits(r, cols):
                continue
            for c in cols:
                cols_used[c] += 1
            rows.append(cols)
            if place(r + 1):
                return True
            rows.pop()
            for c in cols:
                cols_used[c] -= 1
            if budget[0] < 0:
                return False
        return False

    if not place(0):
        return None
    return [(r, c) for r, cols in enumerate(rows) for c in cols]
