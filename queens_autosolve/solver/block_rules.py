"""The block rules, for k > 1 (Star Battle): no two queens touch, so a 2x2 block holds one queen
at most, and a unit, a band of two lines or a group of cells has room for only so many queens.
They count that room: cover_regions, count_blocks, and the k > 1 halves of the unit rules
(eliminate_crowders for eliminate_attackers, settle_group for confine); squeeze_units, in
solver/squeeze_rules.py, and cut_regions, in solver/cut_rules.py, count it too.

Every rule has the shape ``rule(board, cand, queens, log) -> (cand, queens) | None`` (see
solver/unit_rules.py). Vocabulary as in solver/board.py; what the rules work out about a board's
sets of cells is kept in its `Memo`.
"""

from __future__ import annotations

from functools import lru_cache

from queens_autosolve.solver.board import (
    GONE_LIMIT,
    Board,
    Cover,
    LinesSeen,
    State,
    Step,
    as_column,
    bits,
    changed_units,
    place,
    remember,
    transpose,
)
from queens_autosolve.solver.patterns import band_pairs, cover_starts, greedy_count, line_pins, pin_line
from queens_autosolve.solver.wording import (
    Describe,
    attack_step,
    band_text,
    blocks_step,
    contradiction,
    group_crowded_step,
    group_done_step,
    group_forced_step,
    line_name,
    line_step,
)


