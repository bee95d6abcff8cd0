"""The block rules, for k > 1 (Star Battle): no two queens touch, so a 2x2 block holds one queen
at most, and a unit, a band of two lines or a group of cells has room for only so many queens.
They count that room: cover_regions, count_blocks, squeeze_units, and the k > 1 halves of the
unit rules (eliminate_crowders for eliminate_attackers, settle_group for confine).

Every rule has the shape ``rule(board, cand, queens, log) -> (cand, queens) | None`` (see
solver/unit_rules.py). Vocabulary as in solver/board.py; what the rules work out about a board's
sets of cells is kept in its `Memo`.
"""

from __future__ import annotations

from functools import lru_cache

from solver.board import Board, State, Step, as_column, band_key, place, remember, transpose
from solver.wording import (
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
    squeeze_step,
)


def cover_regions(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1: cover a region's live cells with 2x2 blocks, greedily in reading order. A block
    holds at most one queen, so fewer blocks than k is a contradiction, and exactly k puts one
    queen in each block (see `_settle_blocks`)."""
    k, covers = board.k, board.memo.covers
    for g, region in enumerate(board.region_masks):
        live = (cand | queens) & region
        blocks = covers.get(live)
        if blocks is None:
            blocks = covers[live] = greedy_cover(board, live)
        if len(blocks) > k:
            continue
        about = lambda g=g: f"region {board.puzzle.labels[g]} needs {k} queens"  # noqa: E731
        if len(blocks) < k:
            return contradiction(f"{about()} but only {len(blocks)} fit", log)
        state = _settle_blocks(board, cand, queens, blocks, about, k, log)
        if state is None:
            return None
        cand, queens = state
    return cand, queens


def count_blocks(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1, lines and bands of two adjacent lines, both ways.

    A line holds k queens, no two side by side; two adjacent rows (columns) hold 2k queens and a
    2x2 block holds at most one, since queens may not touch. Covering the live cells greedily
    from one end with 1-wide gaps (a line) or 2x2 blocks (a band) gives the most queens that
    fit: fewer than needed is a contradiction; exactly as many pins each queen between its
    leftmost and rightmost greedy place (a line), or puts one queen in every block (a band: see
    `_settle_blocks`). The line patterns are taken once per call: after a deduction they hold
    more cells than are live, which keeps every later deduction of the call sound."""
    n, k, fit = board.n, board.k, board.fit
    full = (1 << n) - 1
    live = cand | queens
    row_live = [live >> (r * n) & full for r in range(n)]  # each row's live pattern
    band_covers = board.memo.band_covers
    for horizontal, patterns, band_cells, masks in (
        (True, row_live, board.band_cells[0], board.band_masks[0]),
        (False, transpose(row_live, n), board.band_cells[1], board.band_masks[1]),
    ):
        for a in range(n):
            if (fit[patterns[a]] if fit else greedy_count(patterns[a], k + 1)) <= k:
                state = _fit_line(board, cand, queens, patterns[a], a, horizontal, log)
                if state is None:
                    return None
                cand, queens = state
        for a in range(n - 1):
            band = patterns[a] | patterns[a + 1]
            if (fit[band] if fit else greedy_count(band, 2 * k + 1)) > 2 * k:
                continue
            key = band_key((cand | queens) & masks[a], band, horizontal, n)
            blocks = band_covers.get(key, False)
            if blocks is False:
                blocks = band_covers[key] = band_blocks(band, 2 * k, band_cells[a], cand | queens)
            if blocks is None:
                return contradiction(f"{band_text(a, horizontal)} fit fewer than {2 * k} queens", log)
            state = _settle_blocks(
                board, cand, queens, blocks,
                lambda a=a, h=horizontal: f"{band_text(a, h)} need {2 * k} queens", 2 * k, log,
            )
            if state is None:
                return None
            cand, queens = state
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
            patterns = transpose(patterns, n)
        for a, line in enumerate(lines):
            need = k - (line & queens).bit_count()
            pattern = patterns[a]
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
    squeezed = board.memo.squeezed
    for g, region in enumerate(board.region_masks):
        need = k - (region & queens).bit_count()
        if not need:
            continue
        live = cand & region
        if live.bit_count() > 2 * need + 4:
            continue  # roomy: such regions are seldom tight enough to squeeze (measured)
        cache = squeezed[need]
        drop = cache.get(live)
        if drop is None:
            drop = cache[live] = _squeezers(board, live, need)
        drop &= cand
        if drop:
            if log is not None:
                log.append(squeeze_step(board, 2 * n + g, drop))
            cand &= ~drop
    return cand, queens


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
    blocks = covers.get(live)
    if blocks is None:
        blocks = covers[live] = greedy_cover(board, live)
    if len(blocks) < k:
        return contradiction(f"{about()} hold {k} queens but only {len(blocks)} fit", log)
    if len(blocks) == k:
        return _settle_blocks(board, cand, queens, blocks, lambda: f"{about()} hold {k} queens", k, log)
    return cand, queens


# --- blocks -------------------------------------------------------------------------------------


def greedy_cover(board: Board, live: int) -> list[int]:
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
    touching = board.memo.touching_all
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


def band_blocks(band: int, need: int, cells: tuple[int, ...], live: int) -> list[int] | None:
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


def greedy_count(x: int, stop: int) -> int:
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
    """Line a, whose live positions `line` fit at most k queens apart: see `pin_line`."""
    k, n = board.k, board.n
    line_fits = board.memo.line_fits
    pinned = line_fits.get(line)
    if pinned is None:
        pinned = line_fits[line] = pin_line(line, k)
    if pinned[0] < 0:
        return contradiction(f"{line_name(a, horizontal)} fits fewer than {k} queens apart", log)
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


def pin_line(line: int, k: int) -> tuple[int, int]:
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


# --- squeezing ----------------------------------------------------------------------------------


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
