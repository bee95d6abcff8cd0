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

from dataclasses import dataclass

from solver.puzzle import Cell, Puzzle, cell_name, cells_of

State = tuple[int, int]  # (cand, queens)


@dataclass(frozen=True)
class Step:
    """One deduction, guess or backtrack, worded so a person can follow it on the board.

    `cells` are the cells the step is about (queens placed, candidates removed, or the guess);
    `kind` names the rule (``single``, ``attack``, ``confine``, ``block``, ``guess``,
    ``backtrack``, ``contradiction``, ``given``, ``solved``); `depth` counts the open guesses.
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
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    regions: tuple[int, ...]
    # For k>1, squares[0][i] / squares[1][i]: the 2x2 square with cell i at its top left / top
    # right (clipped at the edges); a square never holds two queens.
    squares: tuple[tuple[int, ...], tuple[int, ...]]

    @property
    def total(self) -> int:
        """Queens in a complete answer."""
        return self.n * self.k

    def cells(self, mask: int) -> tuple[Cell, ...]:
        return tuple(cells_of(mask, self.n))

    def names(self, mask: int) -> str:
        return ", ".join(cell_name(cell) for cell in cells_of(mask, self.n))


def board_of(puzzle: Puzzle) -> Board:
    """The propagation masks of `puzzle` (assumed valid: see Puzzle.validate)."""
    n, k = puzzle.n, puzzle.k
    geo = puzzle.geometry
    rows, cols, neighbours = geo.rows, geo.cols, geo.neighbours
    regions = puzzle.region_masks
    if k == 1:
        kill = tuple(
            rows[i // n] | cols[i % n] | regions[puzzle.regions[i // n][i % n]] | neighbours[i]
            for i in range(n * n)
        )
    else:
        kill = tuple(neighbours[i] | 1 << i for i in range(n * n))
    return Board(
        puzzle=puzzle,
        n=n,
        k=k,
        units=rows + cols + regions,
        kill=kill,
        neighbours=neighbours,
        rows=rows,
        cols=cols,
        regions=regions,
        squares=_squares(n) if k > 1 else ((), ()),
    )


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
    """Put queens on every cell of `mask`; None when one of them is no longer a candidate."""
    kill = board.kill
    while mask:
        low = mask & -mask
        if not cand & low:
            return None
        queens |= low
        cand &= ~kill[low.bit_length() - 1]
        mask ^= low
    return cand, queens


# --- the rules ---------------------------------------------------------------------------------


def settle_units(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """Singles: a unit with exactly as many candidates as it still needs gets them all as queens;
    a full unit loses its remaining candidates; a unit with too few candidates is a contradiction.
    Repeats until no unit changes."""
    units, kill, k = board.units, board.kill, board.k
    changed = True
    while changed:
        changed = False
        for u, unit in enumerate(units):
            live = cand & unit
            if k == 1:
                if unit & queens:
                    continue  # kill already cleared the rest of the unit
                if live & (live - 1):
                    continue
                need = 1
            else:
                need = k - (unit & queens).bit_count()
                if need <= 0:
                    if need < 0:
                        return _contradiction(board, f"{board.puzzle.unit_name(u)} has too many queens", log)
                    if live:
                        cand &= ~unit
                        changed = True
                    continue
                if live.bit_count() > need:
                    continue
            if live.bit_count() < need:
                return _contradiction(board, _short(board, u, live, need), log)
            if log is not None:
                log.append(_single_step(board, u, live, need))
            state = place(board, cand, queens, live)
            if state is None:
                return _contradiction(board, f"the queens forced in {board.puzzle.unit_name(u)} touch", log)
            cand, queens = state
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
    units, neighbours, k = board.units, board.neighbours, board.k
    for u, unit in enumerate(units):
        live = cand & unit
        spare = live.bit_count() - k + (unit & queens).bit_count()
        if spare < 0 or spare > 3 or not live:
            continue  # too few: settle_units reports it; lots to spare: nothing to find cheaply
        # b0, b1, b2: how many of live touch each cell, in binary, b2 meaning "4 or more"
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
            crowded = b0 | b1 | b2
        elif spare == 1:
            crowded = b1 | b2
        elif spare == 2:
            crowded = (b1 & b0) | b2
        else:
            crowded = b2
        crowded &= cand
        if crowded:
            if log is not None:
                log.append(_attack_step(board, u, crowded))
            cand &= ~crowded
    return cand, queens


def _attack_step(board: Board, u: int, mask: int) -> Step:
    return Step(
        f"a queen on {board.names(mask)} would leave {board.puzzle.unit_name(u)} too few candidates: "
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
    region_live = [live & region for region in regions]
    # lines_of[g]: the rows (columns) where region g still has a cell, as an n-bit set
    region_rows = []
    region_cols = []
    for m in region_live:
        rows_set = 0
        cols_set = 0
        r = 0
        while m:
            part = m & row_bits
            if part:
                rows_set |= 1 << r
                cols_set |= part
            m >>= n
            r += 1
        region_rows.append(rows_set)
        region_cols.append(cols_set)
    for lines, region_lines, word in ((board.rows, region_rows, "rows"), (board.cols, region_cols, "columns")):
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


def _transpose(sets: list[int], n: int) -> list[int]:
    """From each region's set of lines, each line's set of regions."""
    out = [0] * n
    for g, s in enumerate(sets):
        bit = 1 << g
        while s:
            low = s & -s
            out[low.bit_length() - 1] |= bit
            s ^= low
    return out


def _confine_regions_to_lines(
    board: Board, cand: int, queens: int, lines: tuple[int, ...], region_lines: list[int], word: str,
    log: list[Step] | None,
) -> State | None:
    n = board.n
    regions = board.regions
    for span in _spans(region_lines, n):
        width = span.bit_count()
        inside = [g for g, s in enumerate(region_lines) if not s & ~span]
        if len(inside) < width:
            continue
        if len(inside) > width:
            return _contradiction(
                board, f"{_regions_text(board, inside)} all lie in {word} {_lines_text(span)}: too many", log
            )
        band = _mask_of_lines(lines, span)
        keep = 0
        for g in inside:
            keep |= regions[g]
        drop = cand & band & ~keep
        if drop:
            if log is not None:
                log.append(
                    Step(
                        f"{_regions_text(board, inside)} {'are' if width > 1 else 'is'} confined to {word} "
                        f"{_lines_text(span)}: remove {board.names(drop)}",
                        board.cells(drop),
                        kind="confine",
                    )
                )
            cand &= ~drop
    return cand, queens


def _confine_lines_to_regions(
    board: Board, cand: int, queens: int, lines: tuple[int, ...], line_regions: list[int], word: str,
    log: list[Step] | None,
) -> State | None:
    n = board.n
    regions = board.regions
    for span in _spans(line_regions, n):
        width = span.bit_count()
        inside = 0
        for line, s in enumerate(line_regions):
            if not s & ~span:
                inside |= 1 << line
        count = inside.bit_count()
        if count < width:
            continue
        if count > width:
            return _contradiction(
                board, f"{word} {_lines_text(inside)} lie within {_regions_text(board, _bits(span))}: too many",
                log,
            )
        keep = _mask_of_lines(lines, inside)
        zone = 0
        for g in _bits(span):
            zone |= regions[g]
        drop = cand & zone & ~keep
        if drop:
            if log is not None:
                log.append(
                    Step(
                        f"{word} {_lines_text(inside)} lie within {_regions_text(board, _bits(span))}: "
                        f"remove {board.names(drop)}",
                        board.cells(drop),
                        kind="confine",
                    )
                )
            cand &= ~drop
    return cand, queens


def count_blocks(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1, lines and bands of two adjacent lines, both ways.

    A line holds k queens, no two side by side; two adjacent rows (columns) hold 2k queens and a
    2x2 block holds at most one, since queens may not touch. Covering the live cells greedily
    from one end with 1-wide gaps (a line) or 2x2 blocks (a band) gives the most queens that
    fit: fewer than needed is a contradiction; exactly as many pins each queen between its
    leftmost and rightmost greedy place (a line), or puts one queen in every block, so a block
    with one candidate left gets it (a band)."""
    n, k = board.n, board.k
    full = (1 << n) - 1
    live = cand | queens
    row_live = [live >> (r * n) & full for r in range(n)]
    for horizontal, lines in ((True, row_live), (False, _transpose(row_live, n))):
        for a in range(n):
            state = _fit_line(board, cand, queens, lines[a], a, horizontal, log)
            if state is None:
                return None
            if state[0] != cand:
                return state  # the line sets are stale now; propagate calls again
        for a in range(n - 1):
            first, second = lines[a], lines[a + 1]
            if _greedy_count(first | second, 2 * k + 1) > 2 * k:
                continue
            pairs = _band_blocks(first | second, 2 * k)
            what = _band_text(a, horizontal)
            if pairs is None:
                return _contradiction(board, f"{what} fit fewer than {2 * k} queens", log)
            blocks = [
                _line_cells(n, a, first & pair, horizontal) | _line_cells(n, a + 1, second & pair, horizontal)
                for pair in pairs
            ]
            state = _settle_blocks(board, cand, queens, blocks, f"{what} need {2 * k} queens", log)
            if state is None or state[0] != cand:
                return state
    return cand, queens


