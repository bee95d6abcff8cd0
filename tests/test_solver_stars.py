"""Star Battle (k > 1) additions of issue 12: the bounded `trial` rule on a small board, its
explanation, its soundness against brute force (with trials at every node, where they are
exercised hardest), and the hard generated set (every puzzle unique)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import queens_autosolve.solver.branching as branching
from queens_autosolve.bench.baseline import count_solutions as baseline_count
from queens_autosolve.solver import SearchResult, explain, search
from queens_autosolve.solver.block_rules import block_settles, cover_regions, region_cover
from queens_autosolve.solver.board import bits, changed_units
from queens_autosolve.solver.cut_rules import cut_groups, cut_regions
from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.patterns import band_pairs
from queens_autosolve.solver.place_rules import drop_unsupported, placements, settle_placements
from queens_autosolve.solver.propagate import (
    DEFAULT_RULES,
    RULES_CUTS,
    RULES_MANY,
    StepKind,
    board_of,
    fixed_point,
    place,
    propagate,
    rules_for,
    settle_units,
    trial,
)
from queens_autosolve.solver.puzzle import Puzzle, Solution, cells_of, is_solution, mask_of
from tests.checks import present
from tests.environment import GAMES
from tests.test_solver import assert_two_star_count_matches_the_baseline, grown_two_star_puzzle

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
HARDER_SET = GAMES / "stars4-17-harder.txt"
# `solver.search` is also the name of the function
SEARCH_MODULE: Any = sys.modules["queens_autosolve.solver.search"]


@cache
def set_puzzles(path: Path) -> tuple[Puzzle, ...]:
    return tuple(read_puzzles(str(path)))


@cache
def searched(path: Path, name: str) -> SearchResult:
    """`search(puzzle, limit=2)` with the default rules and settings, once a run for each puzzle
    of a games/ set: several tests judge the same hard searches (seconds each set). A test that
    changes the search's settings calls this before it does."""
    (puzzle,) = [p for p in set_puzzles(path) if p.name == name]
    return search(puzzle, limit=2)


def full(puzzle: Puzzle) -> int:
    return (1 << puzzle.n * puzzle.n) - 1


def stalled(puzzle: Puzzle) -> tuple[int, int]:
    state = propagate(board_of(puzzle), full(puzzle), 0)
    assert state is not None
    return state


def test_without_trials_propagation_stalls_on_the_small_board():
    _cand, queens = stalled(STALLS)
    assert queens.bit_count() < STALLS.n * STALLS.k


def test_trial_removes_cells_and_forces_queens_that_agree_with_the_answer():
    board = board_of(STALLS)
    cand, queens = stalled(STALLS)
    state = trial(board, cand, queens, None)
    assert state is not None
    answer = mask_of(present(search(STALLS).solution), STALLS.n)
    dropped = cand & ~state[0] & ~state[1]
    forced = state[1] & ~queens
    assert dropped and forced
    assert not dropped & answer
    assert forced & ~answer == 0


def test_with_trials_the_small_board_needs_no_guess():
    board = board_of(STALLS)
    state = propagate(board, full(STALLS), 0, trials=True)
    assert state is not None
    assert state[1] == mask_of(present(search(STALLS).solution), STALLS.n)


def test_trial_finds_a_contradiction_when_every_queen_a_unit_could_take_fails():
    # The answer's queens of row 1 removed: row 1 still has candidates, but none can hold a
    # queen together with the rest of an answer (the puzzle has only the one).
    answer = present(search(STALLS).solution)
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
def test_trials_at_every_node_count_what_brute_force_counts(seed, swaps):
    # Rows as regions have many two-star answers, so the union and intersection of the trials
    # are checked where several answers survive; swapping cells keeps some of them.
    with trials_at_every_node():
        assert_two_star_count_matches_the_baseline(seed, swaps)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_trials_at_every_node_agree_with_brute_force_on_grown_regions(seed):
    puzzle = grown_two_star_puzzle(seed)
    with trials_at_every_node():
        assert search(puzzle, limit=2).count == baseline_count(puzzle, 2)[0]


