"""Make new puzzles with exactly one solution: place a random answer, grow the regions around it
in checked batches without letting a second answer in, then mend what is left.

Vocabulary as in `solver.puzzle`. The *intended* solution is the random answer the regions are
grown around; a *rival* is any other solution of the current map. Three steps:

1. `seed_regions`: each region starts as its k intended queens (joined by a path when k > 1).
2. `solver.grow.Growth`: unassigned cells join neighbouring regions a batch at a time (the
   batch doubling while all goes well, up to 64 cells), and ONE propagation of the whole map
   follows each batch: a new cell that propagation rules out holds a queen in no solution, so
   when it rules out every new cell, none opened a rival. Each new cell left in play leaves
   its region and may not join it again. Nearly every batch passes, and the final maps are
   mostly settled by propagation alone. Cells every neighbour refused are then checked for
   rivals proper (a search with a queen forced on the cell); the rest push in by moving or
   evicting the queens of the rivals they open, up to a budget, or join random neighbours.
3. `make_unique`: while the map has a rival, a queen cell of the rival that is not an intended
   queen moves out of its region (`break_rival`), so the rival loses its queen there.

Every check is the solver's own: `solver.propagate.propagate` for the batches, and
`solver.search.search_board` (on the half-grown map, intended solution skipped, with a node
budget: `Budgets`) for rivals; a search that runs out only changes which move is made, and
`count_solutions` proves every puzzle unique at the end. Checking batches by propagation is
faster than checking each cell alone (docs/notes.md): a propagation names the culprits at once.
Same seed, same puzzle; but the map a seed makes
depends on which rival a search meets first, so retuning the solver can change the puzzles a
seed makes.

>>> p = generate_puzzle(6, rng=7)
>>> p.name, p.meta["seed"], count_solutions(p, limit=2)
('gen-n6-k1-s7', '7', 1)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from itertools import islice

from queens_autosolve.solver.board import bits
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.grow import (
    BUDGETS,
    SHAPED_MAX,
    UNKNOWN,
    Budgets,
    Growth,
    RegionMap,
    RegionShaper,
    assign_leftovers,
)
from queens_autosolve.solver.propagate import board_of_regions, place, propagate
from queens_autosolve.solver.puzzle import Cell, Puzzle, Rule, cells_of
from queens_autosolve.solver.regions import (
    grow_star_regions,
    join_cells,
    neighbours_of,
    random_solution_cells,
    reachable,
)
from queens_autosolve.solver.search import count_solutions, search

__all__ = [
    "BUDGETS",
    "MAX_SIZE",
    "MIN_SIZE",
    "ONE_AT_A_TIME",
    "Budgets",
    "Cost",
    "check_size",
    "generate_many",
    "generate_puzzle",
    "harden",
    "hardest",
    "make_unique",
    "puzzle_name",
    "search_cost",
    "seed_regions",
]

MIN_SIZE = 4
MAX_SIZE = 60  # beyond this, generation takes minutes and labels leave the printable ASCII set
ATTEMPTS = 20  # fresh answers tried before giving up (in practice the first nearly always works)
SEEDINGS = 20  # for k > 1: seed maps drawn until one has no rival (see seed_regions)
WAYS = 12  # moves break_rival checks per round before taking a random one
TABU_ROUNDS = 4  # rounds a moved cell must wait before make_unique may move it again
ANSWER_TRIES = 50  # fresh tries of _answer_by_propagation before giving up
ONE_AT_A_TIME = Budgets(batch=1)  # every cell checked alone: the benchmark's baseline


# What a map costs to solve, as `harden` and `hardest` judge it: how many answers it has
# (counted up to 2) and a number that grows with the work (our search's nodes by default; a
# benchmark passes another solver's, to make maps that are hard for that one).
Cost = Callable[[Puzzle], tuple[int, int]]


def search_cost(puzzle: Puzzle) -> tuple[int, int]:
    """Our search's answers (up to 2) and nodes on `puzzle`: the default `Cost`."""
    result = search(puzzle, limit=2)
    return result.count, result.nodes


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
    n: int, k: int = 1, *, rng: random.Random | int, rule: Rule = "touch", budgets: Budgets = BUDGETS,
    harden_tries: int = 0, harden_cost: Cost = search_cost,
) -> Puzzle:
    """A random n x n puzzle with k queens per unit and exactly one solution.

    `rng` is a seed (the puzzle is then named ``gen-n{n}-k{k}-s{seed}`` with ``seed`` in its
    meta) or a Random to draw from (named ``gen-n{n}-k{k}``). Only that randomness is used.
    With `harden_tries`, the finished map then takes up to that many `harden` moves, judged by
    `harden_cost` (its meta says how many were tried, so the puzzle can be made again). Raises
    QueensError when the size cannot hold a puzzle (see `check_size`).
    """
    check_size(n, k, rule)
    seed = rng if isinstance(rng, int) else None
    rand = random.Random(seed) if seed is not None else rng
    assert isinstance(rand, random.Random)
    for _ in range(ATTEMPTS):
        queens = random_answer(n, k, rand, rule)
        board = RegionMap(seed_regions(n, queens, k, rand, rule), k, rule, queens, budgets)
        shaper = RegionShaper(board, rand) if k == 1 and n <= SHAPED_MAX else None
        Growth(board, set(queens), rand, shaper).run()
        assign_leftovers(board, rand)
        if make_unique(board, queens, rand) and count_solutions(board.puzzle(), limit=2) == 1:
            break
    else:
        raise QueensError(
            f"--size {n} --stars {k}: no unique puzzle after {ATTEMPTS} attempts; try another seed"
        )
    if harden_tries:
        harden(board, queens, rand, harden_tries, harden_cost)
    name = puzzle_name(n, k, seed) if seed is not None else f"gen-n{n}-k{k}"
    meta = {"seed": str(seed)} if seed is not None else {}
    if harden_tries:
        meta["harden"] = str(harden_tries)
    return board.puzzle(name=name, meta=meta)


