"""The cut rule, for k > 1: a cut between two adjacent rows (columns) counted against the regions.

The rows above a cut, m of them, hold m*k queens. The regions whose live cells all lie above it
hold k each, so the regions the cut splits hold the rest above it, (m - regions above)*k; the
same below. Each side of the split regions (a *group*) is counted with 2x2 blocks, as a region
is (`block_rules.region_cover`): fewer blocks than its queens is a contradiction, exactly as many
puts one queen in each block; a side that holds no queen loses its candidates.

`confine` (solver/unit_rules.py) does this for the rows one region (line) spans, with at most
one unit left over; this rule takes every cut, both ways, with up to MAX_SPARE units' worth of
queens in a group, and is cheap enough to run in the search (k = CUTS_FROM_K .. CUTS_TO_K in
solver/propagate.py), where confine is not. Vocabulary as in solver/board.py.
"""

from __future__ import annotations

from functools import lru_cache

from queens_autosolve.solver.block_rules import region_cover, settle_blocks
from queens_autosolve.solver.board import Board, CutGroup, CutGroups, State, Step, bits, transpose
from queens_autosolve.solver.unit_rules import region_spans
from queens_autosolve.solver.wording import Describe, contradiction, cut_side_text, group_empty_step

# A group is counted when it holds at most this many units' worth of queens (the lines on its
# side beyond the regions wholly there): more found no fewer nodes (docs/solver.md).
MAX_SPARE = 3
# A block holds 4 cells at most, so a group with more live cells than this many per queen it
# holds has more blocks than queens.
CELLS_PER_QUEEN = 4


