"""The state propagation works on: a puzzle's masks (`Board`), what the rules remember about one
board (`Memo`), the record of one deduction (`Step`), and `place`, the one way queens go on.

Vocabulary (see solver/puzzle.py): *cand* is the mask of cells that may still hold a queen,
*queens* the mask of cells that do; a *unit* (row, column or region) needs k queens; its *need*
is k minus the queens already in it; a unit is *open* while its need is above zero. A region is
named by its number g; its cells are `region_masks[g]` (`Puzzle.regions` is the grid of numbers).
A *line* is a row or a column; an n-bit *pattern* is the set of positions along one line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import TypeVar

from queens_autosolve.solver.puzzle import Cell, Puzzle, Rule, cell_name, cells_of, default_label, geometry

State = tuple[int, int]  # (cand, queens)
# What a rule's last call left and looked at: (cand left, cand | queens left, the cells it looked
# at when it started: its live cells, or its candidates); see changed_units
Seen = tuple[int, int, int]
# For count_blocks, Seen and the rows' and the columns' live patterns at the call's start
LinesSeen = tuple[int, int, int, list[int], list[int]]
# What a greedy 2x2 cover settles: (blocks in it, up to k+1; singles; touching), see
# block_rules.region_cover
Cover = tuple[int, int, int]
# A group of cut_rules.cut_regions: (its cells, the queens it holds, whether its lines are rows,
# its first and last line, the regions it is part of, a bit per region number); see cut_groups
CutGroup = tuple[int, int, bool, int, int, int]
CutGroups = dict[int, CutGroup]  # the groups of one board's cuts between rows (columns), by cells
# For cut_regions, Seen and the groups of the call, between rows and between columns
CutsSeen = tuple[int, int, int, CutGroups, CutGroups]
# Memo.last_calls: the Seen of settle_units, cover_regions and squeeze_units, then count_blocks'
# and cut_regions', then settle_placements'
LastCalls = tuple[
    "Seen | None", "Seen | None", "Seen | None", "LinesSeen | None", "CutsSeen | None", "Seen | None"
]


class StepKind(str, Enum):
    """What a Step records. A str that prints as its word, so text and JSON output carry the
    plain word and a kind compares equal to it (enum.StrEnum needs Python 3.11)."""

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, format_spec: str) -> str:
        return str.__format__(self, format_spec)

    SINGLE = "single"  # a unit's last candidates get its queens (settle_units)
    ATTACK = "attack"  # candidates whose queen would starve a unit (eliminate_attackers, squeeze_units)
    CONFINE = "confine"  # units confined to as many others, or a group of cells that holds k queens
    BLOCK = "block"  # 2x2 blocks that take one queen each (cover_regions, count_blocks)
    LINE = "line"  # a line with room for exactly k queens (count_blocks)
    TRIAL = "trial"  # what holds whichever way a tight unit is filled (trial)
    GUESS = "guess"  # the search tries a queen
    BACKTRACK = "backtrack"  # a guess failed
    CONTRADICTION = "contradiction"
    GIVEN = "given"  # the puzzle's given queens
    SOLVED = "solved"  # the answer, or "no solution"
    # The coach's own kinds (solver/coach.py): its rules touch_all and confine_one, and the kind
    # it grades squeeze_units' steps as (they are logged as ATTACK but count 2x2 blocks).
    NEIGHBOURS = "neighbours"
    CONFINE_ONE = "confine-one"
    SQUEEZE = "squeeze"


@dataclass(frozen=True)
class Step:
    """One deduction, guess or backtrack, worded so a person can follow it on the board.

    `cells` are the cells the step is about (queens placed, candidates removed, or the guess);
    `kind` names the rule (see StepKind); `depth` counts the open guesses.
    """

    text: str
    cells: tuple[Cell, ...] = ()
    guess: bool = False
    kind: StepKind = field(kw_only=True)
    depth: int = 0


@dataclass(slots=True)
class Memo:
    """What the rules have worked out about sets of cells of one board (all but `spans` for k>1
    only), kept for the rest of its search: the same live sets recur all through it. Keys are
    the sets themselves, or built by the key functions below when a set alone says too little."""

    # a block (a 2x2 piece of live cells) -> the cells that touch all of it
    touching_all: dict[int, int] = field(default_factory=dict)
    # crowded[spare]: a unit's live cells -> the cells that touch more than `spare` of them
    crowded: tuple[dict[int, int], ...] = field(default_factory=lambda: tuple({} for _ in range(4)))
    # a region's (or group's) live cells -> what its greedy 2x2 cover settles (block_rules.region_cover)
    covers: dict[int, Cover] = field(default_factory=dict)
    # a region's live cells -> the rows and columns it spans (see unit_rules.rows_and_cols)
    spans: dict[int, int] = field(default_factory=dict)
    # a band's key, ((its live cells << n | its live positions across) << 1 | horizontal), ->
    # what its covers settle, (singles, touching) as block_rules.block_settles
    # finds them (see count_blocks)
    band_covers: dict[int, tuple[int, int]] = field(default_factory=dict)
    # What the last count_blocks call left and looked at: see LinesSeen
    lines_seen: LinesSeen | None = None
    # The units (a bit per unit number) the last contradiction was found in, for the search's
    # unit weights (solver/search.py); 0 when the rule that found it does not say
    blame: int = 0
    # group_key(...) -> the cells a confinement leaves over (see unit_rules._confine_within)
    groups: dict[int, int] = field(default_factory=dict)
    # (tag, *sets) -> what unit_rules._confinements finds: the spans worth a look for one of the
    # four confinements (`tag` as in group_key), given each inner unit's set of outer units
    confined: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = field(default_factory=dict)
    # For k>1, what the last settle_units and cover_regions calls left and started from: see Seen
    settled: Seen | None = None
    covered: Seen | None = None
    squeezed_seen: Seen | None = None  # the same for squeeze_units (which looks at candidates)
    # squeezed[need]: a region's candidates -> the cells squeeze_units drops for it
    squeezed: tuple[dict[int, int], ...] = ()
    # (horizontal, each region's first and last line with a live cell...) -> cut_rules.cut_groups
    cuts: dict[tuple[int, ...], CutGroups | None] = field(default_factory=dict)
    # a cut group's live cells << 6 | the queens it holds -> its cover (block_rules.region_cover)
    cut_covers: dict[int, Cover] = field(default_factory=dict)
    # a set of regions (a bit per region number) -> their cells
    region_sets: dict[int, int] = field(default_factory=dict)
    cuts_seen: CutsSeen | None = None  # what the last cut_regions call left and looked at
    # a unit's candidates << 4 | its need -> what place_rules.placements finds for them
    placements: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    placed_seen: Seen | None = None  # what the last settle_placements call left and looked at

    def last_calls(self) -> LastCalls:
        """What the change-tracking rules' last calls left (see Seen), to `resume` from later."""
        return (
            self.settled, self.covered, self.squeezed_seen, self.lines_seen, self.cuts_seen, self.placed_seen
        )

    def resume(self, calls: LastCalls) -> None:
        """Take the rules back to `calls` (from `last_calls`). The search does this before each
        branch of a node: the branch's state lies within the node's, so the rules look again only
        at what the branch changed, instead of at every unit because the state is not within the
        last branch's leaf (figures: docs/solver.md)."""
        (self.settled, self.covered, self.squeezed_seen, self.lines_seen, self.cuts_seen,
         self.placed_seen) = calls