def cover_regions(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1: cover a region's live cells with 2x2 blocks, greedily in reading order. A block
    holds at most one queen, so fewer blocks than k is a contradiction, and exactly k puts one
    queen in each block (see `_settle_blocks`)."""
    k = board.k
    right, left = board.squares
    live = cand | queens
    for g, region in enumerate(board.regions):
        x = live & region
        blocks = []
        while x and len(blocks) <= k:
            i = (x & -x).bit_length() - 1
            a, b = x & right[i], x & left[i]
            block = a if a.bit_count() >= b.bit_count() else b
            blocks.append(block)
            x ^= block
        if len(blocks) > k:
            continue
        what = f"region {board.puzzle.labels[g]} needs {k} queens"
        if len(blocks) < k:
            return _contradiction(board, f"{what} but only {len(blocks)} fit", log)
        state = _settle_blocks(board, cand, queens, blocks, what, log)
        if state is None:
            return None
        cand, queens = state
        live = cand | queens
    return cand, queens


def _settle_blocks(
    board: Board, cand: int, queens: int, blocks: list[int], what: str, log: list[Step] | None
) -> State | None:
    """Each of `blocks` (disjoint cell sets, each inside a 2x2 square) holds exactly one queen:
    a block with one cell left gets the queen, and a cell outside a block that would take all
    of the block's cells goes."""
    kill = board.kill
    forced = 0
    drop = 0
    for block in blocks:
        if block & queens:
            continue
        if not block & (block - 1):
            forced |= block
            continue
        rest = block
        low = rest & -rest
        common = kill[low.bit_length() - 1]
        rest ^= low
        while rest:
            low = rest & -rest
            common &= kill[low.bit_length() - 1]
            rest ^= low
        drop |= common & ~block
    drop &= cand
    forced &= cand
    if not (drop or forced):
        return cand, queens
    if log is not None:
        done = []
        if forced:
            done.append(f"{board.names(forced)} {'are' if forced & (forced - 1) else 'is'} the last cell of its block")
        if drop:
            done.append(f"remove {board.names(drop)}, which touch a whole block")
        log.append(
            Step(
                f"{what} in {len(blocks)} separate 2x2 blocks, one in each: {'; '.join(done)}",
                board.cells(forced | drop),
                kind="block",
            )
        )
    state = place(board, cand & ~drop, queens, forced)
    if state is None:
        return _contradiction(board, f"the queens forced by the blocks of {what.split(' need')[0]} touch", log)
    return state


def _line_cells(n: int, line: int, bits: int, horizontal: bool) -> int:
    """The cells of line number `line` at the positions set in the n-bit `bits`."""
    if horizontal:
        return bits << (line * n)
    mask = 0
    while bits:
        low = bits & -bits
        mask |= 1 << ((low.bit_length() - 1) * n + line)
        bits ^= low
    return mask


def _bit(n: int, line: int, pos: int, horizontal: bool) -> int:
    return 1 << (line * n + pos if horizontal else pos * n + line)


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
    if _greedy_count(line, k + 1) > k:
        return cand, queens
    low, high = _greedy_low(line), _greedy_high(line)
    name = f"{'row' if horizontal else 'column'} {a + 1}"
    if len(low) < k:
        return _contradiction(board, f"{name} fits fewer than {k} queens apart", log)
    allowed = 0
    forced = 0
    for lo, hi in zip(low, high):
        allowed |= ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
        if lo == hi:
            forced |= _bit(n, a, lo, horizontal)
    drop = 0
    for pos in _bits(line & ~allowed):
        drop |= _bit(n, a, pos, horizontal)
    drop &= cand
    forced &= cand
    if not (drop or forced):
        return cand, queens
    if log is not None:
        what = []
        if forced:
            what.append(f"{board.names(forced)} must hold queens")
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


def _band_blocks(band: int, need: int) -> list[int] | None:
    """The 2-wide position pairs of a band's greedy covers from both ends when they have exactly
    `need` blocks (the most queens that fit); [] when more fit; None when fewer do."""
    out = []
    for reverse in (False, True):
        x = band
        pairs = []
        while x:
            if reverse:
                i = x.bit_length() - 1
                pair = 3 << (i - 1) if i else 1
            else:
                pair = 3 * (x & -x)
            pairs.append(pair)
            x &= ~pair
        if len(pairs) < need:
            return None
        if len(pairs) > need:
            return []
        out.extend(pairs)
    return out


RULES = (settle_units, eliminate_attackers, confine)
RULES_MANY = (settle_units, eliminate_attackers, count_blocks, cover_regions, confine)


def propagate(board: Board, cand: int, queens: int, log: list[Step] | None = None) -> State | None:
    """Apply the rules, cheapest first, until none changes anything; None on a contradiction.
    After any rule makes progress the cheap ones run again before the dearer ones."""
    rules = RULES if board.k == 1 else RULES_MANY
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
    mask = 0
    for line in _bits(span):
        mask |= lines[line]
    return mask


def _lines_text(span: int) -> str:
    """1-based line numbers, runs joined: "1-2", "1, 3", "4"."""
    numbers = [i + 1 for i in _bits(span)]
    runs: list[list[int]] = []
    for x in numbers:
        if runs and runs[-1][-1] == x - 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)


def _regions_text(board: Board, groups: list[int]) -> str:
    labels = ", ".join(board.puzzle.labels[g] for g in groups)
    return f"region{'s' if len(groups) > 1 else ''} {labels}"


def _band_text(a: int, horizontal: bool) -> str:
    return f"{'rows' if horizontal else 'columns'} {a + 1}-{a + 2}"
