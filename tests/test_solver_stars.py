"""Star Battle (k > 1) additions of issue 12: the bounded `trial` rule on a small board, its
explanation, its soundness against brute force (with trials at every node, where they are
exercised hardest), and the hard generated set (every puzzle unique)."""

from __future__ import annotations

import random
import sys

import pytest
from conftest import GAMES
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import assert_two_star_count_matches_the_baseline

from solver import explain, search
from solver.baseline import count_solutions as baseline_count
from solver.formats import read_puzzles
from solver.propagate import StepKind, board_of, propagate, trial
from solver.puzzle import Puzzle, is_solution, mask_of
from solver.regions import grow_regions

# gen-n9-k2-s1 from our generator: propagation without trials stalls on it, with 52 candidates
# and no queen settled; trying each cell of its tight units settles it.
STALLS = Puzzle.from_rows(
    [
        "AAAABCCDD",
        "AAABBCDDD",
        "EBABBCDDC",
        "EBABBCCCC",
        "EBBBFFCCC",
        "EEEFFFFGG",
        "EEEHFFFFG",
        "HEHHIIGGG",
        "HHHIIIGGG",
    ],
    k=2,
)
HARD_SET = GAMES / "stars4-17-hard.txt"
SEARCH_MODULE = sys.modules["solver.search"]  # `solver.search` is also the name of the function


def full(puzzle: Puzzle) -> int:
    return (1 << puzzle.n * puzzle.n) - 1


def stalled(puzzle: Puzzle) -> tuple[int, int]:
    state = propagate(board_of(puzzle), full(puzzle), 0)
    assert state is not None
    return state


def test_without_trials_propagation_stalls_on_the_small_board():
    cand, queens = stalled(STALLS)
    assert queens.bit_count() < STALLS.n * STALLS.k


def test_trial_removes_cells_and_forces_queens_that_agree_with_the_answer():
    board = board_of(STALLS)
    cand, queens = stalled(STALLS)
    state = trial(board, cand, queens, None)
    assert state is not None
    answer = mask_of(search(STALLS).solution, STALLS.n)
    dropped = cand & ~state[0] & ~state[1]
    forced = state[1] & ~queens
    assert dropped and forced
    assert not dropped & answer
    assert forced & ~answer == 0


def test_with_trials_the_small_board_needs_no_guess():
    board = board_of(STALLS)
    state = propagate(board, full(STALLS), 0, trials=True)
    assert state is not None
    assert state[1] == mask_of(search(STALLS).solution, STALLS.n)


def test_trial_finds_a_contradiction_when_every_queen_a_unit_could_take_fails():
    # The answer's queens of row 1 removed: row 1 still has candidates, but none can hold a
    # queen together with the rest of an answer (the puzzle has only the one).
    answer = search(STALLS).solution
    board = board_of(STALLS)
    row_one = mask_of([cell for cell in answer if cell[0] == 0], STALLS.n)
    state = propagate(board, full(STALLS) & ~row_one, 0, trials=True)
    assert state is None


def test_trial_does_nothing_when_no_unit_is_tight():
    board = board_of(STALLS)
    assert trial(board, full(STALLS), 0, None) == (full(STALLS), 0)


def test_explain_words_the_trial_as_one_step():
    steps = explain(STALLS)
    trials = [step for step in steps if step.kind == StepKind.TRIAL]
    assert trials, [step.text for step in steps]
    assert trials[0].text.startswith("try a queen on each candidate of ")
    assert " in turn and propagate: " in trials[0].text
    assert "whichever way" in trials[0].text
    assert trials[0].cells
    assert steps[-1].kind == "solved" and not any(step.guess for step in steps)


def test_explain_keeps_the_older_step_kinds():
    kinds = {step.kind for step in explain(STALLS)}
    assert kinds <= {"single", "attack", "confine", "block", "line", "trial", "guess", "backtrack",
                     "contradiction", "given", "solved"}


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), swaps=st.integers(0, 14))
def test_trials_at_every_node_count_what_brute_force_counts(seed, swaps, monkeypatch_depth):
    # Rows as regions have many two-star answers, so the union and intersection of the trials
    # are checked where several answers survive; swapping cells keeps some of them.
    assert_two_star_count_matches_the_baseline(seed, swaps)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_trials_at_every_node_agree_with_brute_force_on_grown_regions(seed, monkeypatch_depth):
    rng = random.Random(seed)
    n = 8
    seeds = rng.sample([(r, c) for r in range(n) for c in range(n)], n)
    puzzle = Puzzle.from_region_grid(grow_regions(n, seeds, rng), k=2)
    assert search(puzzle, limit=2).count == baseline_count(puzzle, 2)[0]


@pytest.fixture(scope="module")
def monkeypatch_depth():
    """Trials at every node of the search (the product runs them at the root only)."""
    saved = SEARCH_MODULE.TRIAL_DEPTH
    SEARCH_MODULE.TRIAL_DEPTH = 1 << 20
    yield
    SEARCH_MODULE.TRIAL_DEPTH = saved


@pytest.mark.skipif(not HARD_SET.exists(), reason="games/stars4-17-hard.txt not made yet")
def test_hard_set_has_twenty_17x17_four_star_puzzles_each_with_one_answer():
    puzzles = read_puzzles(str(HARD_SET))
    assert len(puzzles) >= 20
    for puzzle in puzzles:
        assert (puzzle.n, puzzle.k) == (17, 4)
        result = search(puzzle, limit=2)
        assert result.count == 1, puzzle.name
        assert is_solution(puzzle, result.solution)
