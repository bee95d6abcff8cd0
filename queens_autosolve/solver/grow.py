"""Growing regions around an intended answer without letting a second answer in: the half-built
map the generator edits (`RegionMap`) and growth in checked batches (`Growth`).

Vocabulary as in `solver.puzzle` and `solver.generator`: the *intended* solution is the answer
the regions grow around, a *rival* any other solution of the current map. A cell no region owns
yet is *unassigned* and never holds a queen, so giving cells to regions only adds solutions, and
each solution it adds has a queen on a cell that moved. The *residue* of a map is what the
solver's propagation leaves in play beyond the intended queens: propagation is sound, so no
solution has a queen outside the intended queens and the residue.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from queens_autosolve.solver.propagate import Board, board_of_regions, propagate
from queens_autosolve.solver.puzzle import Cell, Puzzle, Rule, cells_of, mask_of
from queens_autosolve.solver.regions import is_connected, neighbours_of, reachable
from queens_autosolve.solver.search import search_board

UNKNOWN = -1  # what a rival search says when it ran out of nodes
REHOME_TRIES = 3  # rival queens force_in tries to move to another region before evicting one
# LARGEST_FIRST: without the shaper, a cell joins its largest neighbouring region first. Growth
# at random leaves many leftovers (cells every neighbour refuses: the dearest part of
# generation); large regions with small ones between them keep the map more rigid. Measured on
# 30x30, seeds 1..5, leftovers after admit_leftovers: 56/74/30/52/71 at random, 22/51/41/22/42
# largest first (smallest first: 42/70/48/92/34; most shared edges first: 37/59/37/33/67).


@dataclass(frozen=True)
class Budgets:
    """Search nodes the generator's rival searches may take (None: no limit), and two sizes.

    `check`: a search with a queen forced on one cell (is there a rival through it?); past it
    the answer is UNKNOWN and the move counts as opening a rival. `rival`: a search whose rival
    is wanted, to evict its queens. `mend`: a round of `make_unique`. `batch`: the most cells
    that join regions between two propagations (1: each cell checked alone). `evictions`:
    queens the leftover cells may move or evict, per cell of the board and star (so 1 per
    queen on 10x10, 3 on 30x30). Measured per queen, 30x30, seeds 1..10 (noisy): 2 gave 2.1 s
    median but 16.6 s worst, 3 3.1 / 8.1 s, 4 2.9 / 12.3 s, 6 4.4 / 6.6 s; on 9x9, 40 seeds,
    the total fell from 1.0 s at 3 to 0.8 s at 1. Running out of nodes only costs moves:
    every puzzle is proven unique at the end.
    """

    check: int | None = 4
    rival: int | None = 40
    mend: int | None = None
    batch: int = 64
    evictions: float = 0.1


BUDGETS = Budgets()


class RegionMap:
    """The region grid the generator edits cell by cell; -1 marks a cell no region owns yet.

    Mutable on purpose and private to generation: `puzzle()` freezes it into a Puzzle.
    """

    def __init__(
        self, grid: list[list[int]], k: int, rule: Rule, intended: Sequence[Cell], budgets: Budgets = BUDGETS
    ) -> None:
        self.grid = grid
        self.budgets = budgets
        self.n = len(grid)
        self.k = k
        self.rule = rule
        self.intended = mask_of(intended, self.n)
        self.masks = [0] * self.n  # one bitmask per region, kept in step with `grid`
        for i, region in enumerate(region for row in grid for region in row):
            if region >= 0:
                self.masks[region] |= 1 << i
        self._board: tuple[list[int], Board] | None = None  # the solver's masks while they hold

    def puzzle(self, name: str = "", meta: dict[str, str] | None = None) -> Puzzle:
        return Puzzle.from_region_grid(self.grid, k=self.k, rule=self.rule, name=name, meta=meta)

    def region_at(self, cell: Cell) -> int:
        return self.grid[cell[0]][cell[1]]

    def bit(self, cell: Cell) -> int:
        return 1 << (cell[0] * self.n + cell[1])

    def bordering_regions(self, cell: Cell) -> list[int]:
        """Regions other than the cell's own that touch it along an edge, in ascending order."""
        own = self.region_at(cell)
        return sorted({self.region_at(near) for near in neighbours_of(self.n, cell)} - {own, -1})

    def is_open(self, cell: Cell) -> bool:
        """An unassigned cell with a region next to it."""
        return self.region_at(cell) == -1 and bool(self.bordering_regions(cell))

    def unassigned(self) -> list[Cell]:
        return [(r, c) for r in range(self.n) for c in range(self.n) if self.grid[r][c] == -1]

    def can_give_away(self, cell: Cell) -> bool:
        """True when the cell's region stays one connected piece without it."""
        rest = set(cells_of(self.masks[self.region_at(cell)], self.n))
        rest.discard(cell)
        return is_connected(rest)

    def move(self, cell: Cell, region: int) -> None:
        """Give `cell` to `region` (-1: to no region)."""
        bit = self.bit(cell)
        old = self.region_at(cell)
        if old >= 0:
            self.masks[old] &= ~bit
        if region >= 0:
            self.masks[region] |= bit
        self.grid[cell[0]][cell[1]] = region

    def board(self) -> Board:
        """The solver's masks of the map as it is now (rebuilt only after a move)."""
        if self._board is None or self._board[0] != self.masks:
            self._board = self.masks[:], board_of_regions(self.n, self.k, self.rule, self.masks)
        return self._board[1]

    def residue(self) -> int:
        """The cells propagation leaves in play beyond the intended queens (see the module
        docstring): 0 means the intended answer is the map's only one, proven in one node."""
        state = propagate(self.board(), sum(self.masks), 0)
        return -1 if state is None else (state[0] | state[1]) & ~self.intended

    def rival(self, queens: int = 0, budget: int | None = None) -> int:
        """A solution (queen mask) of the map other than the intended one, with queens on all of
        `queens`; 0 when there is none, UNKNOWN when the search ran out of `budget` nodes."""
        board = self.board()
        found, finished = search_board(board, sum(self.masks), queens, skip=self.intended, budget=budget)
        return found if finished else UNKNOWN

    def opens_rival(self, cell: Cell) -> bool:
        """Whether some rival has a queen on `cell`: a search with a queen forced there, within
        `budgets.check` nodes (one that runs out counts as yes)."""
        return self.rival(self.bit(cell), self.budgets.check) != 0

    def take_out(self, cell: Cell, keep: set[Cell]) -> list[Cell]:
        """Make `cell` unassigned, and with it the cells of its region that lose touch with the
        region's intended queens (`keep`); the cells taken out, `cell` first."""
        region = self.region_at(cell)
        self.move(cell, -1)
        area = set(cells_of(self.masks[region], self.n))
        anchor = min(q for q in keep if q in area)
        lost = sorted(area - reachable(anchor, area))
        for here in lost:
            self.move(here, -1)
        return [cell, *lost]