@contextmanager
def trials_at_every_node() -> Iterator[None]:
    """Trials at every node of the search (the product runs them at the root only), within the
    block only: a module-scoped fixture did this once and left it on for every later test of the
    module, which then did not test what the product runs."""
    saved = SEARCH_MODULE.TRIAL_DEPTH
    SEARCH_MODULE.TRIAL_DEPTH = 1 << 20
    try:
        yield
    finally:
        SEARCH_MODULE.TRIAL_DEPTH = saved


@pytest.mark.skipif(not HARD_SET.exists(), reason="games/stars4-17-hard.txt not made yet")
def test_hard_set_has_twenty_17x17_four_star_puzzles():
    puzzles = read_puzzles(str(HARD_SET))
    assert len(puzzles) == 20 and all((puzzle.n, puzzle.k) == (17, 4) for puzzle in puzzles)


# One test a puzzle: the workers share the 20 searches out.
@pytest.mark.skipif(not HARD_SET.exists(), reason="games/stars4-17-hard.txt not made yet")
@pytest.mark.parametrize("index", range(20))
def test_each_puzzle_of_the_hard_set_has_one_answer(index):
    puzzle = set_puzzles(HARD_SET)[index]
    result = searched(HARD_SET, puzzle.name)
    assert result.count == 1, puzzle.name
    assert is_solution(puzzle, present(result.solution))


