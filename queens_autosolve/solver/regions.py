"""Random region maps: place a random queen solution, then grow n connected regions around it
(used by the generator and the two-player Queens game).

Every function draws its randomness from the `rng` it is given, never from the global `random`,
so a seed fixes the result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from queens_autosolve.solver.puzzle import Cell, Geometry, Rule, geometry

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


def grow_star_regions(
    n: int, queens: Sequence[Cell], k: int, rng: random.Random, tries: int = 50
) -> list[list[int]]:
    """n connected regions holding exactly k of `queens` each (len(queens) == n * k).

    One small piece is grown from every queen, then neighbouring pieces are glued into n
    connected groups of k. Gluing always starts from the piece with the fewest free
    neighbours, so pieces in corners are not stranded; a failed gluing is retried with new pieces.
    """
    if k == 1:
        return grow_regions(n, queens, rng)
    for _ in range(tries):
        pieces = grow_regions(n, queens, rng)
        groups = _glue_pieces(_piece_neighbours(pieces, n, len(queens)), k, rng)
        if groups is not None:
            return [[groups[piece] for piece in row] for row in pieces]
    raise ValueError(f"could not glue {len(queens)} pieces into {n} connected groups of {k}")


def random_solution_cells(
    n: int, k: int, rng: random.Random, tries: int = 200, *, rule: Rule = "touch"
) -> list[Cell]:
    """k cells per row and column, no two attacking each other under `rule`, chosen at random.

    Raises ValueError when `tries` randomised searches all run out of budget (the size is
    infeasible, or nearly so).
    """
    g = geometry(n, rule)
    for _ in range(tries):
        cells = _random_placement(g, k, rng, budget=40 * n * k)
        if cells is not None:
            return cells
    raise ValueError(f"could not place {k} non-attacking queens per row and column on {n}x{n}")


def random_regions(n: int, rng: random.Random) -> list[list[int]]:
    """A random map of n connected regions grown from a random non-touching queen placement,
    so the map has at least that one-queen solution."""
    return grow_regions(n, random_solution_cells(n, 1, rng), rng)


def reachable(start: Cell, cells: set[Cell]) -> set[Cell]:
    """The cells of `cells` reachable from `start` by steps up, down, left and right."""
    seen = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in _STEPS:
            cell = (r + dr, c + dc)
            if cell in cells and cell not in seen:
                seen.add(cell)
                stack.append(cell)
    return seen


def is_connected(cells: set[Cell]) -> bool:
    """True when `cells` form one 4-connected group (an empty set is not a region)."""
    return bool(cells) and len(reachable(next(iter(cells)), cells)) == len(cells)


def neighbours_of(n: int, cell: Cell) -> list[Cell]:
    """The cells of an n x n board next to `cell` along an edge."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in _STEPS if 0 <= r + dr < n and 0 <= c + dc < n]


def join_cells(members: Sequence[Cell], area: set[Cell]) -> set[Cell]:
    """`members` plus shortest paths inside `area` that connect them all (a greedy Steiner tree)."""
    tree = {members[0]}
    for target in members[1:]:
        if target in tree:
            continue
        came_from: dict[Cell, Cell | None] = {target: None}
        queue = [target]
        end: Cell | None = None
        for cell in queue:
            if cell in tree:
                end = cell
                break
            for dr, dc in _STEPS:
                step = (cell[0] + dr, cell[1] + dc)
                if step in area and step not in came_from:
                    came_from[step] = cell
                    queue.append(step)
        at = came_from[end] if end is not None else None
        while at is not None:
            tree.add(at)
            at = came_from[at]
    return tree


def _open_neighbours(grid: list[list[int]], n: int, r: int, c: int) -> list[Cell]:
    return [(r + dr, c + dc) for dr, dc in _STEPS
            if 0 <= r + dr < n and 0 <= c + dc < n and grid[r + dr][c + dc] == -1]


def _piece_neighbours(pieces: list[list[int]], n: int, count: int) -> list[set[int]]:
    """For each piece, the pieces sharing an edge with it."""
    near: list[set[int]] = [set() for _ in range(count)]
    for r in range(n):
        for c in range(n):
            a = pieces[r][c]
            for b in (pieces[r][c + 1] if c + 1 < n else a, pieces[r + 1][c] if r + 1 < n else a):
                if a != b:
                    near[a].add(b)
                    near[b].add(a)
    return near


def _glue_pieces(near: list[set[int]], k: int, rng: random.Random) -> list[int] | None:
    """Group number of each piece, groups being k connected pieces; None when a piece is stranded."""
    group = [-1] * len(near)

    def free_degree(piece: int) -> tuple[int, float]:
        # The random second key breaks ties without favouring low piece numbers.
        return sum(group[p] == -1 for p in near[piece]), rng.random()

    for number in range(len(near) // k):
        free = [p for p in range(len(near)) if group[p] == -1]
        members = [min(free, key=free_degree)]
        group[members[0]] = number
        while len(members) < k:
            frontier = sorted({p for m in members for p in near[m] if group[p] == -1})
            if not frontier:
                return None
            piece = min(frontier, key=free_degree)
            group[piece] = number
            members.append(piece)
    return group


def _random_placement(g: Geometry, k: int, rng: random.Random, budget: int) -> list[Cell] | None:
    """Row by row randomised backtracking over cell bitmasks with forward checking: after each
    row, every later row and every unfinished column must keep enough candidate cells.

    None when more than `budget` row choices were tried (the caller restarts with fresh luck).
    """
    n = g.n
    col_count = [0] * n
    chosen: list[list[int]] = []
    left = [budget]

    def enough_room(r: int, cand: int) -> bool:
        return all((cand & g.rows[rr]).bit_count() >= k for rr in range(r + 1, n)) and all(
            (cand & g.cols[c]).bit_count() >= k - col_count[c] for c in range(n)
        )

    def place_row(r: int, cand: int) -> bool:
        if r == n:
            return True
        cells = [i for i in range(r * n, r * n + n) if cand >> i & 1]
        rng.shuffle(cells)
        for combo in combinations(cells, k):
            left[0] -= 1
            if left[0] < 0:
                return False
            if any(g.neighbours[a] >> b & 1 for a, b in combinations(combo, 2)):
                continue
            after = cand & ~g.rows[r]
            for i in combo:
                after &= ~g.neighbours[i]
                col_count[i % n] += 1
                if col_count[i % n] == k:
                    after &= ~g.cols[i % n]
            if enough_room(r, after):
                chosen.append(sorted(i % n for i in combo))
                if place_row(r + 1, after):
                    return True
                chosen.pop()
            for i in combo:
                col_count[i % n] -= 1
        return False

    if not place_row(0, g.full):
        return None
    return [(r, c) for r, cols in enumerate(chosen) for c in cols]