class Growth:
    """Grows every region from its intended queens, checking moves a batch at a time.

    Cells join neighbouring regions one by one (`RegionShaper` picks which, for small k = 1
    boards), unchecked; after each batch ONE propagation of the whole map (`RegionMap.residue`)
    checks them all: a new cell that propagation rules out holds a queen in no solution, so when
    it rules out every cell that joined since the map was last known to have no rival, none
    opened one. Each cell it leaves in play is a *suspect*: it leaves its region and may not
    join that region again (removing cells only removes solutions), and the rest are checked
    again with the next batch. Propagation settles nearly every batch while the map stays
    *pinned* (residue 0), so the batch doubles after a good one and halves after a bad one.

    Cells that every neighbouring region refused are *leftovers*: `admit_leftovers` checks them
    for rivals proper (a search with a queen forced on the cell, which also admits moves that
    only propagation could not settle), and `force_in` pushes the rest in by moving or evicting
    the queens of the rivals they open, up to a budget (`Budgets.evictions`).
    """

    def __init__(
        self, board: RegionMap, keep: set[Cell], rng: random.Random, shaper: RegionShaper | None
    ) -> None:
        self.board = board
        self.keep = keep
        self.rng = rng
        self.shaper = shaper
        self.refused: set[tuple[Cell, int]] = set()  # (cell, region) moves that left a suspect
        self.frontier = [cell for cell in board.unassigned() if board.is_open(cell)]
        self.unchecked: list[Cell] = []  # cells moved since the map was last known rival-free
        self.size = 1

    def run(self) -> None:
        """Grow in batches until no open cell has a region it may join; then admit what the
        rival searches allow, and push the rest in by evictions until they run out."""
        while self.frontier or self.unchecked:
            self.add_batch()
            if self.unchecked:
                self.check_batch()
        board = self.board
        evictions = round(board.budgets.evictions * board.n * board.n * board.k)
        while True:
            left = self.admit_leftovers()
            if not left or evictions <= 0:
                return
            for cell in left:
                if evictions > 0 and board.region_at(cell) == -1:
                    evictions -= max(1, self.force_in(cell))

    def add_batch(self) -> None:
        """Give up to `size` frontier cells to regions, unchecked."""
        board = self.board
        # Drop the cells assigned since, and repeats: the shaper reads the whole frontier per pick.
        self.frontier = frontier = list(dict.fromkeys(c for c in self.frontier if board.region_at(c) == -1))
        added = 0
        while frontier and added < self.size:
            index = self.shaper.next_index(frontier) if self.shaper else self.rng.randrange(len(frontier))
            frontier[index], frontier[-1] = frontier[-1], frontier[index]
            cell = frontier.pop()
            if board.region_at(cell) != -1:
                continue
            options = self.options(cell)
            if not options:  # it comes back when a new region reaches it
                continue
            board.move(cell, options[0])
            self.unchecked.append(cell)
            added += 1
            frontier.extend(near for near in neighbours_of(board.n, cell) if board.region_at(near) == -1)

    def check_batch(self) -> None:
        """One propagation over the map: keep the unchecked cells it rules out, refuse the
        suspects, and size the next batch."""
        board = self.board
        residue = board.residue()
        suspects = [cell for cell in self.unchecked if residue & board.bit(cell)]
        if not suspects:
            self.unchecked = []
            self.size = min(2 * self.size, board.budgets.batch)
            return
        for cell in reversed(suspects):
            if board.region_at(cell) != -1:
                self.refuse(cell)
        self.unchecked = [cell for cell in self.unchecked if board.region_at(cell) != -1]
        self.size = max(1, self.size // 2)

    def options(self, cell: Cell, *, refused: bool = False) -> list[int]:
        """The regions `cell` may still try (with `refused`, also those it was refused by), the
        one to try first first."""
        options = [r for r in self.board.bordering_regions(cell) if refused or (cell, r) not in self.refused]
        self.rng.shuffle(options)
        if self.shaper:
            options.sort(key=self.shaper.priority)
        else:  # the largest region first: see LARGEST_FIRST
            masks = self.board.masks
            options.sort(key=lambda region: -masks[region].bit_count())
        return options

    def admit_leftovers(self) -> list[Cell]:
        """Give each open leftover cell to a neighbouring region through which no rival opens
        (a search with a queen forced on it), until none can join; the cells still open. The
        map need not stay pinned: a cell that propagation alone could not rule out may still
        hold a queen in no solution."""
        board = self.board
        failed: set[tuple[Cell, int]] = set()  # rivals only grow while cells only join
        while True:
            admitted = False
            left = [cell for cell in board.unassigned() if board.is_open(cell)]
            for cell in left:
                for region in self.options(cell, refused=True):
                    if (cell, region) in failed:
                        continue
                    board.move(cell, region)
                    if not board.opens_rival(cell):
                        admitted = True
                        break
                    board.move(cell, -1)
                    failed.add((cell, region))
            if not admitted:
                return left

    def force_in(self, cell: Cell) -> int:
        """Give `cell` to a neighbouring region, and take a queen (never an intended one) out
        of each rival that opens until there is none: moved to another region where it opens no
        rival (`rehome`), or else made unassigned; how many were taken. When a rival has no
        queen that can leave, `cell` stays out."""
        board = self.board
        options = board.bordering_regions(cell)
        if not options:
            return 0
        board.move(cell, self.rng.choice(options))
        evicted = 0
        while rival := board.rival(board.bit(cell), board.budgets.rival):
            queens = cells_of(rival, board.n) if rival != UNKNOWN else []
            movable = [q for q in queens if q not in self.keep and q != cell and board.can_give_away(q)]
            if not movable:
                board.move(cell, -1)
                break
            self.rng.shuffle(movable)
            if not any(self.rehome(q) for q in movable[:REHOME_TRIES]):
                board.move(movable[0], -1)
            evicted += 1
        return evicted

    def rehome(self, cell: Cell) -> bool:
        """Move `cell` to a neighbouring region through which no rival opens (a search with a
        queen forced on it); whether it moved. A rival with its queen there loses it, and unlike
        an eviction the move leaves no new leftover behind."""
        board = self.board
        old = board.region_at(cell)
        for region in board.bordering_regions(cell):
            board.move(cell, region)
            if not board.opens_rival(cell):
                return True
        board.move(cell, old)
        return False

    def refuse(self, cell: Cell) -> None:
        """Take `cell` out of its region for good (with the cells cut off by that, which may
        come back anywhere)."""
        self.refused.add((cell, self.board.region_at(cell)))
        self.frontier.extend(self.board.take_out(cell, self.keep))


def assign_leftovers(board: RegionMap, rng: random.Random) -> None:
    """Give each cell still unassigned to a random neighbouring region (in passes, since a clump
    of leftovers is reached from its edge inwards)."""
    left = board.unassigned()
    while left:
        waiting = []
        for cell in left:
            owners = board.bordering_regions(cell)
            if owners:
                board.move(cell, rng.choice(owners))
            else:
                waiting.append(cell)
        left = waiting


# Region shapes like LinkedIn's (solver/shapes.py; benchmarks/region_shapes.py compares them):
# each region grows towards a size target drawn from a Dirichlet(0.7) share of the board, the
# region furthest below its target first, and every region first to MIN_REGION cells. Random
# growth, which this replaces for k = 1, leaves a one-cell region in 86% of puzzles (LinkedIn:
# 23%) and its smallest region has one cell (median; LinkedIn: three). Measured on 7x7..11x11,
# seeds 1..20: one-cell regions in 33%, largest region 2.9 N (LinkedIn 2.8 N), compactness 0.61
# (0.58). Above SHAPED_MAX (LinkedIn's boards stop near 11) growth stays random.
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
        # each cell's neighbours, looked up: next_index reads them for the whole frontier per pick
        self.around = {(r, c): neighbours_of(board.n, (r, c)) for r in range(board.n) for c in range(board.n)}

    def priority(self, region: int) -> tuple[bool, float]:
        size = self.board.masks[region].bit_count()
        return size >= MIN_REGION, size / self.targets[region]

    def next_index(self, frontier: list[Cell]) -> int:
        """The index in `frontier` of an open cell next to the neediest region (ties at random)."""
        grid, around = self.board.grid, self.around
        needs = [self.priority(region) for region in range(self.board.n)]
        best, best_key, ties = 0, (True, float("inf")), 0
        for index, cell in enumerate(frontier):
            keys = [needs[grid[r][c]] for r, c in around[cell] if grid[r][c] >= 0]
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