def test_harder_set_takes_the_search_more_nodes_than_the_hard_set_does():
    """games/stars4-17-harder.txt (hardened maps: generate --harden) is what its README says: ten
    or more 17x17 4-star puzzles with one answer each, every one costing more search nodes than
    the median puzzle of games/stars4-17-hard.txt."""
    harder = set_puzzles(HARDER_SET)
    hard_nodes = sorted(searched(HARD_SET, puzzle.name).nodes for puzzle in set_puzzles(HARD_SET))
    median = hard_nodes[len(hard_nodes) // 2]
    assert len(harder) >= 10
    for puzzle in harder:
        assert (puzzle.n, puzzle.k) == (17, 4) and "harden" in puzzle.meta
        result = searched(HARDER_SET, puzzle.name)
        assert result.count == 1 and is_solution(puzzle, present(result.solution)), puzzle.name
        assert result.nodes > median, puzzle.name


# --- the block covers and the rules' memory of their last call (issue 12, speed) ----------------


def test_band_pairs_lists_both_greedy_covers_only_when_exactly_need_blocks_fit():
    # positions 0, 1, 2, 4, 5: covers 01|2|45 from the left and 45|12|0 from the right
    band = 0b110111
    assert band_pairs(band, 3) == (0b11, 0b100, 0b110000, 0b110000, 0b110, 0b1)
    assert band_pairs(band, 4) is None  # only three fit
    assert band_pairs(band, 2) == ()  # more than two fit: nothing to settle


def test_block_settles_names_the_lonely_cells_and_the_cells_touching_a_whole_block():
    board = board_of(STALLS)
    n = STALLS.n
    lonely = 1 << (4 * n + 4)  # e4 alone in its block
    pair = 1 << 0 | 1 << 1  # a1 and b1 side by side
    singles, touching = block_settles(board, [lonely, pair])
    assert singles == lonely
    # a queen on (1, 0) or (1, 1) would take both (0, 0) and (0, 1); (0, 2) and (1, 2) touch one
    assert touching == mask_of([(1, 0), (1, 1)], n)


def test_region_cover_counts_blocks_up_to_k_plus_one():
    board = board_of(STALLS)
    region = board.region_masks[0]
    count, _, _ = region_cover(board, region)
    assert count == STALLS.k + 1  # region A is roomy: the cover stops counting past k
    two_blocks = mask_of([(0, 0), (3, 3)], STALLS.n)
    assert region_cover(board, two_blocks) == (2, two_blocks, 0)


def test_changed_units_lists_the_units_of_the_cells_gone_since_the_last_call():
    board = board_of(STALLS)
    n, everything = STALLS.n, full(STALLS)
    gone = 1 << (2 * n + 5)  # row 3, column 6
    seen = (everything, everything, everything)
    todo = changed_units(board, seen, everything & ~gone, everything & ~gone, everything & ~gone)
    region = STALLS.regions[2][5]
    assert todo == 1 << 2 | 1 << (n + 5) | 1 << (2 * n + region)
    # a state that does not lie within what the last call left: every unit
    assert changed_units(board, (everything & ~gone, everything, everything), everything, everything,
                         everything) == -1
    assert changed_units(board, None, everything, everything, everything) == -1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_what_the_rules_skip_as_unchanged_leaves_nothing_a_fresh_board_finds(seed):
    # Propagation on one board, whose rules skip the units unchanged since their last call, from
    # states down random branches (so the last call is often on another branch): each fixed
    # point it reaches is one for every rule on a fresh board that remembers nothing.
    rng = random.Random(seed)
    puzzles = read_puzzles(str(HARD_SET)) if HARD_SET.exists() else [STALLS]
    puzzle = rng.choice([*puzzles[:5], STALLS])
    board = board_of(puzzle)
    for _ in range(3):
        state: tuple[int, int] | None = (full(puzzle), 0)
        while state is not None:
            state = propagate(board, *state)
            if state is None or state[1].bit_count() == puzzle.n * puzzle.k:
                break
            fresh = board_of(puzzle)
            for rule in rules_for(puzzle.k, search=True):
                assert rule(fresh, *state, None) == state, rule.__name__
            options = cells_of(state[0], puzzle.n)
            state = place(board, *state, mask_of([rng.choice(options)], puzzle.n))


def test_the_rules_memory_settles_no_more_than_a_fresh_call_but_a_greedy_cover_and_the_answer_stays():
    # Each rule call of a search made again with the memory of the last calls wiped: whatever
    # the call with memory settled, the fresh one settles too. It may settle more (the memory
    # skips what the last call saw unchanged; the fixed points propagation reaches are checked
    # against fresh rules above), so the search may take other paths and other node counts (at
    # trials at the root only, as the product runs: 42 nodes here, 46 with no memory), but it
    # finds the same answers. One exception: a greedy 2x2 cover does not shrink with its cells (a
    # fresh cover_regions may first shrink a region by another's finds and then prove less in
    # it), so there the call with memory may rarely settle more; it must keep the answer.
    puzzle = set_puzzles(HARD_SET)[1] if HARD_SET.exists() else STALLS
    expected = searched(HARD_SET, puzzle.name) if HARD_SET.exists() else search(puzzle, limit=2)
    answer = mask_of(present(expected.solution).queens, puzzle.n)
    calls: list[tuple[str, Any, Any, tuple[int, int]]] = []

    def checked(rule):
        def run(board, cand, queens, log):
            out = rule(board, cand, queens, log)
            after = board.memo.last_calls()
            board.memo.resume((None,) * len(after))
            calls.append((rule.__name__, out, rule(board, cand, queens, None), (cand, queens)))
            board.memo.resume(after)
            return out

        return run

    result = search(puzzle, limit=2, rules=DEFAULT_RULES.each(lambda rules: tuple(map(checked, rules))))
    assert (result.count, result.solution) == (expected.count, expected.solution)
    assert len(calls) > 100
    more = 0
    for name, out, fresh, (cand, queens) in calls:
        if out is None:
            assert fresh is None  # a contradiction found with memory is found without
        elif fresh is not None and (fresh[0] & ~out[0] or out[1] & ~fresh[1]):
            more += 1
            assert name == "cover_regions"
            if queens & ~answer == 0 and answer & ~(cand | queens) == 0:
                assert out[1] & ~answer == 0 and answer & ~(out[0] | out[1]) == 0
    assert more <= len(calls) // 100


def test_the_search_leaves_confine_out_from_two_stars_and_explanations_keep_it():
    for k in (2, 3, 5):
        names = [rule.__name__ for rule in rules_for(k, search=True)]
        assert "confine" not in names and "count_blocks" in names, k
        assert "confine" in [rule.__name__ for rule in rules_for(k)], k
    assert "confine" in [rule.__name__ for rule in rules_for(1, search=True)]


# --- branching on a block known to hold one queen (solver/branching.py) ------------------------


@contextmanager
def eager_blocks():
    """Block branching for k=2 too, whenever a block gives fewer branches than the unit (the
    product: k >= 4, and far fewer), so that small boards exercise it."""
    saved = branching.BLOCK_FROM_K, branching.MARGIN
    branching.BLOCK_FROM_K, branching.MARGIN = 2, 1
    try:
        yield
    finally:
        branching.BLOCK_FROM_K, branching.MARGIN = saved


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), swaps=st.integers(0, 14))
def test_branching_on_blocks_counts_what_brute_force_counts(seed, swaps):
    with eager_blocks():
        assert_two_star_count_matches_the_baseline(seed, swaps)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_branching_on_blocks_agrees_with_brute_force_on_grown_regions(seed):
    puzzle = grown_two_star_puzzle(seed)
    with eager_blocks():
        assert search(puzzle, limit=3).count == baseline_count(puzzle, 3)[0]