def group_key(span: int, inside: int, tag: int, n: int) -> int:
    """The Memo.groups key: the outer units of a confinement (an n-bit set), the inner units
    within them, and which of the four confinements it is (`tag`, 0-3: regions in columns,
    columns in regions, regions in rows, rows in regions)."""
    return (span << n | inside) << 2 | tag


@dataclass(frozen=True, eq=False)
class Board:
    """The masks of one puzzle that propagation needs, computed once per search."""

    puzzle: Puzzle
    n: int
    k: int
    units: tuple[int, ...]  # rows, then columns, then regions (as Puzzle.units)
    # kill[i]: the cells that stop being candidates when cell i gets a queen, i itself included.
    # For k=1 that is i's row, column, region and neighbours; for k>1 only i and its neighbours
    # (a unit is cleared when it fills up); a probed search adds the cells probing found can
    # hold no queen beside one on i (search._learn_conflicts).
    kill: tuple[int, ...]
    neighbours: tuple[int, ...]
    # For k>1, cell_units[i]: the row, column and region of cell i; unit_ids[i] the same as a set
    # of unit numbers (a bit per unit)
    cell_units: tuple[tuple[int, int, int], ...]
    unit_ids: tuple[int, ...]
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    region_masks: tuple[int, ...]
    # For k>1, squares[0][i] / squares[1][i]: the 2x2 square with cell i at its top left / top
    # right (clipped at the edges); a square never holds two queens.
    squares: tuple[tuple[int, ...], tuple[int, ...]]
    # band_masks[0][a]: rows a and a+1; band_masks[1][a]: columns a and a+1
    band_masks: tuple[tuple[int, ...], tuple[int, ...]]
    # For k>1 and n <= 17, fit[m]: how many positions of the n-bit set m can be picked with no two
    # side by side (the greedy count of `patterns.greedy_count`), looked up instead of counted.
    fit: bytes | None
    memo: Memo
    # For a probed search, wanted[z]: the cells whose queen, probing found, forces one on cell z;
    # so once z can hold no queen, neither can they (place_rules.drop_unsupported). `wanting`: the
    # cells z with some.
    wanted: tuple[int, ...] = ()
    wanting: int = 0

    @property
    def total(self) -> int:
        """Queens in a complete answer."""
        return self.n * self.k

    def cells(self, mask: int) -> tuple[Cell, ...]:
        return tuple(cells_of(mask, self.n))

    def names(self, mask: int) -> str:
        return ", ".join(cell_name(cell) for cell in cells_of(mask, self.n))


