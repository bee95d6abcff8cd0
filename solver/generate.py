"""Make new puzzles with exactly one solution: place a random answer, grow the regions around it
cell by cell without letting a second answer in, then mend what is left.

Vocabulary as in `solver.puzzle`. The *intended* solution is the random answer the regions are
grown around; a *rival* is any other solution of the current map. Three steps:

1. `seed_regions`: each region starts as its k intended queens (joined by a path when k > 1).
2. `grow_without_rivals`: unassigned cells join neighbouring regions. Adding cell x to region R
   can only create solutions with a queen on x, so one search with a queen forced on x tells
   whether the move is safe; when no region is safe for x, the rival's queens are evicted.
3. `make_unique`: the few cells left over join random neighbours; rivals that come back are
   broken by moving a cell they use out of its region (`break_rivals`), never an intended queen.

Rivals and the safety checks come first from `Enumerator`, a small search that lives here: it
answers most checks in a few nodes, far cheaper than the fast solver's full propagation. The
checks it gives up on, and rivals it cannot find, go to the fast solver (`solver.search`) with a
node budget (`Budgets`). Same seed, same puzzle; but since the map a seed produces depends on
which rival a search meets first, retuning the fast solver's search order can change the
puzzles a seed makes (they stay unique: uniqueness is proven at the end).

>>> p = generate_puzzle(6, rng=7)
>>> p.name, p.meta["seed"], len(find_solutions(p, limit=2))
('gen-n6-k1-s7', '7', 1)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from solver.errors import QueensError
from solver.propagate import board_of, board_of_regions
from solver.puzzle import Cell, Geometry, Puzzle, Rule, Solution, cells_of, geometry, mask_of
from solver.regions import grow_star_regions, is_connected, random_solution_cells, reachable
from solver.search import count_solutions, search, search_board

MIN_SIZE = 4
MAX_SIZE = 60  # beyond this, generation takes minutes and labels leave the printable ASCII set
UNKNOWN = -1
ATTEMPTS = 20  # fresh answers tried before giving up (in practice the first nearly always works)
MOVES_TRIED = 12  # moves break_rivals checks for safety per round before taking a random one
EVICTIONS = 8  # evictions grow_without_rivals may make, per queen on the board
TABU_ROUNDS = 4  # rounds a moved cell must wait before make_unique may move it again
RIVALS = 24  # rivals listed per round of make_unique: enough to see which cells they share
_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True)
class Budgets:
    """Search nodes the generator's searches may take before they give up.

    Past `check` nodes the small search hands a "does this move open a rival?" check to the fast
    solver, which gets `fast_check` nodes (0: not asked); past both the answer is UNKNOWN and the
    move is treated as unsafe. That only costs a different move, not correctness (uniqueness is
    always proven at the end). `rivals`: nodes for listing rivals before the fast solver is asked
    for one. The defaults were tuned on 30x30 maps: the checks the small search gives up on are
    mostly safe moves that the fast solver's confinement rule settles in one or two nodes.
    """

    check: int = 40
    fast_check: int = 20
    rivals: int = 500


BUDGETS = Budgets()
# The generator before the fast solver helped with checks (the benchmark's baseline).
SMALL_SEARCH_ONLY = Budgets(check=200, fast_check=0, rivals=4000)


def check_size(n: int, k: int = 1, rule: Rule = "touch") -> None:
    """Raise QueensError when no n x n puzzle with k queens per unit can exist under `rule`.

    Under ``touch`` each 2x2 block holds at most one queen, so an even board needs n >= 4k;
    exhaustive search shows odd boards need it too (k <= 4). Under ``diagonal`` k must be 1:
    n*k queens with no two on a diagonal cannot fit on the 2n-1 diagonals of one direction.
    """
    if k < 1:
        raise QueensError(f"--stars {k}: every unit needs at least one queen; use --stars 1 or more")
    if n < MIN_SIZE:
        raise QueensError(
            f"--size {n}: boards smaller than {MIN_SIZE}x{MIN_SIZE} have no solution; use {MIN_SIZE} or more"
        )
    if n > MAX_SIZE:
        raise QueensError(
            f"--size {n}: boards above {MAX_SIZE}x{MAX_SIZE} are not supported; use a smaller size"
        )
    if rule == "diagonal" and k != 1:
        raise QueensError(
            f"--stars {k} with --rule diagonal is impossible; the diagonal rule needs --stars 1"
        )
    if rule == "touch" and n < 4 * k:
        raise QueensError(
            f"--size {n} --stars {k}: {k} non-touching queens per row and column need a board of "
            f"at least {4 * k}x{4 * k}; use --size {4 * k} or more, or fewer stars"
        )


def puzzle_name(n: int, k: int, seed: int) -> str:
    """The name a generated puzzle carries, e.g. ``gen-n10-k2-s42``: enough to make it again."""
    return f"gen-n{n}-k{k}-s{seed}"


def generate_puzzle(
    n: int, k: int = 1, *, rng: random.Random | int, rule: Rule = "touch", budgets: Budgets = BUDGETS
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
    for _ in range(ATTEMPTS):
        try:
            queens = random_solution_cells(n, k, rand, rule=rule)
        except ValueError:
            raise QueensError(
                f"--size {n} --stars {k}: could not place a random answer; try a larger size"
            ) from None
        board = RegionMap(seed_regions(n, queens, k, rand), k, rule, budgets)
        grow_without_rivals(board, queens, rand)
        if make_unique(board, queens, rand):
            break
    else:
        raise QueensError(
            f"--size {n} --stars {k}: no unique puzzle after {ATTEMPTS} attempts; try another seed"
        )
    name = puzzle_name(n, k, seed) if seed is not None else f"gen-n{n}-k{k}"
    meta = {"seed": str(seed)} if seed is not None else {}
    return board.puzzle(name=name, meta=meta)


class RegionMap:
    """The region grid the generator edits cell by cell; -1 marks a cell no region owns yet.

    Mutable on purpose and private to generation: `puzzle()` freezes it into a Puzzle.
    """

    def __init__(self, grid: list[list[int]], k: int, rule: Rule, budgets: Budgets = BUDGETS) -> None:
        self.grid = grid
        self.budgets = budgets
        self.n = len(grid)
        self.k = k
        self.rule = rule
        self.geometry = geometry(self.n, rule)
        # Kept in step with `grid`: one bitmask per region, and the region of each cell index.
        self.masks = [0] * self.n
        self.owners = [region for row in grid for region in row]
        for i, region in enumerate(self.owners):
            if region >= 0:
                self.masks[region] |= 1 << i

    def puzzle(self, name: str = "", meta: dict[str, str] | None = None) -> Puzzle:
        return Puzzle.from_region_grid(self.grid, k=self.k, rule=self.rule, name=name, meta=meta)

    def region_at(self, cell: Cell) -> int:
        return self.grid[cell[0]][cell[1]]

    def bordering_regions(self, cell: Cell) -> list[int]:
        """Regions other than the cell's own that touch it along an edge, in ascending order."""
        own = self.region_at(cell)
        return sorted({self.region_at(near) for near in _steps_from(self.n, cell)} - {own, -1})

    def can_give_away(self, cell: Cell) -> bool:
        """True when the cell's region stays one connected piece without it."""
        rest = set(cells_of(self.masks[self.region_at(cell)], self.n))
        rest.discard(cell)
        return is_connected(rest)

    def move(self, cell: Cell, region: int) -> None:
        """Give `cell` to `region` (-1: to no region)."""
        bit = 1 << (cell[0] * self.n + cell[1])
        old = self.region_at(cell)
        if old >= 0:
            self.masks[old] &= ~bit
        if region >= 0:
            self.masks[region] |= bit
        self.grid[cell[0]][cell[1]] = region
        self.owners[cell[0] * self.n + cell[1]] = region

    def rival_through(self, cell: Cell, region: int) -> int:
        """A solution (queen mask) with a queen on `cell` if `cell` belonged to `region`;
        0 when there is none, UNKNOWN when both searches ran out of budget (callers then play
        safe and treat the move as opening a rival). Unassigned cells hold no queen.

        Any solution that a move creates uses the moved cell, so 0 means the move adds none.
        The small search answers most checks at once. The few it cannot answer in its budget
        (mostly safe moves that only a confinement argument shows to be safe) go to the fast
        solver, which settles nearly all of them in one or two nodes.
        """
        index = cell[0] * self.n + cell[1]
        bit = 1 << index
        masks = [mask & ~bit for mask in self.masks]
        masks[region] |= bit
        owners = self.owners[:]
        owners[index] = region
        search = Enumerator(self.geometry, self.k, masks, owners)
        search.budget = self.budgets.check
        found = search.solutions(bit, limit=1)
        if not search.gave_up:
            return found[0] if found else 0
        if not self.budgets.fast_check:
            return UNKNOWN
        board = board_of_regions(self.n, self.k, self.rule, masks)
        rival, finished = search_board(board, sum(masks), bit, budget=self.budgets.fast_check)
        return rival if finished else UNKNOWN