def test_block_branch_finds_blocks_that_hold_one_queen_of_the_answer(monkeypatch):
    # Every block the search branches on, in a state the answer lies within, holds exactly one
    # of its queens; and the search still proves the answer unique.
    puzzle = read_puzzles(str(HARD_SET))[0]
    answer = mask_of(present(search(puzzle, limit=1).solution).queens, puzzle.n)
    found = []

    def spy(board, cand, queens, branches):
        block, line = branching.block_branch(board, cand, queens, branches)
        if block and queens & ~answer == 0 and answer & ~(cand | queens) == 0:
            found.append(block)
            assert 0 <= line < 2 * board.n
        return block, line

    monkeypatch.setattr(SEARCH_MODULE, "block_branch", spy)
    result = search(puzzle, limit=2)
    assert result.count == 1 and is_solution(puzzle, present(result.solution))
    assert found
    assert all((block & answer).bit_count() == 1 for block in found)


def test_block_branch_leaves_small_k_and_tight_units_alone():
    puzzle = read_puzzles(str(HARD_SET))[0]
    board = board_of(puzzle)
    cand, queens = present(propagate(board, full(puzzle), 0))
    assert branching.block_branch(board, cand, queens, 2) == (0, -1)  # a yes/no unit stays
    board2 = board_of(STALLS)
    cand2, queens2 = stalled(STALLS)
    assert branching.block_branch(board2, cand2, queens2, 100) == (0, -1)  # k=2


def test_explain_words_a_guess_on_a_block_and_still_reaches_the_answer():
    puzzle = Puzzle.from_region_grid([[r] * 8 for r in range(8)], k=2)  # many answers: guesses
    with eager_blocks():
        steps = explain(puzzle)
    guesses = [step.text for step in steps if step.kind == StepKind.GUESS]
    blocks = [text for text in guesses if " in a 2x2 block of " in text]
    assert blocks and all(text.endswith("only one to a block)") for text in blocks), guesses
    assert steps[-1].kind == "solved"
    assert is_solution(puzzle, Solution.of(steps[-1].cells))


# --- the search's memory: rules resumed per branch, contradictions weighed per unit ------------


def test_resume_takes_the_rules_back_to_what_they_left_at_a_node():
    board = board_of(STALLS)
    cand, queens = present(propagate(board, full(STALLS), 0))
    calls = board.memo.last_calls()
    assert all(seen is not None for seen in calls[:4])  # cut_regions runs from k = 4
    child = place(board, cand, queens, cand & -cand)
    assert child is not None
    propagate(board, *child)
    assert board.memo.last_calls() != calls
    board.memo.resume(calls)
    assert board.memo.last_calls() == calls


