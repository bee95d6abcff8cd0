"""The unit rules: singles, attackers and confinement. They are the whole of k = 1 propagation
and run for k > 1 too, where the block rules (solver/block_rules.py) join them.

Every rule has the shape ``rule(board, cand, queens, log) -> (cand, queens) | None``: it returns
the smaller state, or None when it finds a contradiction (a return value, not an exception, so
the search stays cheap). `log` is None in the hot path; `explain` passes a list and each rule
appends a `Step` saying what it deduced. Vocabulary as in solver/board.py.
"""

from __future__ import annotations

from collections.abc import Callable

from queens_autosolve.solver.block_rules import eliminate_crowders, settle_group
from queens_autosolve.solver.board import (
    Board,
    State,
    Step,
    bits,
    changed_units,
    group_key,
    place,
    remember,
    transpose,
)
from queens_autosolve.solver.wording import (
    Describe,
    attack_step,
    confine_step,
    contradiction,
    lines_text,
    regions_text,
    single_step,
    too_few_text,
)


def settle_units(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """Singles: a unit with exactly as many candidates as it still needs gets them all as queens;
    a unit with too few candidates is a contradiction. Repeats until no unit changes. (A unit
    that fills up loses its other candidates in `place`.)"""
    if board.k > 1:
        return _settle_changed(board, cand, queens, log)
    changed = True
    while changed:
        changed = False
        for u, unit in enumerate(board.units):
            if unit & queens:
                continue  # kill already cleared the rest of the unit
            live = cand & unit
            if live & (live - 1):
                continue
            state = fill_unit(board, u, live, 1, cand, queens, log)
            if state is None:
                return None
            cand, queens = state
            changed = True
    return cand, queens


def fill_unit(
    board: Board, u: int, live: int, need: int, cand: int, queens: int, log: list[Step] | None
) -> State | None:
    """Unit `u` needs `need` more queens and has no more than that many `live` cells: they all
    take queens, or the board is a contradiction (too few of them, or the new queens touch)."""
    if live.bit_count() < need:
        board.memo.blame = 1 << u
        return contradiction(too_few_text(board, u, live, need), log)
    if log is not None:
        log.append(single_step(board, u, live, need))
    state = place(board, cand, queens, live)
    if state is None:
        board.memo.blame = 1 << u
        return contradiction(f"the queens forced in {board.puzzle.unit_name(u)} touch", log)
    return state


def _settle_changed(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """settle_units for k>1, unit by unit as their live cells change: first the units that lost
    a live cell since its last call (all of them when that call is no guide: see changed_units),
    then those that lose one to the queens it places. A unit whose live cells stay the same
    keeps what settle_units made of it: more than k of them, or its queens all placed."""
    units, k, ids = board.units, board.k, board.unit_ids
    in_play = cand | queens
    todo = changed_units(board, board.memo.settled, cand, in_play, in_play)
    if todo == -1:
        todo = (1 << len(units)) - 1
    while todo:
        low = todo & -todo
        todo ^= low
        u = low.bit_length() - 1
        unit = units[u]
        # place() empties full units, so a unit only needs looking at when its queens and
        # candidates together are down to k
        if (unit & in_play).bit_count() > k:
            continue
        live = cand & unit
        need = k - (unit & queens).bit_count()
        if not need:
            continue
        state = fill_unit(board, u, live, need, cand, queens, log)
        if state is None:
            return None
        cand, queens = state
        gone = in_play & ~(cand | queens)
        in_play = cand | queens
        while gone:
            cell = gone & -gone
            todo |= ids[cell.bit_length() - 1]
            gone ^= cell
    board.memo.settled = (cand, in_play, in_play)
    return cand, queens


def eliminate_attackers(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """A candidate whose queen would leave a unit too few candidates for the queens it still
    needs can never hold a queen: remove it.

    For k=1 those are the cells that would take every candidate of an open unit: the
    intersection of the kill masks of its candidates. For k>1 a queen on x takes the unit's
    candidates next to x, so x goes when more of them touch x than the unit has to spare
    (candidates minus queens needed; see block_rules.eliminate_crowders)."""
    if board.k > 1:
        return eliminate_crowders(board, cand, queens, log)
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
                log.append(attack_step(board, u, common))
            cand &= ~common
    return cand, queens


# --- confinement --------------------------------------------------------------------------------


def confine(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """Pigeonhole: m regions whose cells all lie in the same m rows fill those rows, so every other
    cell of those rows goes; and m rows whose cells all lie in m regions fill those regions, so
    the regions' cells outside those rows go. The same for columns. Counting whole units (queens
    included) makes this hold for any k, since m rows and m regions both hold m*k queens.

    The sets tried are those spanned by one region (or line): the regions (lines) that fit inside
    it are counted; more of them than lines (regions) is a contradiction."""
    # region_rows[g] / region_cols[g]: the rows / columns where region g still has a cell
    region_rows, region_cols = region_spans(board, cand | queens)
    directions = ((board.rows, region_rows, "rows"), (board.cols, region_cols, "columns"))
    for lines, region_lines, word in directions:
        state = _confine_regions_to_lines(board, cand, queens, lines, region_lines, word, log)
        if state is None:
            return None
        cand, queens = state
        line_regions = transpose(region_lines, board.n)
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


def region_spans(board: Board, live: int) -> tuple[list[int], list[int]]:
    """Each region's rows and columns (n-bit sets) with a live cell, from Memo.spans."""
    n = board.n
    row_bits = (1 << n) - 1
    spans = board.memo.spans
    rows_of, cols_of = [], []
    for region in board.region_masks:
        m = live & region
        both = spans.get(m)
        if both is None:
            both = spans[m] = rows_and_cols(m, n)
        rows_of.append(both >> n)
        cols_of.append(both & row_bits)
    return rows_of, cols_of


def rows_and_cols(m: int, n: int) -> int:
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
    tag = 2 if lines is board.rows else 0  # which confinement, for group_key
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
    region_masks = board.region_masks
    return (
        lambda s: _mask_of_lines(lines, s),
        lambda s: _union(region_masks, bits(s)),
        lambda s: lines_text(word, s),
        lambda s: regions_text(board, bits(s)),
    )


def _confine_within(
    board: Board, cand: int, queens: int, sets: list[int], outer_cells: Cells, inner_cells: Cells,
    outer_text: Text, inner_text: Text, words: tuple[str, str, str], tag: int, log: list[Step] | None,
) -> State | None:
    """m inner units (regions, or lines) whose candidates lie within m outer units (lines, or
    regions) hold all the queens of those outer units: the outer units' other cells are cleared.
    `sets[g]` is the set of outer units inner unit g still touches. For k>1, m-1 inner units
    within m outer units leave a group of cells that holds exactly k queens (`settle_group`)."""
    n, k = board.n, board.k
    crowded, confined_one, confined_many = words
    for span, inside in _confinements(board, sets, tag):
        width = span.bit_count()
        count = inside.bit_count()
        if count == width - 1:
            groups = board.memo.groups
            key = group_key(span, inside, tag, n)
            rest = groups.get(key)
            if rest is None:
                rest = groups[key] = outer_cells(span) & ~inner_cells(inside)
            if not rest & cand and (rest & queens).bit_count() == k:
                continue  # the usual case, and a cheap one: its queens are all placed
            about = _outside(outer_text, span, inner_text, inside)
            state = settle_group(board, cand, queens, rest, about, log)
            if state is None:
                return None
            cand, queens = state
            continue
        if count > width:
            return contradiction(f"{inner_text(inside)} {crowded} {outer_text(span)}: too many", log)
        drop = cand & outer_cells(span) & ~inner_cells(inside)
        if drop:
            if log is not None:
                verb = confined_many if width > 1 else confined_one
                log.append(confine_step(board, inner_text(inside), verb, outer_text(span), drop))
            cand &= ~drop
    return cand, queens


def _confinements(board: Board, sets: list[int], tag: int) -> tuple[tuple[int, int], ...]:
    """For `_confine_within`: (span, inside) for each span worth testing (`_spans`) that holds
    as many inner units as it has outer ones, or more, or (k>1) one fewer; `inside` is the set
    of inner units within it. For k>1 cached per search, as the units' spans change seldom
    (`Memo.confined`); a k=1 search has too few nodes for the cache to pay."""
    if board.k == 1:
        return _find_confinements(sets, board.n, 0)
    key = (tag, *sets)
    cache = board.memo.confined
    found = cache.get(key)
    if found is None:
        found = cache[key] = _find_confinements(sets, board.n, 1)
    return found


def _find_confinements(sets: list[int], n: int, least: int) -> tuple[tuple[int, int], ...]:
    out = []
    for span in _spans(sets, n):
        inside = 0  # the inner units within the outer units of span
        for g, s in enumerate(sets):
            if not s & ~span:
                inside |= 1 << g
        if inside.bit_count() >= span.bit_count() - least:
            out.append((span, inside))
    return tuple(out)


def _outside(outer_text: Text, span: int, inner_text: Text, inside: int) -> Describe:
    """Words for the cells of outer units `span` beyond inner units `inside`."""
    return lambda: f"{outer_text(span)} outside {inner_text(inside)}"


def _union(masks: tuple[int, ...], chosen: list[int]) -> int:
    out = 0
    for i in chosen:
        out |= masks[i]
    return out


def _mask_of_lines(lines: tuple[int, ...], span: int) -> int:
    """The cells of the lines (rows or columns, as `lines`) whose numbers are set in `span`."""
    key = _line_set_key(lines, span)
    mask = _LINE_MASKS.get(key)
    if mask is None:
        mask = remember(_LINE_MASKS, key, _union(lines, bits(span)))
    return mask


def _line_set_key(lines: tuple[int, ...], span: int) -> tuple[int, int]:
    """The _LINE_MASKS key: the line numbers, and the first line's cells, which tell rows from
    columns and one board size from another."""
    return span, lines[0]


_LINE_MASKS: dict[tuple[int, int], int] = {}  # _line_set_key(...) -> the cells of those lines