def cut_regions(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1: every cut between adjacent rows and between adjacent columns against the regions
    it splits (see the module docstring). A group the last call saw with the same live cells is
    not counted again, when this state lies within what that call left (see changed_units)."""
    if not cand:
        return cand, queens  # all placed (else settle_units finds a unit short): nothing to count
    memo = board.memo
    live_start = cand | queens
    rows_of, cols_of = region_spans(board, live_start)
    seen = memo.cuts_seen
    if seen is not None and (cand & ~seen[0] or live_start & ~seen[1]):
        seen = None  # another branch's call: no guide
    gone = seen[2] & ~live_start if seen is not None else -1
    found: list[CutGroups] = []
    cuts = memo.cuts
    for horizontal, spans in ((True, rows_of), (False, cols_of)):
        # a region's first and last lines alone say which side of each cut it lies on, so more
        # calls find their groups in Memo.cuts
        ends = [span & -span | 1 << span.bit_length() >> 1 for span in spans]
        key = (horizontal, *ends)
        groups = cuts.get(key, _UNSEEN)
        if groups is _UNSEEN:
            groups = cuts[key] = cut_groups(board, ends, horizontal)
        if groups is None:
            why = f"more regions lie wholly beside a cut between {_word(horizontal)} than it has lines there"
            return contradiction(why, log)
        found.append(groups)
        last = None if seen is None else seen[3] if horizontal else seen[4]
        state = _settle_groups(board, cand, queens, groups, last, gone, log)
        if state is None:
            return None
        cand, queens = state
    memo.cuts_seen = (cand, cand | queens, live_start, found[0], found[1])
    return cand, queens


_UNSEEN: CutGroups = {}  # marks a key not in Memo.cuts


def _word(horizontal: bool) -> str:
    return "rows" if horizontal else "columns"


def cut_groups(board: Board, spans: list[int], horizontal: bool) -> CutGroups | None:
    """The groups of the cuts between adjacent rows (`horizontal`) or columns, given each
    region's set of lines with a live cell (`spans`; only its first and last line matter, so
    cut_regions passes those alone), by their cells; None when more regions lie
    wholly on one side of a cut than it has lines. A side that holds no queen joins one group
    of such cells, first."""
    n, k = board.n, board.k
    at = transpose(spans, n)  # at[i]: the regions with a live cell in line i
    below = [0] * (n + 1)  # below[i]: the regions with a live cell in line i or beyond
    for i in range(n - 1, 0, -1):
        below[i] = below[i + 1] | at[i]
    sides = _sides(n, horizontal)
    region_sets = board.memo.region_sets
    groups: CutGroups = {}
    empty = 0
    above = 0  # the regions with a live cell in lines 0 .. cut
    for cut in range(n - 1):
        above |= at[cut]
        after = below[cut + 1]
        split = above & after
        spare_above = cut + 1 - (above & ~after).bit_count()
        spare_below = n - cut - 1 - (after & ~above).bit_count()
        if spare_above < 0 or spare_below < 0:
            return None
        if spare_above > MAX_SPARE and spare_below > MAX_SPARE:
            continue
        cells = region_sets.get(split)
        if cells is None:
            cells = _cells_of(board, split)
        top = sides[cut]
        for spare, first, last, side in ((spare_above, 0, cut, top), (spare_below, cut + 1, n - 1, ~top)):
            if spare > MAX_SPARE:
                continue
            group = cells & side
            if not spare:
                empty |= group
            elif group not in groups:
                groups[group] = (group, spare * k, horizontal, first, last, split)
    if empty:  # first, so the groups after it are counted without its cells
        return {empty: (empty, 0, horizontal, 0, 0, 0), **groups}
    return groups


@lru_cache(maxsize=64)
def _sides(n: int, horizontal: bool) -> tuple[int, ...]:
    """sides[cut]: the cells of lines 0 .. cut (rows, or columns)."""
    out = []
    side = 0
    for line in range(n):
        side |= (((1 << n) - 1) << line * n) if horizontal else sum(1 << (r * n + line) for r in range(n))
        out.append(side)
    return tuple(out)


def _cells_of(board: Board, regions: int) -> int:
    """The cells of a set of regions (a bit per region number), kept in Memo.region_sets."""
    cells = 0
    masks = board.region_masks
    for region in bits(regions):
        cells |= masks[region]
    board.memo.region_sets[regions] = cells
    return cells


def _settle_groups(
    board: Board, cand: int, queens: int, groups: CutGroups, last: CutGroups | None, gone: int,
    log: list[Step] | None,
) -> State | None:
    """Count the groups of `groups` with 2x2 blocks, but for those the last call had (`last`;
    None: none) that lost no live cell since it started (`gone`)."""
    covers = board.memo.cut_covers
    p0, p1, p2, p3 = _parities(board.n)
    live_now = cand | queens
    for mask, group in groups.items():
        if not mask & cand:
            continue
        held = group[1]
        if not held:  # the cells that hold no queen: the first group
            if mask & queens:
                return contradiction(f"{cut_side_text(board, group)} hold no queen but have one", log)
            if log is not None:
                log.append(group_empty_step(board, cut_side_text(board, group), mask & cand))
            cand &= ~mask
            live_now = cand | queens
            continue
        if last is not None and not mask & gone:
            before = last.get(mask)
            if before is not None and before[1] == held:
                continue  # the same group, with the same live cells as the last call saw
        live = live_now & mask
        if live.bit_count() > CELLS_PER_QUEEN * held:
            continue
        # every 2x2 square holds one cell of each parity class (row and column even or odd), so a
        # cover takes at least as many blocks as live has cells in any class
        if ((live & p0).bit_count() > held or (live & p1).bit_count() > held
                or (live & p2).bit_count() > held or (live & p3).bit_count() > held):
            continue
        key = live << 6 | held
        cover = covers.get(key)
        if cover is None:
            cover = covers[key] = region_cover(board, live, held)
        count, singles, touching = cover
        if count > held:
            continue
        about = _group_holds(board, group)
        if count < held:
            return contradiction(f"{about()} but only {count} fit", log)
        if (singles | touching) & cand:
            state = settle_blocks(board, cand, queens, singles, touching, about, count, log)
            if state is None:
                return None
            cand, queens = state
            live_now = cand | queens
    return cand, queens


@lru_cache(maxsize=16)
def _parities(n: int) -> tuple[int, int, int, int]:
    """The cells of an n x n board by parity class: (even row, even column), (even, odd),
    (odd, even), (odd, odd)."""
    out = []
    for row_parity in (0, 1):
        for col_parity in (0, 1):
            rows, cols = range(row_parity, n, 2), range(col_parity, n, 2)
            out.append(sum(1 << (r * n + c) for r in rows for c in cols))
    return out[0], out[1], out[2], out[3]


def _group_holds(board: Board, group: CutGroup) -> Describe:
    return lambda: f"{cut_side_text(board, group)} hold {group[1]} queens"