def test_resume_keeps_the_rules_looking_only_at_what_a_branch_changed():
    # After a branch's whole subtree, a sibling started from the node's memory is looked at unit
    # by unit (changed_units lists units), not as a stranger (-1: every unit).
    board = board_of(STALLS)
    cand, queens = present(propagate(board, full(STALLS), 0))
    calls = board.memo.last_calls()
    first, second = cand & -cand, (cand & (cand - 1)) & -(cand & (cand - 1))
    deep = place(board, cand, queens, first)
    assert deep is not None
    propagate(board, *deep)
    sibling = place(board, cand & ~first, queens, second)
    assert sibling is not None
    live = sibling[0] | sibling[1]
    board.memo.resume(calls)
    assert changed_units(board, board.memo.settled, sibling[0], live, live) != -1


def test_a_unit_short_of_candidates_is_blamed_for_the_contradiction():
    board = board_of(STALLS)
    cand = full(STALLS) & ~(board.rows[0] & ~1)  # row 0 keeps one candidate, and needs 2
    assert settle_units(board, cand, 0, None) is None
    assert board.memo.blame == 1 << 0


def test_a_region_with_too_few_blocks_is_blamed_for_the_contradiction():
    board = board_of(STALLS)
    n = STALLS.n
    g = STALLS.regions[0][0]  # region A, the top left corner
    square = board.squares[0][0]  # the 2x2 square at the top left: one queen at most
    cand = full(STALLS) & ~(board.region_masks[g] & ~square)
    assert cover_regions(board, cand, 0, None) is None
    assert board.memo.blame == 1 << (2 * n + g)


