"""Puzzles of a chosen difficulty, and generated region shapes like LinkedIn's."""

from __future__ import annotations

import json

import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.solver.coach import grade
from queens_autosolve.solver.difficulty import Difficulty, generate_graded
from queens_autosolve.solver.formats import parse_puzzles
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.search import count_solutions
from queens_autosolve.solver.shapes import LINKEDIN, region_shapes, summarise


@pytest.mark.parametrize("difficulty", list(Difficulty))
@pytest.mark.parametrize("seed", [1, 500])
def test_a_puzzle_of_each_difficulty_grades_as_asked(difficulty, seed):
    graded = generate_graded(8, difficulty, seed=seed)
    assert graded.grade.tier in difficulty.tiers
    assert grade(graded.puzzle).tier == graded.grade.tier  # graded again from scratch
    assert count_solutions(graded.puzzle) == 1
    assert graded.puzzle.meta["difficulty"] == difficulty.value
    # named after its own seed: that seed alone makes the same map again
    again = generate_puzzle(8, rng=int(graded.puzzle.meta["seed"]))
    assert again.regions == graded.puzzle.regions


def test_the_cli_keeps_count_puzzles_of_the_difficulty_with_their_grade_in_the_header(capsys):
    assert main(["generate", "--size", "7", "--difficulty", "easy", "--count", "3", "--seed", "4"]) == 0
    puzzles = parse_puzzles(capsys.readouterr().out)
    assert len(puzzles) == 3 and len({p.name for p in puzzles}) == 3
    for puzzle in puzzles:
        assert puzzle.meta["difficulty"] == "easy"
        assert grade(puzzle).tier in Difficulty.EASY.tiers


def test_hard_and_difficulty_together_are_refused(capsys):
    assert main(["generate", "--size", "7", "--difficulty", "easy", "--hard"]) == 2
    assert "use one" in capsys.readouterr().err


def test_no_puzzle_of_a_difficulty_within_the_tries_is_a_clear_error():
    from queens_autosolve.solver.errors import QueensError

    with pytest.raises(QueensError, match="no hard 5x5 puzzle among 3 seeds"):
        generate_graded(5, Difficulty.HARD, seed=1, max_tries=3)


def test_generated_region_shapes_are_within_tolerance_of_linkedins():
    """On 8x8..10x10, seeds 1..12: the smallest region, the share of puzzles with a one-cell
    region, the largest region and compactness near LinkedIn's 608 official levels (random growth
    gave a one-cell region in 86% of puzzles, LinkedIn 23%)."""
    made = summarise(region_shapes(generate_puzzle(n, rng=seed)) for n in (8, 9, 10) for seed in range(1, 13))
    assert abs(made.smallest_median - LINKEDIN.smallest_median) <= 1
    assert abs(made.single_share - LINKEDIN.single_share) <= 0.2
    assert abs(made.largest_per_n - LINKEDIN.largest_per_n) <= 0.6
    assert abs(made.compactness - LINKEDIN.compactness) <= 0.06


def test_bench_times_making_puzzles_of_a_difficulty(capsys):
    assert main(["bench", "--generate", "7", "--difficulty", "medium", "--seeds", "2", "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["generator"][0]
    assert run["difficulty"] == "medium" and len(run["seconds"]) == 2 and not run["problems"]