# A deduction rule: (board, cand, queens, log) -> the smaller state, or None on a contradiction.
Deduction = Callable[[Board, int, int, "list[Step] | None"], "State | None"]


def board_of(puzzle: Puzzle) -> Board:
    """The propagation masks of `puzzle` (assumed valid: see Puzzle.validate)."""
    region_of = [g for row in puzzle.regions for g in row]
    return _board(puzzle, puzzle.region_masks, region_of)


def board_of_regions(n: int, k: int, rule: Rule, region_masks: Sequence[int]) -> Board:
    """The propagation masks of a region map that may leave cells out: `region_masks` holds one
    mask per region, and a cell in none of them can never hold a queen (start the search with
    candidates ``sum(region_masks)``). The generator checks its half-grown maps this way.
    Steps name the regions A, B, ... in the order given."""
    region_of = [-1] * (n * n)
    for g, mask in enumerate(region_masks):
        for r, c in cells_of(mask, n):
            region_of[r * n + c] = g
    # A stand-in puzzle, only for the words of explanations (rows, columns, region labels).
    words = Puzzle(
        regions=tuple(tuple(max(g, 0) for g in region_of[r * n:(r + 1) * n]) for r in range(n)),
        k=k, rule=rule, name="region map", labels=tuple(map(default_label, range(len(region_masks)))),
    )
    return _board(words, tuple(region_masks), region_of)


