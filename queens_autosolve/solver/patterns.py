"""Counting on the n-bit pattern of a line, or of a band of two lines seen across (a bit per
position holding a live cell): how many queens fit with no two side by side, where they must
go, and the 2x2 blocks of a band's greedy covers. Pure functions of the pattern, so their
caches serve every board of a size (kept within CACHE_BOUND entries). Used by
solver/block_rules.py; vocabulary as in solver/board.py.
"""

from __future__ import annotations

from functools import lru_cache

from queens_autosolve.solver.board import remember


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


@lru_cache(maxsize=16)
def line_pins(n: int, k: int) -> dict[int, tuple[int, int]]:
    """For block_rules.count_blocks: a line's live pattern -> what `pin_line` finds for it (kept within
    CACHE_BOUND entries): the same for every board of that size."""
    return {}


def band_pairs(band: int, need: int) -> tuple[int, ...] | None:
    """The blocks of a band's greedy covers from both ends, as sets of cross positions (each
    one or two side by side), when they have exactly `need` blocks (the most queens that fit);
    () when more fit; None when fewer do. `band` has a bit per cross position holding a live
    cell. Depends on the pattern alone, so it is cached for all boards (`_BAND_PAIRS`)."""
    key = band << 6 | need
    if key in _BAND_PAIRS:
        return _BAND_PAIRS[key]
    out = []
    for reverse in (False, True):
        x = band
        count = 0
        while x:
            if reverse:
                i = x.bit_length() - 1
                pair = 3 << i >> 1
            else:
                pair = 3 * (x & -x)
            out.append(x & pair)
            x &= ~pair
            count += 1
        if count != need:
            return remember(_BAND_PAIRS, key, None if count < need else ())
    return remember(_BAND_PAIRS, key, tuple(out))


_BAND_PAIRS: dict[int, tuple[int, ...] | None] = {}  # band_pairs: band << 6 | need -> its pairs


def cover_starts(pairs: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A band's two greedy covers (`band_pairs`, exactly `need` pairs each: the low-end cover,
    then the high-end one) as bit sets of cross positions: for each cover, where its pairs start
    (their low positions) and which of those start a pair two wide. `block_rules` works out what
    a cover settles from these for all its blocks at once."""
    half = len(pairs) // 2
    out: list[int] = []
    for cover in (pairs[:half], pairs[half:]):
        starts = wide = 0
        for pair in cover:
            low = pair & -pair
            starts |= low
            if pair != low:
                wide |= low
        out += (starts, wide)
    return out[0], out[1], out[2], out[3]