def seed_regions(n: int, queens: Sequence[Cell], k: int, rng: random.Random) -> list[list[int]]:
    """The starting grid: each region holds its k intended queens (joined by a path when k > 1,
    so the region is connected from the start); every other cell is -1 (unassigned)."""
    grid = [[-1] * n for _ in range(n)]
    if k == 1:
        for region, (r, c) in enumerate(queens):
            grid[r][c] = region
        return grid
    # Which queens share a region comes from a full map of glued pieces; its areas also bound
    # the paths that join each region's queens.
    full = grow_star_regions(n, queens, k, rng)
    for region in range(n):
        area = {(r, c) for r in range(n) for c in range(n) if full[r][c] == region}
        members = [cell for cell in queens if full[cell[0]][cell[1]] == region]
        for cell in join_cells(members, area):
            grid[cell[0]][cell[1]] = region
    return grid


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


def grow_without_rivals(board: RegionMap, intended: Sequence[Cell], rng: random.Random) -> None:
    """Give every unassigned cell to a neighbouring region without opening a rival solution.

    Adding cell x to region R can only create solutions with a queen on x (any other solution
    fitted the map before), so one search with a queen forced on x decides. When every
    neighbouring region would open a rival, x joins one anyway and the rival's other queens
    are taken off the map one at a time (made unassigned again, which only removes solutions)
    until none is left; they come back later through the frontier. After a budget of such
    evictions, the cells still unassigned join random neighbours and `make_unique` finishes.
    """
    keep = set(intended)
    evictions = EVICTIONS * board.n * board.k
    frontier = [cell for cell in _all_cells(board.n) if _is_open(board, cell)]
    shapes = RegionShaper(board, rng) if board.k == 1 and board.n <= SHAPED_MAX else None
    while frontier:
        index = shapes.next_index(frontier) if shapes else rng.randrange(len(frontier))
        frontier[index], frontier[-1] = frontier[-1], frontier[index]
        cell = frontier.pop()
        if board.region_at(cell) != -1:
            continue
        options = board.bordering_regions(cell)
        if not options:  # its neighbours were evicted; it returns when one is assigned again
            continue
        rng.shuffle(options)
        if shapes:
            options.sort(key=shapes.priority)
        region = next((r for r in options if not board.rival_through(cell, r)), None)
        if region is None and evictions > 0:
            region = rng.choice(options)
            evicted = _evict_rivals(board, cell, region, keep, rng)
            evictions -= max(1, len(evicted))
            frontier.extend(evicted)
            if board.rival_through(cell, region):
                continue
        if region is None:
            continue
        board.move(cell, region)
        frontier.extend(near for near in _steps_from(board.n, cell) if board.region_at(near) == -1)
    _assign_leftovers(board, rng)