def _board(puzzle: Puzzle, region_masks: tuple[int, ...], region_of: Sequence[int]) -> Board:
    """The Board for `region_masks`; `region_of[i]` is cell i's region number (-1: none)."""
    n, k = puzzle.n, puzzle.k
    geo = geometry(n, puzzle.rule)
    rows, cols, neighbours = geo.rows, geo.cols, geo.neighbours
    if k == 1:
        lines_around = _lines_and_neighbours(n, puzzle.rule)
        # a cell in no region is never a candidate, so its kill mask does not matter
        kill = tuple(
            around | region_masks[g] if g >= 0 else around for around, g in zip(lines_around, region_of)
        )
    else:
        kill = tuple(neighbours[i] | 1 << i for i in range(n * n))
    return Board(
        puzzle=puzzle,
        n=n,
        k=k,
        units=rows + cols + region_masks,
        kill=kill,
        neighbours=neighbours,
        cell_units=tuple(
            (rows[i // n], cols[i % n], region_masks[g] if g >= 0 else 0) for i, g in enumerate(region_of)
        ) if k > 1 else (),
        unit_ids=tuple(
            1 << i // n | 1 << (n + i % n) | (1 << (2 * n + g) if g >= 0 else 0)
            for i, g in enumerate(region_of)
        ) if k > 1 else (),
        rows=rows,
        cols=cols,
        region_masks=region_masks,
        squares=_squares(n) if k > 1 else ((), ()),
        band_masks=(
            tuple(rows[a] | rows[a + 1] for a in range(n - 1)),
            tuple(cols[a] | cols[a + 1] for a in range(n - 1)),
        ),
        fit=_fit_table(n) if k > 1 and n <= 17 else None,
        memo=Memo(squeezed=tuple({} for _ in range(k + 1)) if k > 1 else ()),
    )


@lru_cache(maxsize=16)
def _lines_and_neighbours(n: int, rule: Rule) -> tuple[int, ...]:
    """For each cell, its row, its column and its neighbours: the part of a k=1 kill mask that
    does not depend on the regions."""
    geo = geometry(n, rule)
    return tuple(geo.rows[i // n] | geo.cols[i % n] | geo.neighbours[i] for i in range(n * n))


@lru_cache(maxsize=4)
def _fit_table(n: int) -> bytes:
    """fit[m] for every n-bit m (see Board.fit), a byte each, built a slice at a time rather than
    entry by entry: every 17x17 `solve` builds it at start-up (figures: docs/solver.md).

    >>> list(_fit_table(3))  # 0, 1, 10, 11, 100, 101, 110, 111
    [0, 1, 1, 1, 1, 2, 1, 2]
    """
    # From the low end: a set low bit is picked and its neighbour skipped, else move on. So for m
    # in [lo, 2 lo): an even m has fit[m >> 1], an odd one 1 + fit[m >> 2].
    fit = bytearray(1 << n)
    if n:
        fit[1] = 1
    for j in range(1, n):
        lo = 1 << j
        twice = bytearray(lo)  # fit[m >> 2] for the odd m, each value of the slice twice
        src = fit[lo >> 2:(lo >> 2) + (lo >> 2 or 1)]
        twice[0:2 * len(src):2] = src
        twice[1:2 * len(src):2] = src
        block = bytearray(lo)
        block[0::2] = fit[lo >> 1:lo]
        block[1::2] = twice[:lo >> 1].translate(_PLUS_ONE)
        fit[lo:2 * lo] = block
    return bytes(fit)


_PLUS_ONE = bytes((i + 1) % 256 for i in range(256))


@lru_cache(maxsize=16)
def _squares(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    right, left = [], []
    for i in range(n * n):
        r, c = divmod(i, n)
        down = 1 << (i + n) if r + 1 < n else 0
        here = 1 << i | down
        right.append(here | (here << 1 if c + 1 < n else 0))
        left.append(here | (here >> 1 if c else 0))
    return tuple(right), tuple(left)


def place(board: Board, cand: int, queens: int, mask: int) -> State | None:
    """Put queens on every cell of `mask`; None when one of them is no longer a candidate.
    A unit that fills up loses its other candidates at once (for k=1 `kill` does that)."""
    kill, k = board.kill, board.k
    while mask:
        low = mask & -mask
        if not cand & low:
            return None
        queens |= low
        i = low.bit_length() - 1
        cand &= ~kill[i]
        if k > 1:
            for unit in board.cell_units[i]:
                if (unit & queens).bit_count() == k:
                    cand &= ~unit
        mask ^= low
    return cand, queens


# Past this many cells gone since a rule's last call, changed_units does not list the units.
GONE_LIMIT = 24


def changed_units(board: Board, seen: Seen | None, cand: int, live: int, now: int) -> int:
    """The units that may need another look by a rule whose last call is `seen` (see Seen),
    now that the state is `cand` with live cells `live`: a bit per unit number, for the units
    that lost a cell of those the rule looks at (`now`: the live cells, or the candidates) since
    that call started; -1 (all of them) when this state does not lie within what that call left
    (another branch of the search) or many cells went (k>1 only). A unit whose cells did not
    change in or since that call has nothing new to give a rule that settled it then (a unit
    looked at early in a call may lose cells later in it)."""
    if seen is None or cand & ~seen[0] or live & ~seen[1]:
        return -1
    gone = seen[2] & ~now
    if gone.bit_count() > GONE_LIMIT:
        return -1
    ids = board.unit_ids
    todo = 0
    while gone:
        low = gone & -gone
        todo |= ids[low.bit_length() - 1]
        gone ^= low
    return todo


# --- bit sets -----------------------------------------------------------------------------------


def bits(s: int) -> list[int]:
    """The positions of the set bits of s, lowest first."""
    out = []
    while s:
        low = s & -s
        out.append(low.bit_length() - 1)
        s ^= low
    return out


def as_column(s: int, n: int) -> int:
    """The n-bit set s laid down column 0: the cells of column 0 in the rows set in s (cached)."""
    columns = _COLUMNS.setdefault(n, {})
    column = columns.get(s)
    if column is None:
        column = remember(columns, s, sum(1 << (line * n) for line in bits(s)))
    return column


def transpose(sets: list[int], n: int) -> list[int]:
    """From each region's set of lines, each line's set of regions (or from each row's live
    columns, each column's live rows): an n x n bit matrix, transposed. Each set is laid down
    its column of a board-sized int (a cached lookup), so the work grows with n, not with the
    number of bits set."""
    columns = _COLUMNS.setdefault(n, {})
    t = 0
    for g, s in enumerate(sets):
        column = columns.get(s)
        if column is None:
            column = remember(columns, s, sum(1 << (line * n) for line in bits(s)))
        t |= column << g
    row_bits = (1 << n) - 1
    return [t >> (line * n) & row_bits for line in range(n)]


_COLUMNS: dict[int, dict[int, int]] = {}  # for as_column and transpose: n -> n-bit set -> column


# --- module-level caches ------------------------------------------------------------------------

# Caches kept across searches forget everything when they reach this many entries. A cache that
# fills is one whose sets recur little, and refilling costs one computation per entry.
CACHE_BOUND = 1 << 16

Key = TypeVar("Key")
Value = TypeVar("Value")


def remember(cache: dict[Key, Value], key: Key, value: Value) -> Value:
    """Store `value` under `key` in a cache that outlives searches, emptying it first when full."""
    if len(cache) >= CACHE_BOUND:
        cache.clear()
    cache[key] = value
    return value