def test_a_failed_node_counts_against_the_units_it_blames():
    board = board_of(STALLS)
    weights = [0] * len(board.units)
    board.memo.blame = 1 << 0 | 1 << 5
    SEARCH_MODULE._weigh_failure(board, weights)
    assert weights[0] == weights[5] == 1 and sum(weights) == 2
    assert board.memo.blame == 0
    one_queen = board_of(Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"]))
    one_queen.memo.blame = 1
    SEARCH_MODULE._weigh_failure(one_queen, weights)  # k = 1 keeps its order: no weights
    assert sum(weights) == 2 and one_queen.memo.blame == 0


def test_the_tightest_unit_goes_on_ties_to_the_unit_with_more_contradictions():
    puzzle = Puzzle.from_region_grid([[r] * 6 for r in range(6)], k=2)  # the regions are the rows
    board = board_of(puzzle)
    row_1 = board.rows[1]
    # row 1, column 0 and region B (row 1 again) lose a cell: the tightest units, 3 to spare
    cand, queens = full(puzzle) & ~(row_1 & -row_1), 0
    rightmost = 2 * puzzle.n + 1  # region B, the last of them
    weights = [0] * len(board.units)
    assert SEARCH_MODULE._tightest_unit(board, cand, queens, weights) == (1, 2)
    weights[rightmost] = 1
    assert SEARCH_MODULE._tightest_unit(board, cand, queens, weights) == (rightmost, 2)
    weights[0] = 99  # a roomier unit stays behind, however often it failed
    assert SEARCH_MODULE._tightest_unit(board, cand, queens, weights) == (rightmost, 2)


# --- cuts between adjacent lines against the regions they split (solver/cut_rules.py) ----------

# Row 1 is region A but for its last cell, of region B, which runs down column 6 to row 4.
CUT = Puzzle.from_rows(["AAAAAB", "CCCCCB", "CDDEEB", "CDDEEB", "DDDEEF", "DDFFFF"], k=2)


def test_a_cut_empties_the_split_regions_on_a_side_that_whole_regions_fill():
    # Row 1 holds A's two queens: the cut below it leaves none for B above it.
    board = board_of(CUT)
    rows_of = [sum(1 << r for r in {r for r, _ in cells_of(mask, 6)}) for mask in board.region_masks]
    groups = cut_groups(board, rows_of, True)
    assert groups is not None
    empty, (_, held, horizontal, *_) = next(iter(groups.items()))
    assert held == 0 and horizontal
    assert empty == mask_of([(0, 5)], 6)
    # Rows 2-6 hold 10 queens, 8 of them the four regions wholly there: B's cells there hold 2.
    assert (mask_of([(1, 5), (2, 5), (3, 5)], 6), 2) in [(g, group[1]) for g, group in groups.items()]


def test_cut_groups_fail_when_more_regions_lie_wholly_on_one_side_than_it_has_lines():
    board = board_of(CUT)
    rows_of = [0b1, 0b1, 0b110, 0b1100, 0b11000, 0b111000]  # A and B both in row 1 alone
    assert cut_groups(board, rows_of, True) is None
    assert cut_groups(board, [0b1, 0b1111, 0b1110, 0b111100, 0b111100, 0b111000], True) is not None


def test_a_cut_whose_split_cells_fit_only_their_queens_puts_one_in_each_block():
    # Where propagation stalls on the small board, columns 1-5 hold 10 queens, 8 of them the
    # regions wholly there: F's and I's cells there fit just 2 blocks, one a single cell, r5c5.
    board = board_of(STALLS)
    stall = fixed_point(board, full(STALLS), 0, RULES_MANY)  # the search's own rules run cut_regions
    assert stall is not None
    cand, queens = stall
    answer = mask_of(present(search(STALLS, limit=1).solution).queens, STALLS.n)
    log: list = []
    state = cut_regions(board, cand, queens, log)
    assert state is not None
    assert state[1] & ~queens == mask_of([(4, 4)], STALLS.n) and answer & mask_of([(4, 4)], STALLS.n)
    assert answer & ~(state[0] | state[1]) == 0
    assert [step.kind for step in log] == [StepKind.BLOCK] and "regions F, I in columns 1-5" in log[0].text


def answer_keeping(rule, puzzle, finds):
    """`rule`, asserting in every state the search meets that the answer lies within that it
    keeps the answer (removes none of its queens, places none elsewhere); what it changes goes
    to `finds`."""
    answer = mask_of(present(search(puzzle, limit=1).solution).queens, puzzle.n)

    def spy(board, cand, queens, log):
        state = rule(board, cand, queens, log)
        if queens & ~answer == 0 and answer & ~(cand | queens) == 0:
            assert state is not None
            assert state[1] & ~answer == 0 and answer & ~(state[0] | state[1]) == 0
            if state != (cand, queens):
                finds.append(state)
        return state

    return spy


@pytest.mark.parametrize(
    ("path", "index"), [(HARD_SET, 3), (GAMES / "stars3-14.txt", 0), (GAMES / "stars2-11.txt", 0)],
    ids=["k4", "k3", "k2"],
)
def test_cut_regions_keeps_the_answer_along_the_search(monkeypatch, path, index):
    # In every state the search meets that the answer lies within, the rule keeps the answer
    # (removes none of its queens, places none elsewhere); and it finds something.
    puzzle = read_puzzles(str(path))[index]
    finds: list[tuple[int, int]] = []
    spy = answer_keeping(cut_regions, puzzle, finds)
    spied = replace(DEFAULT_RULES, cuts=tuple(spy if rule is cut_regions else rule for rule in RULES_CUTS))
    monkeypatch.setattr(SEARCH_MODULE, "TRIAL_DEPTH", -1)  # no trials below the root
    result = search(puzzle, limit=2, rules=spied)
    assert result.count == 1 and is_solution(puzzle, present(result.solution))
    assert finds


def test_the_search_counts_cuts_from_two_to_four_stars_only():
    for k in (2, 3, 4):
        assert "cut_regions" in [rule.__name__ for rule in rules_for(k, search=True)], k
    assert "cut_regions" not in [rule.__name__ for rule in rules_for(1, search=True)]
    assert "cut_regions" not in [rule.__name__ for rule in rules_for(5, search=True)]
    assert "cut_regions" not in [rule.__name__ for rule in rules_for(4)]  # explanations


# --- failed-literal probing at the root (issue 34) -----------------------------------------------


def test_probing_the_root_removes_cells_learns_conflicts_and_keeps_the_answer():
    puzzle = read_puzzles(str(HARD_SET))[2]
    answer = mask_of(present(search(puzzle, limit=1).solution).queens, puzzle.n)
    board = board_of(puzzle)
    root = present(propagate(board, (1 << puzzle.n**2) - 1, 0))
    conflicts = list(board.kill)
    probed, probes = SEARCH_MODULE.probe(board, *root, conflicts=conflicts)
    assert probes > 0 and probed is not None
    cand, queens = probed
    assert cand & ~root[0] == 0 and cand != root[0]  # cells went, none came back
    assert queens & ~answer == 0 and answer & ~(cand | queens) == 0
    # two cells whose queens the probes found cannot both stand: each in the other's mask, never
    # two queens of the answer; and more is found than the neighbours
    learned = [conflicts[i] & ~board.kill[i] for i in range(puzzle.n**2)]
    assert sum(mask.bit_count() for mask in learned) > 0
    for i, mask in enumerate(learned):
        assert not (answer >> i & 1 and mask & answer)
        assert all(learned[j] >> i & 1 for j in bits(mask))


def test_probing_the_root_learns_the_queens_a_queen_forces_and_keeps_the_answer():
    # wanted[z] holds x when the probe of x placed a queen on z: an answer with a queen on x has
    # one on z
    puzzle = read_puzzles(str(HARD_SET))[2]
    answer = mask_of(present(search(puzzle, limit=1).solution).queens, puzzle.n)
    board = board_of(puzzle)
    root = present(propagate(board, (1 << puzzle.n**2) - 1, 0))
    wanted = [0] * puzzle.n**2
    SEARCH_MODULE.probe(board, *root, conflicts=list(board.kill), wanted=wanted)
    assert sum(mask.bit_count() for mask in wanted) > 0
    for z, mask in enumerate(wanted):
        assert not (mask & answer and not answer >> z & 1)


def test_a_hard_board_searched_again_from_a_probed_root_takes_fewer_nodes(monkeypatch):
    puzzle = set_puzzles(HARD_SET)[2]
    probed = searched(HARD_SET, puzzle.name)
    monkeypatch.setattr(SEARCH_MODULE, "PROBE_FROM_K", 99)
    plain = search(puzzle, limit=2)
    assert probed.count == plain.count == 1
    assert probed.solution == plain.solution
    assert probed.nodes < plain.nodes  # counting the probes and the search that gave up


def test_a_big_probed_search_probes_the_root_branches_and_takes_fewer_nodes(monkeypatch):
    # past PROBE_BRANCHES_AFTER nodes, and its plain search is cheap (the biggest tree's is not)
    (puzzle,) = [p for p in set_puzzles(HARDER_SET) if p.name == "gen-n17-k4-s1003"]
    probed = searched(HARDER_SET, puzzle.name)
    monkeypatch.setattr(SEARCH_MODULE, "PROBE_BRANCHES_AFTER", 1 << 30)
    plain = search(puzzle, limit=2)
    assert probed.count == plain.count == 1 and probed.solution == plain.solution
    assert probed.nodes < plain.nodes  # counting every probe


# --- placements of a unit's queens (issue 34) ------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), need=st.integers(1, 4))
def test_placements_are_what_every_set_of_apart_cells_gives(seed, need):
    rng = random.Random(seed)
    cells = 10
    apart = [[rng.random() < 0.3 for _ in range(cells)] for _ in range(cells)]  # random conflicts, both ways
    kill = tuple(1 << i | sum(1 << j for j in range(cells) if apart[min(i, j)][max(i, j)])
                 for i in range(cells))
    live = rng.getrandbits(cells)
    sets = [sum(1 << i for i in chosen) for chosen in combinations(bits(live), need)
            if all(not kill[i] >> j & 1 for i, j in combinations(chosen, 2))]
    takes = [_union(kill[i] for i in bits(chosen)) for chosen in sets]
    expected = (_union(sets), _meet(sets), _meet(takes)) if sets else (0, 0, 0)
    assert placements(kill, live, need) == expected


def _union(masks: Iterable[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _meet(masks: Iterable[int]) -> int:
    out = -1
    for mask in masks:
        out &= mask
    return out


def test_placements_keep_the_answer_and_settle_cells_in_a_probed_search():
    # In every state the probed search meets that the answer lies within, the rule keeps the
    # answer; and it finds something.
    puzzle = read_puzzles(str(HARD_SET))[5]  # s11: [2] is all but solved by its probed root
    finds: list[tuple[int, int]] = []
    spy = answer_keeping(settle_placements, puzzle, finds)
    spied = replace(DEFAULT_RULES, probed=(spy,))
    result = search(puzzle, limit=2, rules=spied)
    assert result.count == 1 and is_solution(puzzle, present(result.solution))
    assert finds


def test_dropping_unsupported_cells_keeps_the_answer_and_finds_cells_in_a_probed_search():
    puzzle = read_puzzles(str(HARD_SET))[5]
    finds: list[tuple[int, int]] = []
    spy = answer_keeping(drop_unsupported, puzzle, finds)
    spied = replace(DEFAULT_RULES, probed=(spy, settle_placements))
    result = search(puzzle, limit=2, rules=spied)
    assert result.count == 1 and is_solution(puzzle, present(result.solution))
    assert finds


def test_only_a_probed_search_settles_placements():
    names = [rule.__name__ for rule in DEFAULT_RULES.after_probing().for_k(4, search=True)]
    assert names[-2:] == ["drop_unsupported", "settle_placements"]
    assert "settle_placements" not in [rule.__name__ for rule in rules_for(4, search=True)]
    assert "settle_placements" not in [rule.__name__ for rule in rules_for(4)]  # explanations


@contextmanager
def probing_at_once() -> Iterator[None]:
    """Probing from two stars up, after the first node, and the root's branches probed at once:
    exercised on small boards."""
    saved = SEARCH_MODULE.PROBE_FROM_K, SEARCH_MODULE.PROBE_AFTER, SEARCH_MODULE.PROBE_BRANCHES_AFTER
    SEARCH_MODULE.PROBE_FROM_K, SEARCH_MODULE.PROBE_AFTER, SEARCH_MODULE.PROBE_BRANCHES_AFTER = 2, 1, 0
    try:
        yield
    finally:
        SEARCH_MODULE.PROBE_FROM_K, SEARCH_MODULE.PROBE_AFTER, SEARCH_MODULE.PROBE_BRANCHES_AFTER = saved


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), swaps=st.integers(0, 14))
def test_probing_counts_what_brute_force_counts(seed, swaps):
    with probing_at_once():
        assert_two_star_count_matches_the_baseline(seed, swaps)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_probing_agrees_with_brute_force_on_grown_regions(seed):
    puzzle = grown_two_star_puzzle(seed)
    with probing_at_once():
        assert search(puzzle, limit=3).count == baseline_count(puzzle, 3)[0]


def test_a_rule_set_passed_in_changes_that_search_only():
    # count_blocks cuts s3's search too, whose search without it is a fraction of s6's
    puzzle = set_puzzles(HARD_SET)[1] if HARD_SET.exists() else STALLS
    usual = searched(HARD_SET, puzzle.name) if HARD_SET.exists() else search(puzzle, limit=2)
    without = search(puzzle, limit=2, rules=DEFAULT_RULES.without("count_blocks"))
    assert "count_blocks" not in [rule.__name__ for rule in DEFAULT_RULES.without("count_blocks").for_k(4)]
    assert without.count == usual.count == 1 and without.solution == usual.solution
    assert without.nodes > usual.nodes  # count_blocks is the rule the big boards live on
    assert search(puzzle, limit=2) == usual  # the default rules are untouched