# Region shapes like LinkedIn's (solver/shapes.py; benchmarks/region_shapes.py compares them):
# each region grows towards a size target drawn from a Dirichlet(0.7) share of the board, the
# region furthest below its target first, and every region first to MIN_REGION cells. Random
# growth, which this replaces for k = 1, leaves a one-cell region in 86% of puzzles (LinkedIn:
# 23%) and its smallest region has one cell (median; LinkedIn: three). Measured on 7x7..11x11,
# seeds 1..20: one-cell regions in 33%, largest region 2.9 N (LinkedIn 2.8 N), compactness 0.61
# (0.58); 30 ms a puzzle instead of 13. Above SHAPED_MAX (LinkedIn's boards stop near 11) growth
# stays random: on 30x30 the shaped growth needs 2-3x the mending (12-27 s against 4-12 s).
SHAPED_MAX = 16
SHAPE_SPREAD = 0.7  # Dirichlet concentration: smaller spreads region sizes further apart
MIN_REGION = 3


class RegionShaper:
    """Which open cell grows next, and into which region: the region furthest below its target
    size (regions under MIN_REGION cells before any other)."""

    def __init__(self, board: RegionMap, rng: random.Random) -> None:
        self.board = board
        weights = [rng.gammavariate(SHAPE_SPREAD, 1.0) for _ in range(board.n)]
        total = sum(weights)
        self.targets = [max(float(MIN_REGION), w / total * board.n * board.n) for w in weights]
        self.rng = rng

    def priority(self, region: int) -> tuple[bool, float]:
        size = self.board.masks[region].bit_count()
        return size >= MIN_REGION, size / self.targets[region]

    def next_index(self, frontier: list[Cell]) -> int:
        """The index in `frontier` of an open cell next to the neediest region (ties at random)."""
        grid, n = self.board.grid, self.board.n
        needs = [self.priority(region) for region in range(n)]
        best, best_key, ties = 0, (True, float("inf")), 0
        for index, (r, c) in enumerate(frontier):
            keys = [needs[grid[r + dr][c + dc]] for dr, dc in _STEPS
                    if 0 <= r + dr < n and 0 <= c + dc < n and grid[r + dr][c + dc] >= 0]
            if not keys:
                continue
            key = min(keys)
            if key < best_key:
                best, best_key, ties = index, key, 1
            elif key == best_key:
                ties += 1
                if self.rng.randrange(ties) == 0:
                    best = index
        return best


