"""The placement rule, for k > 1: every way a small unit can still take the queens it needs.

A unit with few candidates left has few placements of its remaining queens (sets of that many
candidates no two of which a queen of the other takes, by the board's kill masks). A candidate
in none of them goes, one in all of them gets a queen, and a cell outside the unit that a queen
of every placement takes goes. The other rules count room with 2x2 blocks and see only queens
that touch; this one also sees the conflicts a probed search learned (search._learn_conflicts),
which is where it pays: it runs in the search from a probed root on (`RuleSet.probed`), after
`drop_unsupported`, which rules out the cells whose queen would force one where none can go.
Vocabulary as in solver/board.py.
"""

from __future__ import annotations

from queens_autosolve.solver.board import Board, State, Step, bits, changed_units, place
from queens_autosolve.solver.wording import contradiction, placements_step, unsupported_step

# A unit with more candidates than this many per queen it needs is passed over: its placements
# are many and seldom agree (figures: docs/solver.md).
CELLS_PER_QUEEN = 2


def settle_placements(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For k>1: the units with at most CELLS_PER_QUEEN candidates per queen they need, by their
    placements (see the module docstring). Only the units that lost a candidate since the last
    call are looked at, when this state lies within what that call left (see changed_units)."""
    k, memo = board.k, board.memo
    cand_before = cand
    found_for = memo.placements
    todo = changed_units(board, memo.placed_seen, cand, cand | queens, cand)
    units = board.units
    for u in bits(todo & (1 << len(units)) - 1):
        unit = units[u]
        need = k - (unit & queens).bit_count()
        live = cand & unit
        if not need or live.bit_count() > CELLS_PER_QUEEN * need:
            continue
        key = live << 4 | need
        found = found_for.get(key)
        if found is None:
            found = found_for[key] = placements(board.kill, live, need)
        used, common, taken = found
        if not used:
            memo.blame = 1 << u
            return contradiction(f"{board.puzzle.unit_name(u)} has no room left for its {need} queens", log)
        drop = (live & ~used | taken & ~live) & cand
        forced = common & cand
        if not (drop or forced):
            continue
        if log is not None:
            log.append(placements_step(board, u, forced, drop))
        state = place(board, cand & ~drop, queens, forced)
        if state is None:
            memo.blame = 1 << u
            why = f"the queens every placement in {board.puzzle.unit_name(u)} takes touch"
            return contradiction(why, log)
        cand, queens = state
    memo.placed_seen = (cand, cand | queens, cand_before)
    return cand, queens


def placements(kill: tuple[int, ...], live: int, need: int) -> tuple[int, int, int]:
    """Over every set of `need` cells of `live` no two of which take each other (`kill`): the
    cells in some set, the cells in all of them, and the cells every set takes (0, 0, 0: none).

    >>> kill = (0b011, 0b111, 0b110)  # three cells in a row, each taking its neighbours
    >>> placements(kill, 0b111, 2)
    (5, 5, 7)
    """
    used, common, taken = 0, -1, -1
    stack = [(live, need, 0, 0)]
    while stack:
        rest, left, chosen, takes = stack.pop()
        if not left:
            used |= chosen
            common &= chosen
            taken &= takes
            continue
        while rest and rest.bit_count() >= left:
            low = rest & -rest
            rest ^= low
            mask = kill[low.bit_length() - 1]
            stack.append((rest & ~mask, left - 1, chosen | low, takes | mask))
    if common == -1:
        return 0, 0, 0
    return used, common, taken


def drop_unsupported(board: Board, cand: int, queens: int, log: list[Step] | None) -> State | None:
    """For a probed search: a cell whose queen forces one on a cell that can no longer hold one
    (Board.wanted, learned by probing the root) can hold none either."""
    gone = board.wanting & ~(cand | queens)
    if not gone:
        return cand, queens
    wanted = board.wanted
    drop = 0
    for z in bits(gone):
        drop |= wanted[z]
    drop &= cand
    if not drop:
        return cand, queens
    if log is not None:
        log.append(unsupported_step(board, drop))
    return cand & ~drop, queens
