"""Plain row-by-row backtracking: the yardstick the benchmark measures the real solver against.

Deliberately simple (no propagation, no bitmask tricks beyond the obvious): for each row in
turn, try every k-subset of its cells that keeps columns, regions and neighbours legal.
"""

from __future__ import annotations

from itertools import combinations

from queens_autosolve.solver.puzzle import Cell, Puzzle, Solution


def count_solutions(puzzle: Puzzle, limit: int = 2) -> tuple[int, Solution | None]:
    """Count solutions up to `limit` by plain backtracking; also return the first one found."""
    found = find_solutions(puzzle, limit)
    return len(found), (found[0] if found else None)


def find_solutions(puzzle: Puzzle, limit: int = 2) -> list[Solution]:
    """Up to `limit` solutions by plain backtracking, always in the same order (row by row). Also
    the tests' brute-force oracle: it shares no code with the solver or the generator."""
    n, k = puzzle.n, puzzle.k
    region_of = puzzle.regions
    neighbours = puzzle.geometry.neighbours
    given = set(puzzle.given)
    col_count = [0] * n
    region_count = [0] * n
    placed: list[Cell] = []
    found: list[Solution] = []

    def legal(r: int, c: int) -> bool:
        if col_count[c] >= k or region_count[region_of[r][c]] >= k:
            return False
        bit = neighbours[r * n + c]
        return not any(bit >> (pr * n + pc) & 1 for pr, pc in placed)

    def place_row(r: int) -> None:
        if len(found) >= limit:
            return
        if r == n:
            if all(count == k for count in region_count):
                found.append(Solution.of(placed))
            return
        for cols in combinations(range(n), k):
            chosen: list[Cell] = []
            for c in cols:
                if not legal(r, c):
                    break
                chosen.append((r, c))
                placed.append((r, c))
                col_count[c] += 1
                region_count[region_of[r][c]] += 1
            if len(chosen) == k and all(g in placed for g in given if g[0] == r):
                place_row(r + 1)
            for rr, cc in chosen:
                placed.pop()
                col_count[cc] -= 1
                region_count[region_of[rr][cc]] -= 1
            if len(found) >= limit:
                return

    place_row(0)
    return found