def _evict_rivals(
    board: RegionMap, cell: Cell, region: int, keep: set[Cell], rng: random.Random
) -> list[Cell]:
    """Unassign rival queens until `cell` could join `region` without a rival, or until a rival
    has no queen that can leave its region; returns the evicted cells."""
    evicted: list[Cell] = []
    while (rival := board.rival_through(cell, region)) not in (0, UNKNOWN):
        movable = [q for q in cells_of(rival, board.n)
                   if q not in keep and q != cell and board.can_give_away(q)]
        if not movable:
            break
        victim = rng.choice(movable)
        board.move(victim, -1)
        evicted.append(victim)
    return evicted


def _is_open(board: RegionMap, cell: Cell) -> bool:
    """An unassigned cell with a region next to it."""
    return board.region_at(cell) == -1 and bool(board.bordering_regions(cell))


def _steps_from(n: int, cell: Cell) -> list[Cell]:
    return [(cell[0] + dr, cell[1] + dc) for dr, dc in _STEPS
            if 0 <= cell[0] + dr < n and 0 <= cell[1] + dc < n]


def _all_cells(n: int) -> list[Cell]:
    return [(r, c) for r in range(n) for c in range(n)]


def _assign_leftovers(board: RegionMap, rng: random.Random) -> None:
    """Give each cell still unassigned to a random neighbouring region (in passes, since a clump
    of leftovers is reached from its edge inwards)."""
    left = [cell for cell in _all_cells(board.n) if board.grid[cell[0]][cell[1]] == -1]
    while left:
        waiting = []
        for cell in left:
            owners = board.bordering_regions(cell)
            if owners:
                board.move(cell, rng.choice(owners))
            else:
                waiting.append(cell)
        left = waiting


def make_unique(
    board: RegionMap, intended: Sequence[Cell], rng: random.Random, max_moves: int | None = None
) -> bool:
    """Edit `board` until `intended` is its only solution; False if `max_moves` edits were not enough.

    Each round lists some rivals and moves a cell many of them put a queen on
    (`break_rivals`); when none of their queens can move, a random border cell moves instead,
    so the next round sees a different map. Cells moved in the last few rounds stay put, so
    two rivals cannot bounce one cell back and forth.
    """
    limit = max_moves if max_moves is not None else 10 * board.n * board.k
    keep = set(intended)
    recent: deque[list[Cell]] = deque(maxlen=TABU_ROUNDS)
    for _ in range(limit):
        if count_solutions(board.puzzle(), limit=2) == 1:
            return True
        rivals = find_rivals(board.puzzle(), keep, budget=board.budgets.rivals)
        frozen = keep.union(*recent)
        moved = break_rivals(board, rivals, frozen, rng) if rivals else None
        recent.append(moved or [])
        if moved is None:
            nudge_border(board, keep, rng)
    return False