def harden(
    board: RegionMap, intended: Sequence[Cell], rng: random.Random, tries: int, cost: Cost = search_cost
) -> int:
    """Make a finished map harder: up to `tries` random border moves (never of an intended
    queen's cell), each kept when `intended` stays the only answer and the `cost` does not
    fall; returns the cost of the map left.

    The grown maps are easy because growth keeps them settled by propagation (step 2 of the
    module docstring): a border move undoes that here and there, and the cost judges it."""
    keep = set(intended)
    best = cost(board.puzzle())[1]
    for _ in range(tries):
        move = _border_move(board, keep, rng)
        if move is None:
            break
        cell, region = move
        old = board.region_at(cell)
        board.move(cell, region)
        answers, spent = cost(board.puzzle())
        if answers == 1 and spent >= best:
            best = spent
        else:
            board.move(cell, old)
    return best


def _border_move(board: RegionMap, keep: set[Cell], rng: random.Random) -> tuple[Cell, int] | None:
    """A random cell (not in `keep`) that its region can give away, and a neighbouring region
    to give it to; None when no cell can move."""
    cells = [(r, c) for r in range(board.n) for c in range(board.n) if (r, c) not in keep]
    rng.shuffle(cells)
    for cell in cells:
        targets = board.bordering_regions(cell)
        if targets and board.can_give_away(cell):
            return cell, rng.choice(targets)
    return None


def random_answer(n: int, k: int, rng: random.Random, rule: Rule = "touch") -> list[Cell]:
    """k cells per row and column, no two attacking: `random_solution_cells` (row by row), or,
    when that gives up (from 21x21 with 5 stars it mostly does), `_answer_by_propagation`.
    Raises QueensError when neither finds one."""
    try:
        return random_solution_cells(n, k, rng, rule=rule)
    except ValueError:
        pass
    for _ in range(ANSWER_TRIES):
        queens = _answer_by_propagation(n, k, rng, rule)
        if queens is not None:
            return cells_of(queens, n)
    raise QueensError(f"--size {n} --stars {k}: could not place a random answer; try a larger size")


def _answer_by_propagation(n: int, k: int, rng: random.Random, rule: Rule) -> int | None:
    """A random answer (queen mask) of the board whose regions are its rows: a queen on a random
    candidate, propagated, or that candidate ruled out when the queen fails; None at a
    contradiction. The solver's rules see the 2x2 blocks and bands that row-by-row placement
    finds only by backtracking."""
    rows = [((1 << n) - 1) << (r * n) for r in range(n)]
    board = board_of_regions(n, k, rule, rows)
    state = propagate(board, (1 << n * n) - 1, 0)
    while state is not None:
        cand, queens = state
        if queens.bit_count() == n * k:
            return queens
        low = 1 << rng.choice(list(bits(cand)))
        child = place(board, cand, queens, low)
        child = child and propagate(board, child[0], child[1])
        state = child if child is not None else propagate(board, cand & ~low, queens)
    return None


def seed_regions(
    n: int, queens: Sequence[Cell], k: int, rng: random.Random, rule: Rule = "touch"
) -> list[list[int]]:
    """The starting grid: each region holds its k intended queens (joined by a path when k > 1,
    so the region is connected from the start); every other cell is -1 (unassigned).

    Growth needs a start with no rival, and the paths of k > 1 often let one in (11 of 20 seeds
    on 11x11, k = 2), so up to SEEDINGS maps are drawn and the first without a rival is kept.
    """
    grid = [[-1] * n for _ in range(n)]
    if k == 1:
        for region, (r, c) in enumerate(queens):
            grid[r][c] = region
        return grid
    for _ in range(SEEDINGS):
        grid = joined_queens(n, queens, k, rng)
        if not RegionMap([row[:] for row in grid], k, rule, queens).rival(budget=BUDGETS.rival):
            break
    return grid


