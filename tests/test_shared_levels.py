"""Every shared level file, solved with the count capped at 2 and each answer checked against the
rules; the big Star Battle sets are sampled to keep the suite quick (`queens-autosolve bench`
runs them all). Skipped, with the reason, where ../shared/data is absent."""

from __future__ import annotations

import pytest

from queens_autosolve.bench.times import expected_count
from queens_autosolve.solver import read_puzzles, search
from queens_autosolve.solver.puzzle import is_solution
from tests.environment import shared_path

pytestmark = pytest.mark.shared

# file -> how many puzzles from its start to check (None: all of them)
FILES = {
    "levels/linkedin-official.txt": None,
    "levels/linkedin-bonus.txt": None,
    "levels/linkedin-2026.txt": None,
    "levels/community.txt": None,
    "levels/kwekker-games.txt": None,
    "starbattle/8-1-expert.txt": None,
    "starbattle/9-2-expert.txt": None,
    "starbattle/10-2-expert.txt": 150,
    "starbattle/11-2-hard.txt": None,
    "starbattle/14-3-med.txt": 20,
    "starbattle/14-3-hard.txt": 10,
    "starbattle/21-5-sample.txt": 5,
    "starbattle/25-6-sample.txt": 5,
}

# What the sources promise (SOURCES.md): how many puzzles each file holds.
SIZES = {
    "levels/linkedin-official.txt": 608,
    "levels/linkedin-bonus.txt": 36,
    "levels/community.txt": 480,
    "starbattle/10-2-expert.txt": 5718,
}


@pytest.mark.parametrize("name", FILES)
def test_shared_file_solves_with_the_promised_counts(name):
    puzzles = read_puzzles(str(shared_path(*name.split("/"))))
    if name in SIZES:
        assert len(puzzles) == SIZES[name]
    wrong = []
    for puzzle in puzzles[: FILES[name]]:
        result = search(puzzle, limit=2)
        if result.count != expected_count(puzzle):
            wrong.append(f"{puzzle.name}: {result.count} solution(s), expected {expected_count(puzzle)}")
        elif result.solution is not None and not is_solution(puzzle, result.solution):
            wrong.append(f"{puzzle.name}: answer breaks the rules")
    assert wrong == []


def test_community_levels_include_boards_with_several_answers():
    puzzles = read_puzzles(str(shared_path("levels", "community.txt")))
    several = [p for p in puzzles if expected_count(p) == 2]
    assert len(several) == 85  # SOURCES.md: 85 have more than one solution
    assert all(search(p, limit=2).count == 2 for p in several[:20])


def test_the_2026_level_with_given_queens_keeps_them():
    puzzles = read_puzzles(str(shared_path("levels", "linkedin-2026.txt")))
    with_given = [p for p in puzzles if p.given]
    assert with_given
    for puzzle in with_given:
        solution = search(puzzle).solution
        assert solution is not None and set(puzzle.given) <= set(solution.queens)
