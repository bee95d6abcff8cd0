"""Propagation only: the textbook propagation, then plain backtracking with it at every node.

A peer for `queens-autosolve bench` (benchmarks/peers.py), not a copy of our solver: it knows
only Norvig's two ideas, forward checking (a queen clears its neighbours, and a unit that is full
clears its other cells) and singles (a unit with exactly as many candidates as queens still
needed takes them all; one with fewer is a contradiction). Whatever that settles, the rest is
found row by row: the first row still short of queens puts its next queen on each of its
candidates in reading order (ruled out once its branch is done, so branches never overlap).
None of our deduction rules (confinement, the 2x2 block rules) nor our choice of the tightest
unit: the ratio against it is what those buy. Written on the puzzle's own masks, so it shares no
code with solver/.
"""

from __future__ import annotations

from dataclasses import dataclass

from queens_autosolve.solver.puzzle import Puzzle, Solution, cells_of, mask_of

State = tuple[int, int]  # (candidates, queens) as cell bitmasks


@dataclass(frozen=True)
class Net:
    """The masks of one puzzle: units (rows, columns, regions), and per cell its neighbours and
    its three units."""

    n: int
    k: int
    units: tuple[int, ...]
    rows: tuple[int, ...]
    neighbours: tuple[int, ...]
    cell_units: tuple[tuple[int, int, int], ...]

    @classmethod
    def of(cls, puzzle: Puzzle) -> Net:
        n = puzzle.n
        g = puzzle.geometry
        region_masks = puzzle.region_masks
        cell_units = tuple(
            (g.rows[i // n], g.cols[i % n], region_masks[puzzle.regions[i // n][i % n]]) for i in range(n * n)
        )
        return cls(n, puzzle.k, puzzle.units, g.rows, g.neighbours, cell_units)


@dataclass
class Count:
    """What a search found: answers up to `limit`, the first one, and nodes (propagations)."""

    limit: int
    found: int = 0
    first: int = 0
    nodes: int = 0


def place(net: Net, cand: int, queens: int, mask: int) -> State | None:
    """Forward checking: put a queen on each cell of `mask`; None when one is not a candidate."""
    while mask:
        low = mask & -mask
        mask ^= low
        if not cand & low:
            return None
        i = low.bit_length() - 1
        queens |= low
        cand &= ~(net.neighbours[i] | low)
        for unit in net.cell_units[i]:
            if (unit & queens).bit_count() == net.k:
                cand &= ~unit
    return cand, queens


def settle(net: Net, cand: int, queens: int) -> State | None:
    """Singles to a fixed point: a unit with as many candidates as queens missing takes them all."""
    k = net.k
    changed = True
    while changed:
        changed = False
        for unit in net.units:
            need = k - (unit & queens).bit_count()
            if not need:
                continue
            live = cand & unit
            spare = live.bit_count() - need
            if spare < 0:
                return None
            if spare == 0:
                state = place(net, cand, queens, live)
                if state is None:
                    return None
                cand, queens = state
                changed = True
    return cand, queens


def explore(net: Net, cand: int, queens: int, count: Count) -> None:
    count.nodes += 1
    state = settle(net, cand, queens)
    if state is None:
        return
    cand, queens = state
    if queens.bit_count() == net.n * net.k:
        count.found += 1
        count.first = count.first or queens
        return
    row = next(r for r in net.rows if (r & queens).bit_count() < net.k)
    options = cand & row
    while options:
        low = options & -options
        options ^= low
        child = place(net, cand, queens, low)
        if child is not None:
            explore(net, child[0], child[1], count)
            if count.found >= count.limit:
                return
        cand ^= low


def count_solutions(puzzle: Puzzle, limit: int = 2) -> tuple[int, Solution | None, int]:
    """Count answers up to `limit`: the count, the first answer, and the nodes (1: propagation
    alone settled it, without a guess)."""
    net = Net.of(puzzle)
    count = Count(limit)
    start = place(net, (1 << net.n * net.n) - 1, 0, mask_of(puzzle.given, net.n))
    if start is not None and limit > 0:
        explore(net, start[0], start[1], count)
    first = Solution.of(cells_of(count.first, net.n)) if count.found else None
    return count.found, first, count.nodes
