"""Constraint propagation: the deduction rules, each a small function, run to a fixed point.

Vocabulary (see solver/puzzle.py): *cand* is the mask of cells that may still hold a queen,
*queens* the mask of cells that do; a *unit* (row, column or region) needs k queens; its *need*
is k minus the queens already in it; a unit is *open* while its need is above zero.

Every rule has the shape ``rule(board, cand, queens, log) -> (cand, queens) | None``: it returns
the smaller state, or None when it finds a contradiction (a return value, not an exception, so
the search stays cheap). `log` is None in the hot path; `explain` passes a list and each rule
appends a `Step` saying what it deduced.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from solver.puzzle import Cell, Puzzle, Rule, cell_name, cells_of, default_label, geometry

State = tuple[int, int]  # (cand, queens)
Describe = Callable[[], str]  # words for a set of cells, built only when someone reads them


@dataclass(frozen=True)
class Step:
    """One deduction, guess or backtrack, worded so a person can follow it on the board.

    `cells` are the cells the step is about (queens placed, candidates removed, or the guess);
    `kind` names the rule (``single``, ``attack``, ``confine``, ``block``, ``line``, ``trial``,
    ``guess``, ``backtrack``, ``contradiction``, ``given``, ``solved``); `depth` counts the open
    guesses.
    """

    text: str
    cells: tuple[Cell, ...] = ()
    guess: bool = False
    kind: str = ""
    depth: int = 0


@dataclass(frozen=True, eq=False)
class Board:
    """The masks of one puzzle that propagation needs, computed once per search."""

    puzzle: Puzzle
    n: int
    k: int
    units: tuple[int, ...]  # rows, then columns, then regions (as Puzzle.units)
    # kill[i]: the cells that stop being candidates when cell i gets a queen, i itself included.
    # For k=1 that is i's row, column, region and neighbours; for k>1 only i and its neighbours
    # (a unit is cleared when it fills up).
    kill: tuple[int, ...]
    neighbours: tuple[int, ...]
    # For k>1, cell_units[i]: the row, column and region of cell i
    cell_units: tuple[tuple[int, int, int], ...]
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    regions: tuple[int, ...]
    # For k>1, squares[0][i] / squares[1][i]: the 2x2 square with cell i at its top left / top
    # right (clipped at the edges); a square never holds two queens.
    squares: tuple[tuple[int, ...], tuple[int, ...]]
    # For k>1, band_cells[0][a][p]: cells (a, p) and (a+1, p), the column p of the band of rows a
    # and a+1; band_cells[1][a][p] the same across columns a and a+1. A 0 ends each.
    band_cells: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    # band_masks[0][a]: rows a and a+1; band_masks[1][a]: columns a and a+1
    band_masks: tuple[tuple[int, ...], tuple[int, ...]]
    # For k>1 and n <= 17, fit[m]: how many positions of the n-bit set m can be picked with no two
    # side by side (the greedy count of `_greedy_count`), looked up instead of counted.
    fit: tuple[int, ...] | None
    # A cache: block mask -> the cells that touch all of it (blocks recur all through a search).
    touching_all: dict[int, int] = field(default_factory=dict)
    # A cache for eliminate_attackers (k>1): live cells of a unit and its spare -> crowded cells.
    crowding: dict[int, int] = field(default_factory=dict)
    # Caches for the 2x2 covers (k>1): a region's live cells -> its greedy cover; a band's live
    # cells, projection and direction -> its blocks (see _band_blocks).
    covers: dict[int, list[int]] = field(default_factory=dict)
    line_fits: dict[int, tuple[int, int]] = field(default_factory=dict)  # see _pin_line
    region_spans: dict[int, int] = field(default_factory=dict)  # see _rows_and_cols
    band_covers: dict[int, list[int] | None] = field(default_factory=dict)
    # A cache for confine (k>1): which lines and regions -> the cells left over (see _settle_group)
    groups: dict[int, int] = field(default_factory=dict)
    # For k>1, squeezed[need]: a region's candidates -> the cells squeeze_units drops for it
    squeezed: tuple[dict[int, int], ...] = ()

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


def board_of_regions(n: int, k: int, rule: Rule, regions: Sequence[int]) -> Board:
    """The propagation masks of a region map that may leave cells out: `regions` holds one mask
    per region, and a cell in none of them can never hold a queen (start the search with
    candidates ``sum(regions)``). The generator checks its half-grown maps this way.
    Steps name the regions A, B, ... in the order given."""
    region_of = [-1] * (n * n)
    for g, mask in enumerate(regions):
        for r, c in cells_of(mask, n):
            region_of[r * n + c] = g
    # A stand-in puzzle, only for the words of explanations (rows, columns, region labels).
    words = Puzzle(
        regions=tuple(tuple(max(g, 0) for g in region_of[r * n:(r + 1) * n]) for r in range(n)),
        k=k, rule=rule, name="region map", labels=tuple(map(default_label, range(len(regions)))),
    )
    return _board(words, tuple(regions), region_of)


def _board(puzzle: Puzzle, regions: tuple[int, ...], region_of: Sequence[int]) -> Board:
    """The Board for region masks `regions`; `region_of[i]` is cell i's region (-1: none)."""
    n, k = puzzle.n, puzzle.k
    geo = geometry(n, puzzle.rule)
    rows, cols, neighbours = geo.rows, geo.cols, geo.neighbours
    if k == 1:
        lines_around = _lines_and_neighbours(n, puzzle.rule)
        # a cell in no region is never a candidate, so its kill mask does not matter
        kill = tuple(around | regions[g] if g >= 0 else around for around, g in zip(lines_around, region_of))
    else:
        kill = tuple(neighbours[i] | 1 << i for i in range(n * n))
    return Board(
        puzzle=puzzle,
        n=n,
        k=k,
        units=rows + cols + regions,
        kill=kill,
        neighbours=neighbours,
        cell_units=tuple(
            (rows[i // n], cols[i % n], regions[g] if g >= 0 else 0) for i, g in enumerate(region_of)
        ) if k > 1 else (),
        rows=rows,
        cols=cols,
        regions=regions,
        squares=_squares(n) if k > 1 else ((), ()),
        band_cells=_band_cells(n) if k > 1 else ((), ()),
        band_masks=(
            tuple(rows[a] | rows[a + 1] for a in range(n - 1)),
            tuple(cols[a] | cols[a + 1] for a in range(n - 1)),
        ),
        fit=_fit_table(n) if k > 1 and n <= 17 else None,
        squeezed=tuple({} for _ in range(k + 1)) if k > 1 else (),
    )


@lru_cache(maxsize=16)
def _lines_and_neighbours(n: int, rule: Rule) -> tuple[int, ...]:
    """For each cell, its row, its column and its neighbours: the part of a k=1 kill mask that
    does not depend on the regions."""
    geo = geometry(n, rule)
    return tuple(geo.rows[i // n] | geo.cols[i % n] | geo.neighbours[i] for i in range(n * n))


@lru_cache(maxsize=4)
def _fit_table(n: int) -> tuple[int, ...]:
    # From the low end: a set low bit is picked and its neighbour skipped, else move on.
    fit = [0] * (1 << n)
    for m in range(1, 1 << n):
        fit[m] = 1 + fit[m >> 2] if m & 1 else fit[m >> 1]
    return tuple(fit)


@lru_cache(maxsize=16)
def _band_cells(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    across_rows = tuple(
        tuple(1 << (a * n + p) | 1 << ((a + 1) * n + p) for p in range(n)) + (0,) for a in range(n - 1)
    )
    across_cols = tuple(
        tuple(1 << (p * n + a) | 1 << (p * n + a + 1) for p in range(n)) + (0,) for a in range(n - 1)
    )
    return across_rows, across_cols


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


# --- the rules ---------------------------------------------------------------------------------


def settle_units(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """Singles: a unit with exactly as many candidates as it still needs gets them all as queens;
    a unit with too few candidates is a contradiction. Repeats until no unit changes. (A unit
    that fills up loses its other candidates in `place`.)"""
    units, k = board.units, board.k
    changed = True
    while changed:
        changed = False
        in_play = cand | queens
        for u, unit in enumerate(units):
            if k == 1:
                if unit & queens:
                    continue  # kill already cleared the rest of the unit
                live = cand & unit
                if live & (live - 1):
                    continue
                need = 1
            else:
                # place() empties full units, so a unit only needs looking at when its queens
                # and candidates together are down to k
                if (unit & in_play).bit_count() > k:
                    continue
                live = cand & unit
                need = k - (unit & queens).bit_count()
                if not need:
                    continue
            if live.bit_count() < need:
                return _contradiction(board, _short(board, u, live, need), log)
            if log is not None:
                log.append(_single_step(board, u, live, need))
            state = place(board, cand, queens, live)
            if state is None:
                return _contradiction(board, f"the queens forced in {board.puzzle.unit_name(u)} touch", log)
            cand, queens = state
            in_play = cand | queens
            changed = True
    return cand, queens


def eliminate_attackers(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """A candidate whose queen would leave a unit too few candidates for the queens it still
    needs can never hold a queen: remove it.

    For k=1 those are the cells that would take every candidate of an open unit: the
    intersection of the kill masks of its candidates. For k>1 a queen on x takes the unit's
    candidates next to x, so x goes when more of them touch x than the unit has to spare
    (candidates minus queens needed); the touches are counted for all cells at once, one bit
    plane per binary digit."""
    if board.k > 1:
        return _eliminate_crowders(board, cand, queens, log)
    units, kill = board.units, board.kill
    for u, unit in enumerate(units):
        if unit & queens:
            continue
        live = cand & unit
        if not live:
            continue  # settle_units reports it
        others = cand & ~unit
        low = live & -live
        common = kill[low.bit_length() - 1] & others
        live ^= low
        while live and common:
            low = live & -live
            common &= kill[low.bit_length() - 1]
            live ^= low
        if common:
            if log is not None:
                log.append(_attack_step(board, u, common))
            cand &= ~common
    return cand, queens


def _eliminate_crowders(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    units, k = board.units, board.k
    crowding = board.crowding
    for u, unit in enumerate(units):
        live = cand & unit
        spare = live.bit_count() - k + (unit & queens).bit_count()
        if spare < 0 or spare > 3 or not live:
            continue  # too few: settle_units reports it; lots to spare: nothing to find cheaply
        key = live << 2 | spare
        crowded = crowding.get(key)
        if crowded is None:
            crowded = crowding[key] = _crowding(board.neighbours, live, spare)
        crowded &= cand
        if crowded:
            if log is not None:
                log.append(_attack_step(board, u, crowded))
            cand &= ~crowded
    return cand, queens


def squeeze_units(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1: a queen on x takes x's neighbours from every unit; when what is left of a unit
    fits fewer queens than it still needs (counting 2x2 blocks: a block holds one queen at most),
    x can hold no queen. This sees what `eliminate_attackers` misses: candidates that are many
    but side by side, so a queen next to them takes more room than it takes cells.

    Lines are done on their n-bit patterns (`_squeeze_line`, cached for the board size), regions
    on their cells (`_squeezers`, cached per search: region shapes differ from puzzle to puzzle).
    This also finds everything `eliminate_attackers` finds for k>1 (the same node counts without
    it), so it replaces that rule."""
    n, k = board.n, board.k
    row_bits = (1 << n) - 1
    line_caches = _line_squeezes(n, k)
    for lines, step in ((board.rows, n), (board.cols, 1)):
        patterns = [cand >> (r * n) & row_bits for r in range(n)]
        if step == 1:
            patterns = _transpose(patterns, n)
        for a, line in enumerate(lines):
            need = k - (line & queens).bit_count()
            pattern = patterns[a]
            if not need or pattern.bit_count() > 2 * need + 2:
                continue  # half the cells of a line (or more) fit: room to spare
            inside, beside = _squeeze_line(board, pattern, need, line_caches[need])
            if not (inside or beside):
                continue
            if step == 1:
                inside, beside = _spread(inside, n), _spread(beside, n)
            drop = inside << a * step
            if a:
                drop |= beside << (a - 1) * step
            if a + 1 < n:
                drop |= beside << (a + 1) * step
            drop &= cand
            if drop:
                if log is not None:
                    log.append(_squeeze_step(board, a if step == n else n + a, drop))
                cand &= ~drop
    for g, region in enumerate(board.regions):
        need = k - (region & queens).bit_count()
        if not need:
            continue
        live = cand & region
        if live.bit_count() > 2 * need + 4:
            continue  # roomy: such regions are seldom tight enough to squeeze (measured)
        cache = board.squeezed[need]
        drop = cache.get(live)
        if drop is None:
            drop = cache[live] = _squeezers(board, live, need)
        drop &= cand
        if drop:
            if log is not None:
                log.append(_squeeze_step(board, 2 * n + g, drop))
            cand &= ~drop
    return cand, queens


def _squeeze_line(
    board: Board, line: int, need: int, cache: dict[int, tuple[int, int]]
) -> tuple[int, int]:
    """`squeeze_units` for a line with live positions `line` (an n-bit set): the positions in the
    line, and beside it (in the next line either side), whose queen would leave it room for too
    few queens. A queen beside position q takes q-1, q and q+1; one in the line also uses up a
    queen. On a line the greedy count is exact. Cached per pattern and need."""
    fit = board.fit
    if (fit[line] if fit else _greedy_count(line, need + 2)) > need + 1:
        return 0, 0  # a queen beside takes at most one queen's room
    found = cache.get(line)
    if found is None:
        inside = beside = 0
        for q in range(board.n):
            left = line & ~(7 << q >> 1)
            room = fit[left] if fit else _greedy_count(left, need)
            if room < need:
                beside |= 1 << q
            if room < need - 1 and line >> q & 1:
                inside |= 1 << q
        found = cache[line] = inside, beside
    return found


@lru_cache(maxsize=16)
def _line_squeezes(n: int, k: int) -> tuple[dict[int, tuple[int, int]], ...]:
    """For `squeeze_units`, per need: a line's pattern -> what `_squeeze_line` found. (The same
    for bands of two lines was tried: 10% fewer nodes on 17x17 boards, but slower overall.)"""
    return tuple({} for _ in range(k + 1))


def _squeezers(board: Board, live: int, need: int) -> int:
    """The cells whose queen would leave `live` (a unit's candidates, `need` queens still to
    place) room for too few queens: x's own queen counts when x is one of `live`.

    Only tight units are looked at: at most one block to spare. Then a cell that touches just
    one of `live` rarely costs the unit enough room, so only those touching two or more are
    tried, or all of them when the unit has no block to spare."""
    kill = board.kill
    room = _room(board, live, need + 2)
    if room > need + 1:
        return 0
    if room > need:
        around = _crowding(board.neighbours, live, 1)
    else:
        around = _crowding(board.neighbours, live, 0) | live
    if need == 1:
        around &= ~live  # a queen inside is the one the unit needs
    drop = 0
    rest = around
    while rest:
        low = rest & -rest
        target = need - 1 if live & low else need
        if _room(board, live & ~kill[low.bit_length() - 1], target) < target:
            drop |= low
        rest ^= low
    return drop


def _room(board: Board, live: int, stop: int) -> int:
    """How many disjoint 2x2 squares the greedy cover of `live` takes (see _greedy_cover),
    counting no further than `stop`: more queens than that cannot fit in `live`."""
    right, left = board.squares
    count = 0
    while live and count < stop:
        i = (live & -live).bit_length() - 1
        a, b = live & right[i], live & left[i]
        live ^= a if a.bit_count() >= b.bit_count() else b
        count += 1
    return count


def _squeeze_step(board: Board, u: int, mask: int) -> Step:
    return Step(
        f"a queen on {board.names(mask)} would leave {board.puzzle.unit_name(u)} room for too few "
        f"queens: remove {'them' if mask & (mask - 1) else 'it'}",
        board.cells(mask),
        kind="attack",
    )


def _crowding(neighbours: tuple[int, ...], live: int, spare: int) -> int:
    """The cells that touch more than `spare` of the cells of `live`."""
    # b0, b1, b2: how many cells of live touch each cell, in binary, b2 meaning "4 or more"
    b0 = b1 = b2 = 0
    while live:
        low = live & -live
        touch = neighbours[low.bit_length() - 1]
        carry = b0 & touch
        b0 ^= touch
        b2 |= b1 & carry
        b1 ^= carry
        live ^= low
    if spare == 0:
        return b0 | b1 | b2
    if spare == 1:
        return b1 | b2
    if spare == 2:
        return (b1 & b0) | b2
    return b2


def _attack_step(board: Board, u: int, mask: int) -> Step:
    effect = "take every candidate of" if board.k == 1 else "leave too few candidates in"
    return Step(
        f"a queen on {board.names(mask)} would {effect} {board.puzzle.unit_name(u)}: "
        f"remove {'them' if mask & (mask - 1) else 'it'}",
        board.cells(mask),
        kind="attack",
    )


def confine(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """Pigeonhole: m regions whose cells all lie in the same m rows fill those rows, so every other
    cell of those rows goes; and m rows whose cells all lie in m regions fill those regions, so
    the regions' cells outside those rows go. The same for columns. Counting whole units (queens
    included) makes this hold for any k, since m rows and m regions both hold m*k queens.

    The sets tried are those spanned by one region (or line): the regions (lines) that fit inside
    it are counted; more of them than lines (regions) is a contradiction."""
    live = cand | queens
    n = board.n
    regions = board.regions
    row_bits = (1 << n) - 1
    spans = board.region_spans
    # region_rows[g] / region_cols[g]: the rows / columns where region g still has a cell
    region_rows = []
    region_cols = []
    for region in regions:
        m = live & region
        both = spans.get(m)
        if both is None:
            both = spans[m] = _rows_and_cols(m, n)
        region_rows.append(both >> n)
        region_cols.append(both & row_bits)
    directions = ((board.rows, region_rows, "rows"), (board.cols, region_cols, "columns"))
    for lines, region_lines, word in directions:
        state = _confine_regions_to_lines(board, cand, queens, lines, region_lines, word, log)
        if state is None:
            return None
        cand, queens = state
        line_regions = _transpose(region_lines, n)
        state = _confine_lines_to_regions(board, cand, queens, lines, line_regions, word, log)
        if state is None:
            return None
        cand, queens = state
    return cand, queens


def _spans(sets: list[int], n: int) -> set[int]:
    """The line (region) sets worth testing for confinement: each region's (line's) own span.
    (Unions of two spans and runs of adjacent lines were tried: no fewer nodes, more time.)"""
    spans = set(sets)
    spans.discard(0)
    spans.discard((1 << n) - 1)
    return spans


def _rows_and_cols(m: int, n: int) -> int:
    """The rows that cells of m lie in (as an n-bit set, shifted up by n) and their columns."""
    row_bits = (1 << n) - 1
    rows_set = cols_set = 0
    r = 0
    while m:
        part = m & row_bits
        if part:
            rows_set |= 1 << r
            cols_set |= part
        m >>= n
        r += 1
    return rows_set << n | cols_set


def _spread(s: int, n: int) -> int:
    """The cells of column 0 in the rows of the n-bit set s (cached)."""
    spread = _SPREAD.setdefault(n, {})
    column = spread.get(s)
    if column is None:
        column = spread[s] = sum(1 << (line * n) for line in _bits(s))
    return column


def _transpose(sets: list[int], n: int) -> list[int]:
    """From each region's set of lines, each line's set of regions (or from each row's live
    columns, each column's live rows): an n x n bit matrix, transposed. Each set is spread into
    its column of a board-sized int (a cached lookup), so the work grows with n, not with the
    number of bits set."""
    spread = _SPREAD.setdefault(n, {})
    t = 0
    for g, s in enumerate(sets):
        column = spread.get(s)
        if column is None:
            column = spread[s] = sum(1 << (line * n) for line in _bits(s))
        t |= column << g
    row_bits = (1 << n) - 1
    return [t >> (line * n) & row_bits for line in range(n)]


_SPREAD: dict[int, dict[int, int]] = {}  # for _transpose: n -> n-bit set -> its bits, n apart


# How the two directions of confinement put it: (crowded, confined one, confined several).
_REGIONS_IN_LINES = ("all lie in", "is confined to", "are confined to")
_LINES_IN_REGIONS = ("lie within", "lies within", "lie within")
Cells = Callable[[int], int]  # a set of unit numbers -> the mask of their cells
Text = Callable[[int], str]  # a set of unit numbers -> how a person names them



def _confine_regions_to_lines(
    board: Board, cand: int, queens: int, lines: tuple[int, ...], region_lines: list[int], word: str,
    log: list[Step] | None,
) -> State | None:
    """m regions whose candidates lie in m rows (columns) fill them: clear the lines' other cells."""
    line_cells, region_cells, line_text, region_text = _views(board, lines, word)
    tag = 2 if lines is board.rows else 0
    return _confine_within(board, cand, queens, region_lines, line_cells, region_cells,
                           line_text, region_text, _REGIONS_IN_LINES, tag, log)


def _confine_lines_to_regions(
    board: Board, cand: int, queens: int, lines: tuple[int, ...], line_regions: list[int], word: str,
    log: list[Step] | None,
) -> State | None:
    """m rows (columns) whose candidates lie in m regions fill them: clear the regions' other cells."""
    line_cells, region_cells, line_text, region_text = _views(board, lines, word)
    tag = 3 if lines is board.rows else 1
    return _confine_within(board, cand, queens, line_regions, region_cells, line_cells,
                           region_text, line_text, _LINES_IN_REGIONS, tag, log)


def _views(board: Board, lines: tuple[int, ...], word: str) -> tuple[Cells, Cells, Text, Text]:
    """Masks and names for sets of lines and of regions: (line cells, region cells, line text,
    region text)."""
    regions = board.regions
    return (
        lambda s: _mask_of_lines(lines, s),
        lambda s: _union(regions, _bits(s)),
        lambda s: _lines_text(word, s),
        lambda s: _regions_text(board, _bits(s)),
    )

def _confine_within(
    board: Board, cand: int, queens: int, sets: list[int], outer_cells: Cells, inner_cells: Cells,
    outer_text: Text, inner_text: Text, words: tuple[str, str, str], tag: int, log: list[Step] | None,
) -> State | None:
    """m inner units (regions, or lines) whose candidates lie within m outer units (lines, or
    regions) hold all the queens of those outer units: the outer units' other cells are cleared.
    `sets[g]` is the set of outer units inner unit g still touches. For k>1, m-1 inner units
    within m outer units leave a group of cells that holds exactly k queens (`_settle_group`)."""
    n, k = board.n, board.k
    crowded, confined_one, confined_many = words
    for span in _spans(sets, n):
        width = span.bit_count()
        inside = 0  # the inner units within the outer units of span
        for g, s in enumerate(sets):
            if not s & ~span:
                inside |= 1 << g
        count = inside.bit_count()
        if count == width - 1 and k > 1:
            key = (span << n | inside) << 2 | tag
            rest = board.groups.get(key)
            if rest is None:
                rest = board.groups[key] = outer_cells(span) & ~inner_cells(inside)
            if not rest & cand and (rest & queens).bit_count() == k:
                continue  # the usual case, and a cheap one: its queens are all placed
            state = _settle_group(
                board, cand, queens, rest,
                lambda span=span, inside=inside: f"{outer_text(span)} outside {inner_text(inside)}",
                log,
            )
            if state is None:
                return None
            cand, queens = state
            continue
        if count < width:
            continue
        if count > width:
            return _contradiction(board, f"{inner_text(inside)} {crowded} {outer_text(span)}: too many", log)
        drop = cand & outer_cells(span) & ~inner_cells(inside)
        if drop:
            if log is not None:
                verb = confined_many if width > 1 else confined_one
                log.append(
                    Step(
                        f"{inner_text(inside)} {verb} {outer_text(span)}: remove {board.names(drop)}",
                        board.cells(drop),
                        kind="confine",
                    )
                )
            cand &= ~drop
    return cand, queens


def _union(masks: tuple[int, ...], chosen: list[int]) -> int:
    out = 0
    for i in chosen:
        out |= masks[i]
    return out


def _settle_group(
    board: Board, cand: int, queens: int, group: int, about: Describe, log: list[Step] | None
) -> State | None:
    """For k>1, a set of cells that holds exactly k queens without being a unit (what is left of
    m+1 lines beyond m regions inside them, or of m+1 regions beyond m lines): treat it as a unit
    for singles, crowding and the 2x2 block cover. `about()` names the set, for explanations."""
    k = board.k
    live = group & cand
    need = k - (group & queens).bit_count()
    if not (live or need):
        return cand, queens  # the group is done
    spare = live.bit_count() - need
    if spare < 0:
        return _contradiction(board, f"{about()} hold {k} queens but too few candidates remain", log)
    if need == 0:
        if live and log is not None:
            text = f"{about()} hold exactly {k} queens, all placed: remove {board.names(live)}"
            log.append(Step(text, board.cells(live), kind="confine"))
        return cand & ~live, queens
    if spare == 0:
        if log is not None:
            text = f"{about()} hold exactly {k} queens: {board.names(live)} must hold them"
            log.append(Step(text, board.cells(live), kind="confine"))
        state = place(board, cand, queens, live)
        return state or _contradiction(board, f"{about()}: forced queens touch", log)
    if spare <= 3:
        key = live << 2 | spare
        crowded = board.crowding.get(key)
        if crowded is None:
            crowded = board.crowding[key] = _crowding(board.neighbours, live, spare)
        crowded &= cand
        if crowded:
            if log is not None:
                text = (
                    f"{about()} hold exactly {k} queens: a queen on {board.names(crowded)} would leave "
                    "too few candidates there"
                )
                log.append(Step(text, board.cells(crowded), kind="confine"))
            cand &= ~crowded
    live = (cand | queens) & group
    if live.bit_count() > 4 * k:
        return cand, queens  # more than k 2x2 blocks: the cover tells nothing
    blocks = board.covers.get(live)
    if blocks is None:
        blocks = board.covers[live] = _greedy_cover(board, live)
    if len(blocks) < k:
        return _contradiction(board, f"{about()} hold {k} queens but only {len(blocks)} fit", log)
    if len(blocks) == k:
        return _settle_blocks(board, cand, queens, blocks, lambda: f"{about()} hold {k} queens", k, log)
    return cand, queens


def count_blocks(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1, lines and bands of two adjacent lines, both ways.

    A line holds k queens, no two side by side; two adjacent rows (columns) hold 2k queens and a
    2x2 block holds at most one, since queens may not touch. Covering the live cells greedily
    from one end with 1-wide gaps (a line) or 2x2 blocks (a band) gives the most queens that
    fit: fewer than needed is a contradiction; exactly as many pins each queen between its
    leftmost and rightmost greedy place (a line), or puts one queen in every block (a band: see
    `_settle_blocks`). The line sets are taken once per call: after a deduction they hold
    more cells than are live, which keeps every later deduction of the call sound."""
    n, k, fit = board.n, board.k, board.fit
    full = (1 << n) - 1
    live = cand | queens
    row_live = [live >> (r * n) & full for r in range(n)]
    band_covers = board.band_covers
    for horizontal, lines, band_cells, masks in (
        (True, row_live, board.band_cells[0], board.band_masks[0]),
        (False, _transpose(row_live, n), board.band_cells[1], board.band_masks[1]),
    ):
        for a in range(n):
            if (fit[lines[a]] if fit else _greedy_count(lines[a], k + 1)) <= k:
                state = _fit_line(board, cand, queens, lines[a], a, horizontal, log)
                if state is None:
                    return None
                cand, queens = state
        for a in range(n - 1):
            band = lines[a] | lines[a + 1]
            if (fit[band] if fit else _greedy_count(band, 2 * k + 1)) > 2 * k:
                continue
            key = (((cand | queens) & masks[a]) << n | band) << 1 | horizontal
            blocks = band_covers.get(key, False)
            if blocks is False:
                blocks = band_covers[key] = _band_blocks(band, 2 * k, band_cells[a], cand | queens)
            if blocks is None:
                what = _band_text(a, horizontal)
                return _contradiction(board, f"{what} fit fewer than {2 * k} queens", log)
            state = _settle_blocks(
                board, cand, queens, blocks,
                lambda a=a, h=horizontal: f"{_band_text(a, h)} need {2 * k} queens", 2 * k, log,
            )
            if state is None:
                return None
            cand, queens = state
    return cand, queens


def cover_regions(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1: cover a region's live cells with 2x2 blocks, greedily in reading order. A block
    holds at most one queen, so fewer blocks than k is a contradiction, and exactly k puts one
    queen in each block (see `_settle_blocks`)."""
    k, covers = board.k, board.covers
    for g, region in enumerate(board.regions):
        live = (cand | queens) & region
        blocks = covers.get(live)
        if blocks is None:
            blocks = covers[live] = _greedy_cover(board, live)
        if len(blocks) > k:
            continue
        about = lambda g=g: f"region {board.puzzle.labels[g]} needs {k} queens"  # noqa: E731
        if len(blocks) < k:
            return _contradiction(board, f"{about()} but only {len(blocks)} fit", log)
        state = _settle_blocks(board, cand, queens, blocks, about, k, log)
        if state is None:
            return None
        cand, queens = state
    return cand, queens


def _greedy_cover(board: Board, live: int) -> list[int]:
    """Disjoint 2x2-square pieces covering `live`, greedily in reading order (stopping at k+1)."""
    k = board.k
    right, left = board.squares
    blocks = []
    while live and len(blocks) <= k:
        i = (live & -live).bit_length() - 1
        a, b = live & right[i], live & left[i]
        block = a if a.bit_count() >= b.bit_count() else b
        blocks.append(block)
        live ^= block
    return blocks


def _settle_blocks(
    board: Board, cand: int, queens: int, blocks: list[int], about: Describe, count: int,
    log: list[Step] | None,
) -> State | None:
    """Each of `blocks` (disjoint cell sets, each inside a 2x2 square) holds exactly one queen:
    a block with one cell left gets the queen, and a cell outside a block that would take all
    of the block's cells goes."""
    touching = board.touching_all
    forced = 0
    drop = 0
    for block in blocks:
        if block & queens:
            continue
        if not block & (block - 1):
            forced |= block
            continue
        common = touching.get(block)
        if common is None:
            common = touching[block] = _touching_all(board, block)
        drop |= common
    drop &= cand
    forced &= cand
    if not (drop or forced):
        return cand, queens
    if log is not None:
        done = []
        if forced:
            verb = "are" if forced & (forced - 1) else "is"
            done.append(f"{board.names(forced)} {verb} the last cell of its block")
        if drop:
            done.append(f"remove {board.names(drop)}: a queen there would touch a whole block")
        log.append(
            Step(
                f"{about()} in {count} separate 2x2 blocks, one in each: {'; '.join(done)}",
                board.cells(forced | drop),
                kind="block",
            )
        )
    state = place(board, cand & ~drop, queens, forced)
    if state is None:
        return _contradiction(board, f"{about()}: the queens forced by its blocks touch", log)
    return state


def _touching_all(board: Board, block: int) -> int:
    """The cells outside `block` that a queen would take every cell of `block` from."""
    kill = board.kill
    rest = block
    common = -1
    while rest:
        low = rest & -rest
        common &= kill[low.bit_length() - 1]
        rest ^= low
    return common & ~block


def _greedy_count(x: int, stop: int) -> int:
    """How many of the set bits of x can be picked with no two adjacent (counting up to `stop`)."""
    count = 0
    while x and count < stop:
        low = x & -x
        x &= ~(low | low << 1)
        count += 1
    return count


def _greedy_low(x: int) -> list[int]:
    """Positions picked from the low end, skipping each pick's neighbour."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x &= ~(low | low << 1)
    return out


def _greedy_high(x: int) -> list[int]:
    """Positions picked from the high end, lowest first."""
    out = []
    while x:
        i = x.bit_length() - 1
        out.append(i)
        x &= ~(3 << i >> 1)
    out.reverse()
    return out


def _fit_line(
    board: Board, cand: int, queens: int, line: int, a: int, horizontal: bool, log: list[Step] | None
) -> State | None:
    k, n = board.k, board.n
    pinned = board.line_fits.get(line)
    if pinned is None:
        pinned = board.line_fits[line] = _pin_line(line, k)
    if pinned[0] < 0:
        name = f"{'row' if horizontal else 'column'} {a + 1}"
        return _contradiction(board, f"{name} fits fewer than {k} queens apart", log)
    outside, forced_at = pinned
    if horizontal:
        drop = outside << a * n
        forced = forced_at << a * n
    else:
        drop = _spread(outside, n) << a
        forced = _spread(forced_at, n) << a
    drop &= cand
    forced &= cand
    if not (drop or forced):
        return cand, queens
    name = f"{'row' if horizontal else 'column'} {a + 1}"
    if log is not None:
        what = []
        if forced:
            what.append(f"{board.names(forced)} must hold {'queens' if forced & (forced - 1) else 'a queen'}")
        if drop:
            what.append(f"remove {board.names(drop)}")
        log.append(
            Step(
                f"{name} has room for exactly {k} queens not side by side: {'; '.join(what)}",
                board.cells(forced | drop),
                kind="line",
            )
        )
    cand &= ~drop
    return place(board, cand, queens, forced) or _contradiction(board, f"{name}: forced queens touch", log)


def _pin_line(line: int, k: int) -> tuple[int, int]:
    """For a line whose live positions fit at most k queens: the positions no queen can take and
    the positions a queen must take; (-1, 0) when fewer than k fit. The i-th queen from the left
    lies between the i-th greedy pick from the left and the i-th from the right."""
    low, high = _greedy_low(line), _greedy_high(line)
    if len(low) < k:
        return -1, 0
    allowed = forced = 0
    for lo, hi in zip(low, high):
        allowed |= ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
        if lo == hi:
            forced |= 1 << lo
    return line & ~allowed, forced


def _band_blocks(band: int, need: int, cells: tuple[int, ...], live: int) -> list[int] | None:
    """The live cells of each block of a band's greedy covers from both ends, when they have
    exactly `need` blocks (the most queens that fit); [] when more fit; None when fewer do.
    `band` has a bit per cross position holding a live cell; `cells[p]` are the band's cells at
    position p (with a 0 after the last)."""
    out = []
    for reverse in (False, True):
        x = band
        count = 0
        while x:
            if reverse:
                i = x.bit_length() - 1
                block = cells[i] | (cells[i - 1] if i else 0)
                x &= ~(3 << i >> 1)
            else:
                low = x & -x
                i = low.bit_length() - 1
                block = cells[i] | cells[i + 1]
                x &= ~(3 * low)
            out.append(block & live)
            count += 1
        if count < need:
            return None
        if count > need:
            return []
    return out


def trial(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1, a bounded trial: put a queen on each candidate of a tight unit in turn, propagate
    with the other rules, and keep what holds whichever way the unit is filled. The unit's next
    queen is on one of its candidates, so a candidate whose trial ends in a contradiction goes, a
    cell that no surviving trial leaves in play goes, and a queen every surviving trial places is
    forced. Bounded: only units with at most TRIAL_SLACK candidates to spare are tried (each trial
    costs a full propagation, and a roomy unit's trials seldom agree on anything), and the trials
    themselves propagate without trials."""
    k = board.k
    probes: dict[int, State | None] = {}  # a cell's trial, shared by its row, column and region
    drop = forced = 0
    tried: list[int] = []  # the units whose trials found something, for the explanation
    for u, unit in enumerate(board.units):
        need = k - (unit & queens).bit_count()
        live = cand & unit
        if not need or live.bit_count() - need > TRIAL_SLACK:
            continue
        found = _trial_unit(board, cand, queens, live, probes)
        if found is None:
            return _contradiction(board, f"every queen {board.puzzle.unit_name(u)} could take fails", log)
        if (found[0] & ~drop) or (found[1] & ~forced):
            tried.append(u)
        drop |= found[0]
        forced |= found[1]
    if not (drop or forced):
        return cand, queens
    if log is not None:
        log.append(_trial_step(board, tried, drop, forced))
    state = place(board, cand & ~drop, queens, forced)
    return state or _contradiction(board, "the queens every trial places touch", log)


def _trial_unit(
    board: Board, cand: int, queens: int, live: int, probes: dict[int, State | None]
) -> State | None:
    """Try a queen on each cell of `live` (an open unit's candidates): the cells to remove and the
    queens forced, or None when every trial fails."""
    reach, common = 0, -1  # over the surviving trials: the cells left in play, the queens in all
    failed = 0
    while live:
        low = live & -live
        live ^= low
        if low not in probes:
            state = place(board, cand, queens, low)
            probes[low] = state and fixed_point(board, state[0], state[1], RULES_MANY)
        state = probes[low]
        if state is None:
            failed |= low
        else:
            reach |= state[0] | state[1]
            common &= state[1]
    if common == -1:
        return None
    return failed | cand & ~reach, common & ~queens


# Why it stays, and where: measured on every k>1 shared set (benchmarks/starbattle.py). With
# slack 1, trials at every node halve the nodes of 17-4-sample (505 -> 296 a puzzle), slack 2
# cuts them 3.5x (-> 147), but each node then runs 10-40 full propagations, so the time goes up
# 1.3-2x; at the root only they save nodes (14-3-hard 1.6 -> 1.0) and cost up to 29% time (see
# TRIAL_DEPTH in solver/search.py for the figures). Slack 0 finds nothing settle_units misses. A
# cheaper trial propagation (settle_units, cover_regions and count_blocks only) found less and was
# no faster. So the search leaves trials out (solver.search.TRIAL_DEPTH) and `explain` runs them at
# the root, where one trial step replaces a guess and its backtracking for the reader.
TRIAL_SLACK = 1


def _trial_step(board: Board, units: list[int], drop: int, forced: int) -> Step:
    names = ", ".join(board.puzzle.unit_name(u) for u in units)
    done = []
    if forced:
        done.append(f"{board.names(forced)} {'hold queens' if forced & (forced - 1) else 'holds a queen'} "
                    "whichever way")
    if drop:
        done.append(f"remove {board.names(drop)}: no trial leaves a queen there")
    return Step(
        f"try a queen on each candidate of {names} in turn and propagate: {'; '.join(done)}",
        board.cells(drop | forced),
        kind="trial",
    )


RULES = (settle_units, eliminate_attackers, confine)
# For k>1 squeeze_units stands in for eliminate_attackers (it finds what that does, and more).
# Its place was measured: run early it reruns after every small step, and the boards that
# propagation alone solves (21x21, 25x25) got slower than before it existed.
RULES_MANY = (settle_units, cover_regions, count_blocks, squeeze_units, confine)
# Why each k>1 rule stays: the search with the rule left out against the search with all of them
# (benchmarks/starbattle.py --ablate: first 200 of each shared k>1 set and games/stars4-17-hard;
# nodes a puzzle, mean; time as the ratio without/with, mean, over two runs on a shared machine,
# where identical solvers differ by up to 10% in mean, so only larger ratios count):
# - cover_regions: slower without it on every set: hard 17x17 1.37-1.45x (nodes 864 -> 997),
#   17-4 1.20-1.51x, 25-6 1.62-1.69x, 21-5 1.44-1.51x, 14-3 1.30-1.64x, 9-2 and 10-2 1.07-1.12x.
# - count_blocks: the rule the big boards live on: without it the hard 17x17 set takes 6x the
#   time (nodes 864 -> 16,111), 17-4 5.9-6.9x (506 -> 8,700), 21-5 1.6-1.7x. On 9-2 .. 14-3 it
#   costs 2-17% of the mean and keeps the worst cases down (max 1.24-1.76x without it).
# - squeeze_units: hard 17x17 1.22-1.39x without it (nodes 864 -> 1,692), 10-2 worst case
#   1.58-1.71x (max nodes 76 -> 217), 9-2 1.08x; elsewhere within the noise.
# - confine: the node saver of the 2-star sets: 11-2-hard 1.20-1.26x without it (worst 3.5-3.8x,
#   nodes 3.7 -> 16.8), 10-2 1.09-1.11x (nodes 13.5 -> 37.2). It costs 5-13% on 14-3, 21-5, 25-6
#   and the 17x17 sets (hard set 0.87-0.95x without it although its nodes go 864 -> 987). Kept:
#   on the 2-star sets, the largest, it saves most.
# - trial: see TRIAL_SLACK above; the search runs without it.
RULES_WITH_TRIAL = RULES_MANY + (trial,)


def propagate(
    board: Board, cand: int, queens: int, log: list[Step] | None = None, *, trials: bool = False
) -> State | None:
    """Apply the rules, cheapest first, until none changes anything; None on a contradiction.
    After any rule makes progress the cheap ones run again before the dearer ones. With `trials`
    (k>1 only) the bounded `trial` runs last, when the others have stalled."""
    rules = RULES if board.k == 1 else RULES_WITH_TRIAL if trials else RULES_MANY
    return fixed_point(board, cand, queens, rules, log)


def fixed_point(
    board: Board, cand: int, queens: int, rules: Sequence[Deduction], log: list[Step] | None = None
) -> State | None:
    """Run `rules` until none changes anything; None on a contradiction. After a rule makes
    progress the first rule runs again (unless it was the one: it settles to its own fixed point)."""
    i = 0
    while i < len(rules):
        state = rules[i](board, cand, queens, log)
        if state is None:
            return None
        if state[0] != cand:
            cand, queens = state
            i = 0 if i else 1
        else:
            i += 1
    return cand, queens



# --- wording for explanations -------------------------------------------------------------------


def _contradiction(board: Board, why: str, log: list[Step] | None) -> None:
    if log is not None:
        log.append(Step(f"contradiction: {why}", kind="contradiction"))
    return None


def _short(board: Board, u: int, live: int, need: int) -> str:
    name = board.puzzle.unit_name(u)
    if not live:
        return f"{name} has no candidates left"
    return f"{name} needs {need} more queens but has {live.bit_count()} candidate(s)"


def _single_step(board: Board, u: int, live: int, need: int) -> Step:
    name = board.puzzle.unit_name(u)
    if need == 1:
        text = f"{name} has one candidate left: {board.names(live)}"
    else:
        text = f"{name} needs {need} more queens and has exactly {need} candidates: {board.names(live)}"
    return Step(text, board.cells(live), kind="single")


def _bits(s: int) -> list[int]:
    out = []
    while s:
        low = s & -s
        out.append(low.bit_length() - 1)
        s ^= low
    return out


def _mask_of_lines(lines: tuple[int, ...], span: int) -> int:
    """The cells of the lines (rows or columns, as `lines`) whose numbers are set in `span`."""
    key = span, lines[0]  # lines[0] tells rows from columns
    mask = _LINE_MASKS.get(key)
    if mask is None:
        mask = _LINE_MASKS[key] = _join_lines(lines, span)
    return mask


_LINE_MASKS: dict[tuple[int, int], int] = {}


def _join_lines(lines: tuple[int, ...], span: int) -> int:
    mask = 0
    for line in _bits(span):
        mask |= lines[line]
    return mask


def _lines_text(word: str, span: int) -> str:
    """Lines by 1-based number, runs joined: "rows 1-2", "columns 1, 3", "row 4"; `word` is
    "rows" or "columns"."""
    numbers = [i + 1 for i in _bits(span)]
    runs: list[list[int]] = []
    for x in numbers:
        if runs and runs[-1][-1] == x - 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    text = ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)
    return f"{word if len(numbers) > 1 else word[:-1]} {text}"


def _regions_text(board: Board, groups: list[int]) -> str:
    labels = ", ".join(board.puzzle.labels[g] for g in groups)
    return f"region{'s' if len(groups) > 1 else ''} {labels}"


def _band_text(a: int, horizontal: bool) -> str:
    return f"{'rows' if horizontal else 'columns'} {a + 1}-{a + 2}"