def cover_regions(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1: cover a region's live cells with 2x2 blocks, greedily in reading order. A block
    holds at most one queen, so fewer blocks than k is a contradiction, and exactly k puts one
    queen in each block (see `settle_blocks`)."""
    k, n, memo = board.k, board.n, board.memo
    covers = memo.covers
    live_before = cand | queens
    region_masks = board.region_masks
    # the regions whose live cells changed since the last call settled them (-1: all of them),
    # walked bit by bit: few have changed (docs/notes.md)
    todo = changed_units(board, memo.covered, cand, live_before, live_before) >> 2 * n
    for g in bits(todo & (1 << len(region_masks)) - 1):
        live = (cand | queens) & region_masks[g]
        cover = covers.get(live)
        if cover is None:
            cover = covers[live] = region_cover(board, live)
        count, singles, touching = cover
        if count > k:
            continue
        if count < k:
            memo.blame = 1 << (2 * n + g)
            return contradiction(f"{_region_needs(board, g)()} but only {count} fit", log)
        if (singles | touching) & cand:
            state = settle_blocks(board, cand, queens, singles, touching, _region_needs(board, g), k, log)
            if state is None:
                memo.blame = 1 << (2 * n + g)
                return None
            cand, queens = state
    # The live cells of the call's start: a region looked at early may lose cells to a later one
    memo.covered = (cand, cand | queens, live_before)
    return cand, queens


def _region_needs(board: Board, g: int) -> Describe:
    return lambda: f"{board.puzzle.region_name(g)} needs {board.k} queens"


def count_blocks(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1, lines and bands of two adjacent lines, both ways.

    A line holds k queens, no two side by side; two adjacent rows (columns) hold 2k queens and a
    2x2 block holds at most one, since queens may not touch. Covering the live cells greedily
    from one end with 1-wide gaps (a line) or 2x2 blocks (a band) gives the most queens that
    fit: fewer than needed is a contradiction; exactly as many pins each queen between its
    leftmost and rightmost greedy place (a line), or puts one queen in every block (a band: see
    `settle_blocks`). The line patterns are taken once per call: after a deduction they hold
    more cells than are live, which keeps every later deduction of the call sound.

    Only the lines and bands whose patterns changed since the last call are looked at, when
    this state lies within what that call left (`_lines_to_look_at`): what an unchanged line or
    band could settle, that call settled."""
    n, k, fit = board.n, board.k, board.fit
    live = live_start = cand | queens
    memo = board.memo
    band_covers = memo.band_covers
    pins = line_pins(n, k)
    spreads = _band_spreads(n, 2 * k)
    row_live, col_live, todo = _lines_to_look_at(board, memo.lines_seen, cand, live)
    for horizontal, patterns, masks, lines in (
        (True, row_live, board.band_masks[0], todo[0]),
        (False, col_live, board.band_masks[1], todo[1]),
    ):
        rest = lines
        while rest:
            low = rest & -rest
            rest ^= low
            a = low.bit_length() - 1
            pattern = patterns[a]
            if (fit[pattern] if fit else greedy_count(pattern, k + 1)) > k:
                continue
            pinned = pins.get(pattern)
            if pinned is None:
                pinned = remember(pins, pattern, pin_line(pattern, k))
            if pinned[0] < 0:
                memo.blame = 1 << (a if horizontal else n + a)
                return contradiction(f"{line_name(a, horizontal)} fits fewer than {k} queens apart", log)
            at = pinned[0] | pinned[1]
            if (at << a * n if horizontal else as_column(at, n) << a) & cand:
                state = _fit_line(board, cand, queens, pinned, a, horizontal, log)
                if state is None:
                    memo.blame = 1 << (a if horizontal else n + a)
                    return None
                cand, queens = state
        rest = (lines | lines >> 1) & ((1 << (n - 1)) - 1)  # band a is lines a and a+1
        while rest:
            low = rest & -rest
            rest ^= low
            a = low.bit_length() - 1
            band = patterns[a] | patterns[a + 1]
            room = fit[band] if fit else greedy_count(band, 2 * k + 1)
            if room > 2 * k:
                continue
            if room < 2 * k:
                memo.blame = 3 << (a if horizontal else n + a)
                return contradiction(f"{band_text(a, horizontal)} fit fewer than {2 * k} queens", log)
            if not cand & masks[a]:
                continue  # nothing left to settle
            live = cand | queens
            key = ((live & masks[a]) << n | band) << 1 | horizontal  # see Memo.band_covers
            settles = band_covers.get(key)
            if settles is None:
                settles = band_covers[key] = _band_settles(board, spreads, band, a, horizontal, live)
            singles, touching = settles
            if (singles | touching) & cand:
                about = _band_needs(a, horizontal, 2 * k)
                state = settle_blocks(board, cand, queens, singles, touching, about, 2 * k, log)
                if state is None:
                    memo.blame = 3 << (a if horizontal else n + a)
                    return None
                cand, queens = state
    memo.lines_seen = (cand, cand | queens, live_start, row_live, col_live)
    return cand, queens


def _lines_to_look_at(
    board: Board, seen: LinesSeen | None, cand: int, live: int
) -> tuple[list[int], list[int], tuple[int, int]]:
    """For count_blocks: the rows' and the columns' live patterns, and the rows and the columns
    to look at (n-bit sets): those that lost a live cell since its last call started, when this
    state lies within what that call left (see changed_units); else all of them."""
    n = board.n
    if seen is not None and not (cand & ~seen[0] or live & ~seen[1]):
        gone = seen[2] & ~live
        if gone.bit_count() <= GONE_LIMIT:
            rows, cols = list(seen[3]), list(seen[4])
            todo_rows = todo_cols = 0
            while gone:
                low = gone & -gone
                gone ^= low
                r, c = divmod(low.bit_length() - 1, n)
                rows[r] &= ~(1 << c)
                cols[c] &= ~(1 << r)
                todo_rows |= 1 << r
                todo_cols |= 1 << c
            return rows, cols, (todo_rows, todo_cols)
    full = (1 << n) - 1
    rows = [live >> (r * n) & full for r in range(n)]
    return rows, transpose(rows, n), (full, full)


def _band_settles(
    board: Board, spreads: dict[int, Spread], band: int, a: int, horizontal: bool, live: int
) -> tuple[int, int]:
    """What the covers of the band of lines a and a+1 settle (see block_settles), its live
    positions across being `band` and its live cells those of `live`; (0, 0) when more than 2k
    queens fit. `spreads` is `_band_spreads` for the board. Worked out for all the blocks of a
    cover at once (`_cover_settles`) when queens touch as kings do (faster: docs/solver.md),
    else block by block."""
    n = board.n
    if board.puzzle.rule != "touch":
        return _band_settles_by_block(board, band, a, horizontal, live)
    found = spreads.get(band)
    if found is None:
        pairs = band_pairs(band, 2 * board.k) or ()  # None (too few fit) is caught before
        starts = cover_starts(pairs) if pairs else (0, 0, 0, 0)
        found = remember(spreads, band, (starts, (
            as_column(starts[0], n), as_column(starts[1], n), as_column(starts[2], n), as_column(starts[3], n)
        )))
    if horizontal:  # on small ints: the band's rows moved down to rows 0 and 1
        shift = a * n
        row_bits = (1 << n) - 1
        singles, touching, up, down = _cover_settles(
            live >> shift & row_bits, live >> shift + n & row_bits, found[0], 1, n, row_bits)
        touching <<= shift
        if a:
            touching |= up << shift - n
        if a + 2 < n:
            touching |= down << shift + 2 * n
        return singles << shift, touching
    line = board.cols[a]
    p1, q1, p2, q2 = found[1]
    singles, touching, up, down = _cover_settles(
        live & line, live >> 1 & line, (p1 << a, q1 << a, p2 << a, q2 << a), n, 1, line)
    if a:
        touching |= up >> 1
    if a + 2 < n:
        touching |= down << 2
    return singles, touching


def _cover_settles(
    top: int, bottom: int, starts: tuple[int, int, int, int], along: int, across: int, line: int
) -> tuple[int, int, int, int]:
    """What the two covers of a band settle (block_settles, for queens that touch as kings do),
    for all their blocks at once. The band's lines a and a+1 are seen on line a (`line`, its
    cells): `top` and `bottom` are their live cells; `starts` where each cover's blocks start
    and which of those are two positions wide (`cover_starts`); `along` is the step from one
    position to the next, `across` from line a to line a+1. Returns (singles, touching) of the
    band's lines, and apart the touching cells of lines a-1 and a+2, seen on line a.

    A queen takes the 3x3 square around it, so the cells that touch all of a block's (two or
    more) cells make up the rectangle of lines max-1 .. min+1 and positions max-1 .. min+1 of
    its cells, less the block: a block in both lines reaches no further across, one in both
    positions no further along."""
    singles = touching = up = down = 0
    top_next, bottom_next = top >> along, bottom >> along
    p1, q1, p2, q2 = starts
    for begin, wide in ((p1, q1), (p2, q2)):
        t0, t1 = top & begin, top_next & wide  # each block's cells, at its start
        b0, b1 = bottom & begin, bottom_next & wide
        two = t0 & t1 | b0 & b1 | (t0 ^ t1) & (b0 ^ b1)  # blocks with two cells or more
        one = (t0 | t1 | b0 | b1) & ~two
        if one:
            singles |= t0 & one | (t1 & one) << along | (b0 & one | (b1 & one) << along) << across
        if not two:
            continue
        top_cells, bottom_cells = t0 | t1, b0 | b1
        # both cells at the start (positions start-1 .. start+1) or both after it (start .. start+2)
        ends = (two & ~(t1 | b1)) >> along | (two & ~(t0 | b0)) << 2 * along
        touching |= (ends | two & ~t0 | (two & ~t1) << along) & line
        touching |= ((ends | two & ~b0 | (two & ~b1) << along) & line) << across
        above = two & ~bottom_cells  # only in line a: two cells side by side, reaching line a-1
        below = two & ~top_cells  # only in line a+1, reaching line a+2
        up |= above | above << along
        down |= below | below << along
    return singles, touching, up, down


# See _band_spreads
Spread = tuple[tuple[int, int, int, int], tuple[int, int, int, int]]


@lru_cache(maxsize=16)
def _band_spreads(n: int, need: int) -> dict[int, Spread]:
    """For `_band_settles`: a band's live positions across -> where the blocks of its covers
    start (`cover_starts`), on row 0 and on column 0."""
    return {}


def _band_settles_by_block(board: Board, band: int, a: int, horizontal: bool, live: int) -> tuple[int, int]:
    """`_band_settles` block by block (see block_settles), for any touching rule."""
    n = board.n
    pairs = band_pairs(band, 2 * board.k) or ()
    if horizontal:
        blocks = [(pair << n | pair) << a * n & live for pair in pairs]
    else:
        blocks = [as_column(pair, n) * 3 << a & live for pair in pairs]
    return block_settles(board, blocks)


def _band_needs(a: int, horizontal: bool, count: int) -> Describe:
    return lambda: f"{band_text(a, horizontal)} need {count} queens"


def eliminate_crowders(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """eliminate_attackers for k>1: a queen on x takes the unit's candidates next to x, so x
    goes when more of them touch x than the unit has to spare (candidates minus queens needed);
    the touches are counted for all cells at once, one bit plane per binary digit (`crowding`)."""
    units, k = board.units, board.k
    crowded_by = board.memo.crowded
    for u, unit in enumerate(units):
        live = cand & unit
        spare = live.bit_count() - k + (unit & queens).bit_count()
        if spare < 0 or spare > 3 or not live:
            continue  # too few: settle_units reports it; lots to spare: nothing to find cheaply
        crowded = crowded_by[spare].get(live)
        if crowded is None:
            crowded = crowded_by[spare][live] = crowding(board.neighbours, live, spare)
        crowded &= cand
        if crowded:
            if log is not None:
                log.append(attack_step(board, u, crowded))
            cand &= ~crowded
    return cand, queens


def settle_group(
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
        return contradiction(f"{about()} hold {k} queens but too few candidates remain", log)
    if need == 0:
        if live and log is not None:
            log.append(group_done_step(board, about(), live))
        return cand & ~live, queens
    if spare == 0:
        if log is not None:
            log.append(group_forced_step(board, about(), live))
        state = place(board, cand, queens, live)
        return state or contradiction(f"{about()}: forced queens touch", log)
    if spare <= 3:
        crowded_by = board.memo.crowded[spare]
        crowded = crowded_by.get(live)
        if crowded is None:
            crowded = crowded_by[live] = crowding(board.neighbours, live, spare)
        crowded &= cand
        if crowded:
            if log is not None:
                log.append(group_crowded_step(board, about(), crowded))
            cand &= ~crowded
    live = (cand | queens) & group
    if live.bit_count() > 4 * k:
        return cand, queens  # more than k 2x2 blocks: the cover tells nothing
    covers = board.memo.covers
    cover = covers.get(live)
    if cover is None:
        cover = covers[live] = region_cover(board, live)
    count, singles, touching = cover
    if count < k:
        return contradiction(f"{about()} hold {k} queens but only {count} fit", log)
    if count == k and (singles | touching) & cand:
        hold: Describe = lambda: f"{about()} hold {k} queens"  # noqa: E731
        return settle_blocks(board, cand, queens, singles, touching, hold, k, log)
    return cand, queens


# --- blocks -------------------------------------------------------------------------------------


def greedy_cover(board: Board, live: int, stop: int | None = None) -> list[int]:
    """Disjoint 2x2-square pieces covering `live`, greedily in reading order (stopping at
    `stop` + 1, by default k + 1)."""
    stop = board.k if stop is None else stop
    right, left = board.squares
    blocks: list[int] = []
    while live and len(blocks) <= stop:
        i = (live & -live).bit_length() - 1
        a, b = live & right[i], live & left[i]
        block = a if a.bit_count() >= b.bit_count() else b
        blocks.append(block)
        live ^= block
    return blocks


def region_cover(board: Board, live: int, stop: int | None = None) -> Cover:
    """The greedy 2x2 cover of `live` (see greedy_cover) as (blocks, singles, touching): how many
    blocks it takes (up to `stop` + 1, by default k + 1) and, when that is `stop` or fewer, what
    `block_settles` finds."""
    stop = board.k if stop is None else stop
    blocks = greedy_cover(board, live, stop)
    if len(blocks) > stop:
        return len(blocks), 0, 0
    return (len(blocks), *block_settles(board, blocks))


def block_settles(board: Board, blocks: list[int]) -> tuple[int, int]:
    """What it settles that each of `blocks` (disjoint cell sets, each inside a 2x2 square)
    holds exactly one queen: (singles, touching), the cells of the blocks with one cell left
    (each holds the block's queen) and the cells outside a block that would take all of it.
    Cached with the cover, and so found once for all the states that share those live cells:
    a block never holds a queen and a candidate at once (a queen takes its neighbours), so which
    of these cells still matter is just which are candidates."""
    touching = board.memo.touching_all
    singles = drop = 0
    for block in blocks:
        if not block & (block - 1):
            singles |= block
            continue
        common = touching.get(block)
        if common is None:
            common = touching[block] = _touching_all(board, block)
        drop |= common
    return singles, drop


def settle_blocks(
    board: Board, cand: int, queens: int, singles: int, touching: int, about: Describe, count: int,
    log: list[Step] | None,
) -> State | None:
    """`count` blocks hold one queen each (see block_settles): the candidates among `singles`
    get queens, those among `touching` go."""
    drop = touching & cand
    forced = singles & cand
    if not (drop or forced):
        return cand, queens
    if log is not None:
        log.append(blocks_step(board, about(), count, forced, drop))
    state = place(board, cand & ~drop, queens, forced)
    if state is None:
        return contradiction(f"{about()}: the queens forced by its blocks touch", log)
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


def crowding(neighbours: tuple[int, ...], live: int, spare: int) -> int:
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


# --- lines --------------------------------------------------------------------------------------


def _fit_line(
    board: Board, cand: int, queens: int, pinned: tuple[int, int], a: int, horizontal: bool,
    log: list[Step] | None,
) -> State | None:
    """Line a, whose live positions fit at most k queens apart: `pinned` is what `pin_line`
    found for them, (positions no queen can take, positions a queen must take)."""
    n = board.n
    outside, forced_at = pinned
    if horizontal:
        drop = outside << a * n
        forced = forced_at << a * n
    else:
        drop = as_column(outside, n) << a
        forced = as_column(forced_at, n) << a
    drop &= cand
    forced &= cand
    if not (drop or forced):
        return cand, queens
    if log is not None:
        log.append(line_step(board, line_name(a, horizontal), forced, drop))
    cand &= ~drop
    state = place(board, cand, queens, forced)
    return state or contradiction(f"{line_name(a, horizontal)}: forced queens touch", log)