def find_rivals(
    puzzle: Puzzle, intended: Iterable[Cell], limit: int = RIVALS, budget: int = BUDGETS.rivals
) -> list[Solution]:
    """Up to `limit` solutions of `puzzle` other than `intended`, in a fixed order.

    The small search stops after `budget` nodes; when it has found nothing by then (hard
    Star Battle maps, where it can take minutes), the rival comes from the fast solver instead
    (`_rival_by_fast_solver`).
    """
    n = puzzle.n
    search = _enumerator(puzzle)
    search.budget = budget
    found = search.solutions(mask_of(puzzle.given, n), limit, mask_of(intended, n))
    if not found and search.gave_up:
        rival = _rival_by_fast_solver(puzzle, set(intended))
        return [rival] if rival else []
    return [Solution.of(cells_of(queens, n)) for queens in found]


def _rival_by_fast_solver(puzzle: Puzzle, intended: set[Cell]) -> Solution | None:
    """A solution other than `intended` from `solver.search` (None when there is none)."""
    n = puzzle.n
    board = board_of(puzzle)
    rival, _ = search_board(board, (1 << n * n) - 1, mask_of(puzzle.given, n), skip=mask_of(intended, n))
    return Solution.of(cells_of(rival, n)) if rival else None


def break_rivals(
    board: RegionMap, rivals: Sequence[Solution], keep: set[Cell], rng: random.Random
) -> list[Cell] | None:
    """Move a queen cell of the rivals (never a cell of `keep`) out of its region; the moved
    cells, or None when no rival queen can leave its region.

    Every rival with a queen on a moved cell then has fewer than k queens in the old region, so
    the cells most rivals use go first. A cell deep inside its region leaves with a path to the
    nearest border, and pieces of the region that the move cuts off leave with it (`carve`).
    Of the first MOVES_TRIED moves, one that opens no new solution is taken; failing that, a
    random one of them.
    """
    uses: dict[Cell, int] = {}
    for rival in rivals:
        for cell in rival.queens:
            if cell not in keep:
                uses[cell] = uses.get(cell, 0) + 1
    cells = sorted(uses, key=lambda cell: (-uses[cell], rng.random()))
    ways = list(islice((way for cell in cells for way in carve(board, cell, keep, rng)), MOVES_TRIED))
    for moved, region in ways:
        old = board.region_at(moved[0])
        for here in moved:
            board.move(here, region)
        if not any(board.rival_through(here, region) for here in moved):
            return moved
        for here in moved:
            board.move(here, old)
    if not ways:
        return None
    moved, region = rng.choice(ways)
    for here in moved:
        board.move(here, region)
    return moved


def carve(board: RegionMap, cell: Cell, keep: set[Cell], rng: random.Random) -> list[tuple[list[Cell], int]]:
    """Ways to take `cell` out of its region A: (cells to move, region they join).

    The cells are a shortest path inside A from `cell` to a cell on A's border (avoiding
    intended queens), plus any part of A that would lose touch with A's intended queens.
    """
    n = board.n
    region = board.region_at(cell)
    area = set(cells_of(board.masks[region], n))
    anchors = sorted(q for q in keep if q in area)
    came_from: dict[Cell, Cell | None] = {cell: None}
    queue = [cell]
    ways: list[tuple[list[Cell], int]] = []
    for here in queue:
        targets = board.bordering_regions(here)
        if targets:
            path = []
            at: Cell | None = here
            while at is not None:
                path.append(at)
                at = came_from[at]
            moved = _with_orphans(path, area, anchors)
            if moved is not None:
                rng.shuffle(targets)
                ways.extend((moved, target) for target in targets)
            if len(ways) >= 4:
                break
        for near in _steps_from(n, here):
            if near in area and near not in came_from and near not in keep:
                came_from[near] = here
                queue.append(near)
    return ways


def _with_orphans(path: list[Cell], area: set[Cell], anchors: list[Cell]) -> list[Cell] | None:
    """`path` plus the parts of `area` cut off from the anchors by removing it; None when the
    anchors themselves end up apart."""
    rest = area - set(path)
    reached = reachable(anchors[0], rest)
    if any(anchor not in reached for anchor in anchors):
        return None
    return path + sorted(rest - reached)


