"""The squeeze rule, for k > 1: a queen on a cell takes its neighbours from every unit, and a unit
left with room (2x2 blocks) for fewer queens than it needs rules that cell out. Vocabulary as in
solver/board.py; the rule has the shape of solver/unit_rules.py's rules, and counts room as
solver/block_rules.py does.
"""

from __future__ import annotations

from functools import lru_cache

from queens_autosolve.solver.block_rules import crowding
from queens_autosolve.solver.board import (
    Board,
    State,
    Step,
    as_column,
    bits,
    changed_units,
    remember,
    transpose,
)
from queens_autosolve.solver.patterns import greedy_count
from queens_autosolve.solver.wording import squeeze_step


def squeeze_units(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1: a queen on x takes x's neighbours from every unit; when what is left of a unit
    fits fewer queens than it still needs (counting 2x2 blocks: a block holds one queen at most),
    x can hold no queen. This sees what `eliminate_attackers` misses: candidates that are many
    but side by side, so a queen next to them takes more room than it takes cells.

    Lines are done on their n-bit patterns (`_squeeze_line`, cached for the board size), regions
    on their cells (`_squeezers`, cached per search: region shapes differ from puzzle to puzzle).
    This also finds everything `eliminate_attackers` finds for k>1 (the same node counts without
    it), so it replaces that rule."""
    n, k, memo = board.n, board.k, board.memo
    row_bits = (1 << n) - 1
    line_caches = _line_squeezes(n, k)
    cand_before = cand
    todo = changed_units(board, memo.squeezed_seen, cand, cand | queens, cand)
    for lines, step in ((board.rows, n), (board.cols, 1)):
        # the lines with a candidate gone since the last call looked at them (-1: all of them)
        rest = todo & row_bits
        todo >>= n
        if not rest:
            continue
        at_start = cand  # the lines' patterns are those of the start of this pass
        patterns = None if step == n else transpose([cand >> (r * n) & row_bits for r in range(n)], n)
        for a in bits(rest):
            line = lines[a]
            need = k - (line & queens).bit_count()
            pattern = at_start >> a * n & row_bits if patterns is None else patterns[a]
            if not need or pattern.bit_count() > 2 * need + 2:
                continue  # half the cells of a line (or more) fit: room to spare
            inside, beside = _squeeze_line(board, pattern, need, line_caches[need])
            if not (inside or beside):
                continue
            if step == 1:
                inside, beside = as_column(inside, n), as_column(beside, n)
            drop = inside << a * step
            if a:
                drop |= beside << (a - 1) * step
            if a + 1 < n:
                drop |= beside << (a + 1) * step
            drop &= cand
            if drop:
                if log is not None:
                    log.append(squeeze_step(board, a if step == n else n + a, drop))
                cand &= ~drop
    squeezed = memo.squeezed
    region_masks = board.region_masks
    for g in bits(todo & (1 << len(region_masks)) - 1):
        region = region_masks[g]
        need = k - (region & queens).bit_count()
        if not need:
            continue
        live = cand & region
        if live.bit_count() > 2 * need + 4:
            continue  # roomy: such regions are seldom tight enough to squeeze (docs/notes.md)
        cache = squeezed[need]
        found = cache.get(live)
        if found is None:
            found = cache[live] = _squeezers(board, live, need)
        drop = found & cand
        if drop:
            if log is not None:
                log.append(squeeze_step(board, 2 * n + g, drop))
            cand &= ~drop
    memo.squeezed_seen = (cand, cand | queens, cand_before)
    return cand, queens


def _squeeze_line(
    board: Board, line: int, need: int, cache: dict[int, tuple[int, int]]
) -> tuple[int, int]:
    """`squeeze_units` for a line with live positions `line` (an n-bit set): the positions in the
    line, and beside it (in the next line either side), whose queen would leave it room for too
    few queens. A queen beside position q takes q-1, q and q+1; one in the line also uses up a
    queen. On a line the greedy count is exact. Cached per pattern and need."""
    fit = board.fit
    if (fit[line] if fit else greedy_count(line, need + 2)) > need + 1:
        return 0, 0  # a queen beside takes at most one queen's room
    found = cache.get(line)
    if found is None:
        inside = beside = 0
        for q in range(board.n):
            left = line & ~(7 << q >> 1)
            room = fit[left] if fit else greedy_count(left, need)
            if room < need:
                beside |= 1 << q
            if room < need - 1 and line >> q & 1:
                inside |= 1 << q
        found = remember(cache, line, (inside, beside))
    return found


@lru_cache(maxsize=16)
def _line_squeezes(n: int, k: int) -> tuple[dict[int, tuple[int, int]], ...]:
    """For `squeeze_units`, per need: a line's pattern -> what `_squeeze_line` found (each kept
    within CACHE_BOUND entries). (The same for bands of two lines was tried: 10% fewer nodes on
    17x17 boards, but slower overall.)"""
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
        around = crowding(board.neighbours, live, 1)
    else:
        around = crowding(board.neighbours, live, 0) | live
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
    """How many disjoint 2x2 squares the greedy cover of `live` takes (see greedy_cover),
    counting no further than `stop`: more queens than that cannot fit in `live`."""
    right, left = board.squares
    count = 0
    while live and count < stop:
        i = (live & -live).bit_length() - 1
        a, b = live & right[i], live & left[i]
        live ^= a if a.bit_count() >= b.bit_count() else b
        count += 1
    return count
