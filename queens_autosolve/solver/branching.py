"""What the search branches on for k >= 4, besides the tightest unit: a 2x2 block of a band known
to hold exactly one queen, when it has fewer candidates (MARGIN).

Two adjacent rows (columns), a band, whose candidates' positions across fit exactly as many queens
no two side by side (the greedy count, `patterns.greedy_count`) as the two lines still need hold
one queen in each 2x2 block of that greedy cover: a block holds one queen at most. Trying each
candidate of such a block in turn, and ruling it out once its branch is done, covers every answer
once, as branching on a unit does; a block of 2 candidates is a yes/no branch.

Block branching takes fewer nodes on the 17x17 sets than the tightest unit alone; the regions'
2x2 covers, a line's pairs of cells and other margins did worse (figures: docs/solver.md).
"""

from __future__ import annotations

from queens_autosolve.solver.board import Board, transpose
from queens_autosolve.solver.patterns import greedy_count

# Block branching runs from this many stars per unit (the sets with fewer were not tried with it).
BLOCK_FROM_K = 4
# A block is taken over the tightest unit when it has at least this many fewer candidates than
# the unit has branches (candidates minus need, plus one); 1: fewer branches.
MARGIN = 1


def block_branch(board: Board, cand: int, queens: int, branches: int) -> tuple[int, int]:
    """The candidates of a band's 2x2 block that holds exactly one queen (see the module
    docstring) with the fewest of them, when that is at most `branches` - MARGIN (`branches`:
    what the tightest unit gives); and the band's first line (a unit number: rows, then
    columns). (0, -1) when there is none, or k < BLOCK_FROM_K."""
    n, k, fit = board.n, board.k, board.fit
    fewest = branches - MARGIN + 1  # a block must have fewer candidates than this
    if k < BLOCK_FROM_K or fewest <= 2:
        return 0, -1
    full = (1 << n) - 1
    rows = [cand >> (r * n) & full for r in range(n)]
    best, best_u = 0, -1
    for horizontal, patterns, lines, across in (
        (True, rows, board.rows, board.cols), (False, transpose(rows, n), board.cols, board.rows)
    ):
        needs = [k - (line & queens).bit_count() for line in lines]
        bands = board.band_masks[not horizontal]
        for a in range(n - 1):
            need = needs[a] + needs[a + 1]
            pattern = patterns[a] | patterns[a + 1]
            if not need or (fit[pattern] if fit else greedy_count(pattern, need + 1)) != need:
                continue
            while pattern:  # the greedy cover: the lowest position and the one after it
                low = pattern & -pattern
                q = low.bit_length() - 1
                pattern &= ~(low | low << 1)
                block = cand & bands[a] & (across[q] | (across[q + 1] if q + 1 < n else 0))
                count = block.bit_count()
                if 1 < count < fewest:
                    best, best_u, fewest = block, (a if horizontal else n + a), count
                    if count == 2:
                        return best, best_u
    return best, best_u
