"""Oracles for tests: every solution of a small puzzle by brute force, independent of the solver
(and so of the generator, which searches with the solver)."""

from __future__ import annotations

from itertools import combinations, pairwise

from queens_autosolve.solver.puzzle import Cell, Puzzle, Solution, is_solution


def find_solutions(puzzle: Puzzle, limit: int = 2) -> list[Solution]:
    """Up to `limit` solutions of `puzzle`, always in the same order: row by row, k columns a
    row, no column or region over k queens, no two queens touching within a row or across two
    rows; each complete placement is checked again with `is_solution` (which also applies the
    diagonal rule). Fine up to about 8x8."""
    n, k = puzzle.n, puzzle.k
    found: list[Solution] = []
    cols, regions = [0] * n, [0] * puzzle.region_count

    def fill(r: int, queens: list[Cell]) -> None:
        if len(found) >= limit:
            return
        if r == n:
            if is_solution(puzzle, queens):
                found.append(Solution.of(queens))
            return
        above = [c for qr, c in queens if qr == r - 1]
        for chosen in combinations(range(n), k):
            if any(b - a < 2 for a, b in pairwise(chosen)):
                continue
            if any(cols[c] == k or any(abs(c - d) < 2 for d in above) for c in chosen):
                continue
            owners = [puzzle.regions[r][c] for c in chosen]
            if any(regions[g] + owners.count(g) > k for g in owners):
                continue
            for c, g in zip(chosen, owners):
                cols[c] += 1
                regions[g] += 1
            fill(r + 1, queens + [(r, c) for c in chosen])
            for c, g in zip(chosen, owners):
                cols[c] -= 1
                regions[g] -= 1

    fill(0, [])
    return found