def nudge_border(board: RegionMap, keep: set[Cell], rng: random.Random) -> None:
    """Move one random border cell (never an intended queen) to a neighbouring region."""
    cells = [(r, c) for r in range(board.n) for c in range(board.n) if (r, c) not in keep]
    rng.shuffle(cells)
    for cell in cells:
        targets = board.bordering_regions(cell)
        if targets and board.region_at(cell) >= 0 and board.can_give_away(cell):
            board.move(cell, rng.choice(targets))
            return


def find_solutions(puzzle: Puzzle, limit: int = 2) -> list[Solution]:
    """Up to `limit` solutions of `puzzle`, always in the same order for the same puzzle."""
    found = _enumerator(puzzle).solutions(mask_of(puzzle.given, puzzle.n), limit)
    return [Solution.of(cells_of(queens, puzzle.n)) for queens in found]


def _enumerator(puzzle: Puzzle) -> Enumerator:
    region_of = [region for row in puzzle.regions for region in row]
    return Enumerator(puzzle.geometry, puzzle.k, puzzle.region_masks, region_of)


class Enumerator:
    """Solutions of a (possibly partial) region map, as queen masks.

    `regions` holds one mask per region and `region_of[i]` the region of cell index i (-1 for a
    cell no region owns; such cells never hold a queen). Placing a queen clears the cells it
    attacks and the rest of every unit it fills; a unit with exactly as many candidates as
    queens missing gets them all; otherwise the unit with the fewest candidates is split on its
    first cell (queen there, or not).
    """

    def __init__(self, geo: Geometry, k: int, regions: Sequence[int], region_of: Sequence[int]) -> None:
        self.n, self.k = geo.n, k
        self.units = list(geo.rows + geo.cols) + list(regions)
        self.region_of = region_of
        self.neighbours = geo.neighbours
        self.lines = _line_kills(geo.n, geo.rule) if k == 1 else geo.neighbours
        self.limit, self.skip = 0, -1
        self.found: list[int] = []
        self.nodes = 0
        self.budget = 1 << 62  # nodes the search may visit before giving up

    def solutions(self, given: int = 0, limit: int = 2, skip: int = -1) -> list[int]:
        """Up to `limit` solutions, leaving out the solution `skip`; `given` queens come first.

        Check `gave_up` afterwards when a budget was set: the list may then be incomplete.
        """
        self.limit, self.skip, self.found = limit, skip, []
        allowed = sum(self.units[2 * self.n:])
        self.search(*self.place_all(given, allowed, 0))
        return self.found

    @property
    def gave_up(self) -> bool:
        return self.nodes >= self.budget and len(self.found) < self.limit

    def place(self, i: int, cand: int, placed: int) -> tuple[int, int]:
        """Put a queen on cell index i."""
        n, units = self.n, self.units
        bit = 1 << i
        region = 2 * n + self.region_of[i]
        if self.k == 1:  # one queen fills its row, column and region at once
            return cand & ~(self.lines[i] | units[region]), placed | bit
        placed |= bit
        cand &= ~(bit | self.neighbours[i])
        for u in (i // n, n + i % n, region):
            if (placed & units[u]).bit_count() == self.k:
                cand &= ~units[u]
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

    def bands_overfull(self, cand: int, placed: int) -> bool:
        """True when two neighbouring rows (or columns) need more queens than fit: in such a
        band, queens in the same or neighbouring columns would touch, so at most one queen per
        column and never in two neighbouring columns."""
        n, k, units = self.n, self.k, self.units
        for first, shift, step in ((0, n, 1), (n, 1, n)):  # rows, then columns
            # Fold the two lines of a band onto the first: rows move up by n bits, columns left by 1.
            edge = units[first]
            for a in range(first, first + n - 1):
                band = units[a] | units[a + 1]
                need = 2 * k - (placed & band).bit_count()
                if need <= 0:
                    continue
                offset = (a - first) * shift
                across = ((cand & band) >> offset | (cand & band) >> (offset + shift)) & edge
                queens = ((placed & band) >> offset | (placed & band) >> (offset + shift)) & edge
                across &= ~(queens | queens << step | queens >> step)
                if _spread(across, step) < need:
                    return True
        return False

    def point(self, cand: int) -> int:
        """For k=1: a region whose candidates all lie in one row (or column) takes that line's
        queen, so the line's other cells go; likewise a line whose candidates lie in one region."""
        n, units = self.n, self.units
        for u in range(2 * n, 3 * n):
            free = cand & units[u]
            if not free:
                continue
            i = free.bit_length() - 1
            for line in (units[i // n], units[n + i % n]):
                if not free & ~line and cand & line & ~free:
                    cand &= ~line | free
        for u in range(2 * n):
            free = cand & units[u]
            if free:
                region = units[2 * n + self.region_of[free.bit_length() - 1]]
                if not free & ~region and cand & region & ~free:
                    cand &= ~region | free
        return cand

    def search(self, cand: int, placed: int | None) -> None:
        if placed is None or len(self.found) >= self.limit or self.nodes >= self.budget:
            return
        self.nodes += 1
        k = self.k
        while True:
            branch, best_slack, forced = 0, 1 << 30, 0
            for u, unit in enumerate(self.units):
                need = k - (placed & unit).bit_count()
                if need == 0:
                    continue
                free = cand & unit
                count = free.bit_count()
                if count < need:
                    return
                if count == need:
                    forced |= free
                    continue
                if need > 1 and u < 2 * self.n and _spread(free, 1 if u < self.n else self.n) < need:
                    return
                if count - need < best_slack:
                    branch, best_slack = free, count - need
            if k > 1 and not forced and self.bands_overfull(cand, placed):
                return
            if not forced:
                if k == 1:
                    narrowed = self.point(cand)
                    if narrowed != cand:
                        cand = narrowed
                        continue
                break
            cand, placed = self.place_all(forced, cand, placed)
            if placed is None:
                return
        if not branch:
            if placed != self.skip:
                self.found.append(placed)
            return
        low = branch & -branch
        self.search(*self.place(low.bit_length() - 1, cand, placed))
        self.search(cand & ~low, placed)


def _spread(free: int, step: int) -> int:
    """How many of the cells `free` of one line can hold queens at once: neighbours in a line
    (cells `step` bits apart) touch, so take cells greedily from one end, skipping the next."""
    count = 0
    while free:
        low = free & -free
        free &= ~(low | low << step)
        count += 1
    return count


@lru_cache(maxsize=16)
def _line_kills(n: int, rule: Rule) -> tuple[int, ...]:
    """For k=1: the cells a queen on cell i rules out apart from its region (row, column, attacks)."""
    geo = geometry(n, rule)
    return tuple(geo.rows[i // n] | geo.cols[i % n] | geo.neighbours[i] | 1 << i for i in range(n * n))


def generate_many(
    n: int,
    k: int,
    seeds: Sequence[int],
    *,
    rule: Rule = "touch",
    progress: Callable[[Puzzle], None] | None = None,
    budgets: Budgets = BUDGETS,
) -> list[Puzzle]:
    """One puzzle per seed (so each can be remade alone from its name); `progress` is called
    after each one."""
    puzzles = []
    for seed in seeds:
        puzzle = generate_puzzle(n, k, rng=seed, rule=rule, budgets=budgets)
        puzzles.append(puzzle)
        if progress is not None:
            progress(puzzle)
    return puzzles


def generate_hard(
    n: int,
    k: int,
    seeds: Sequence[int],
    keep: int,
    *,
    rule: Rule = "touch",
    progress: Callable[[Puzzle], None] | None = None,
    budgets: Budgets = BUDGETS,
) -> list[Puzzle]:
    """The `keep` hardest of the puzzles made from `seeds` (one candidate each), in seed order.

    Hardest means the most search nodes our solver takes to find the answer and prove it unique
    (`search(limit=2).nodes`): the generator's maps are mostly easy for the solver, so keeping the
    ones it has to branch on most gives tests and benchmarks boards that make it work. Ties go to
    the lower seed. Each puzzle keeps its own seed's name, so it can be made again alone without
    `--hard`. `progress` is called after each candidate.
    """
    candidates = generate_many(n, k, seeds, rule=rule, progress=progress, budgets=budgets)
    return hardest(candidates, keep)


def hardest(puzzles: Sequence[Puzzle], keep: int) -> list[Puzzle]:
    """The `keep` puzzles that take `search(limit=2)` the most nodes, in their given order (ties:
    the earlier one)."""
    nodes = [search(puzzle, limit=2).nodes for puzzle in puzzles]
    ranked = sorted(range(len(puzzles)), key=lambda i: (-nodes[i], i))[:keep]
    return [puzzles[i] for i in sorted(ranked)]