def joined_queens(n: int, queens: Sequence[Cell], k: int, rng: random.Random) -> list[list[int]]:
    """For k > 1: each region's k queens and the paths joining them. Which queens share a
    region comes from a full map of glued pieces; its areas also bound the paths."""
    grid = [[-1] * n for _ in range(n)]
    full = grow_star_regions(n, queens, k, rng)
    for region in range(n):
        area = {(r, c) for r in range(n) for c in range(n) if full[r][c] == region}
        members = [cell for cell in queens if full[cell[0]][cell[1]] == region]
        for cell in join_cells(members, area):
            grid[cell[0]][cell[1]] = region
    return grid


def make_unique(
    board: RegionMap, intended: Sequence[Cell], rng: random.Random, max_moves: int | None = None
) -> bool:
    """Edit `board` until `intended` is its only solution; False if `max_moves` edits were not enough.

    Each round searches for a rival and moves one of its queen cells out of its region
    (`break_rival`); when none can move, or the search ran out of nodes, a random border cell
    moves instead, so the next round sees a different map. Cells moved in the last few rounds
    stay put, so two rivals cannot bounce one cell back and forth.
    """
    limit = max_moves if max_moves is not None else 10 * board.n * board.k
    keep = set(intended)
    recent: deque[list[Cell]] = deque(maxlen=TABU_ROUNDS)
    for _ in range(limit):
        rival = board.rival(budget=board.budgets.mend)
        if not rival:
            return True
        frozen = keep.union(*recent)
        moved = break_rival(board, rival, frozen, rng) if rival != UNKNOWN else None
        recent.append(moved or [])
        if moved is None:
            nudge_border(board, keep, rng)
    return False


def break_rival(board: RegionMap, rival: int, keep: set[Cell], rng: random.Random) -> list[Cell] | None:
    """Move a queen cell of `rival` (never a cell of `keep`) out of its region, which leaves the
    rival a queen short there; the moved cells, or None when no queen of it can leave.

    A cell deep inside its region leaves with a path to the nearest border, and pieces of the
    region that the move cuts off leave with it (`carve`). Of the first WAYS moves, the first
    that opens no rival through a moved cell is taken (a search with a queen forced on each
    moved cell: one node, mostly); failing that, a random one of them.
    """
    cells = [cell for cell in cells_of(rival, board.n) if cell not in keep]
    rng.shuffle(cells)
    ways = list(islice((way for cell in cells for way in carve(board, cell, keep, rng)), WAYS))
    for moved, region in ways:
        old = board.region_at(moved[0])
        for here in moved:
            board.move(here, region)
        if not any(board.opens_rival(here) for here in moved):
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
        for near in neighbours_of(n, here):
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


def generate_many(
    n: int,
    k: int,
    seeds: Sequence[int],
    *,
    rule: Rule = "touch",
    progress: Callable[[Puzzle], None] | None = None,
    budgets: Budgets = BUDGETS,
    harden_tries: int = 0,
    harden_cost: Cost = search_cost,
    skipped: list[tuple[int, str]] | None = None,
) -> list[Puzzle]:
    """One puzzle per seed (so each can be remade alone from its name); `progress` is called
    after each one. A seed no puzzle can be made from raises QueensError, or, when `skipped` is
    given, goes there with the reason and the run goes on."""
    puzzles = []
    for seed in seeds:
        try:
            puzzle = generate_puzzle(
                n, k, rng=seed, rule=rule, budgets=budgets, harden_tries=harden_tries, harden_cost=harden_cost
            )
        except QueensError as error:
            if skipped is None:
                raise
            skipped.append((seed, str(error)))
            continue
        puzzles.append(puzzle)
        if progress is not None:
            progress(puzzle)
    return puzzles


def hardest(puzzles: Sequence[Puzzle], keep: int, cost: Cost = search_cost) -> list[Puzzle]:
    """The `keep` hardest of `puzzles` by `cost`, in their given order: `hardest(generate_many(...),
    keep)` is `generate --hard`.

    Hardest by default means the most search nodes our solver takes to find the answer and prove
    it unique (`search(limit=2).nodes`): the generator's maps are mostly easy for the solver, so
    keeping the ones it has to branch on most gives tests and benchmarks boards that make it
    work. Ties go to the earlier one. Each puzzle keeps its own seed's name, so it can be made
    again alone without `--hard`."""
    spent = [cost(puzzle)[1] for puzzle in puzzles]
    ranked = sorted(range(len(puzzles)), key=lambda i: (-spent[i], i))[:keep]
    return [puzzles[i] for i in sorted(ranked)]
