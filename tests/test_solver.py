"""The solver: each propagation rule on a tiny hand-made board, the search and its counting, the
explanation, and property tests against brute force on random boards."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from queens_autosolve.bench.baseline import count_solutions as baseline_count
from queens_autosolve.solver import SearchResult, Solution, Step, count_solutions, explain, search, solve
from queens_autosolve.solver.board import Board
from queens_autosolve.solver.propagate import (
    board_of,
    board_of_regions,
    confine,
    count_blocks,
    cover_regions,
    eliminate_attackers,
    propagate,
    settle_units,
    squeeze_units,
)
from queens_autosolve.solver.puzzle import Puzzle, cells_of, is_solution, mask_of
from queens_autosolve.solver.regions import grow_regions, random_regions
from queens_autosolve.solver.search import search_board
from queens_autosolve.solver.unit_rules import _confine_lines_to_regions
from tests.checks import present


def full(puzzle: Puzzle) -> int:
    return (1 << puzzle.n * puzzle.n) - 1


def without(puzzle: Puzzle, cells: list[tuple[int, int]]) -> int:
    """All cells candidates except `cells`."""
    return full(puzzle) & ~mask_of(cells, puzzle.n)


def removed(puzzle: Puzzle, before: int, after: int) -> list[tuple[int, int]]:
    return cells_of(before & ~after, puzzle.n)


# --- settle_units (singles) ---------------------------------------------------------------------


def test_a_unit_with_one_candidate_gets_the_queen_and_its_kill_cells_go():
    puzzle = Puzzle.from_rows(["ABBBB", "BBBBC", "DDCCC", "DDEEE", "DDEEE"])
    board = board_of(puzzle)
    cand, queens = present(settle_units(board, full(puzzle), 0, None))
    assert (0, 0) in cells_of(queens, 5)
    left = cells_of(cand, 5)
    for cell in [(0, 1), (0, 4), (1, 0), (1, 1), (4, 0)]:  # row, column, touching
        assert cell not in left


def test_a_unit_with_no_candidates_is_a_contradiction():
    puzzle = Puzzle.from_rows(["AABB", "AABB", "CCDD", "CCDD"])
    board = board_of(puzzle)
    assert settle_units(board, without(puzzle, [(2, 0), (2, 1), (2, 2), (2, 3)]), 0, None) is None


def test_for_two_stars_a_unit_with_exactly_two_candidates_gets_both_and_a_full_unit_empties():
    rows = ["AAAAAAAA", "BBBBBBBB", "CCCCCCCC", "DDDDDDDD", "EEEEEEEE", "FFFFFFFF", "GGGGGGGG", "HHHHHHHH"]
    puzzle = Puzzle.from_rows(rows, k=2)
    board = board_of(puzzle)
    row0_gone = [(0, c) for c in range(8) if c not in (1, 5)]
    cand, queens = present(settle_units(board, without(puzzle, row0_gone), 0, None))
    # Row 1's two queens leave row 2 only c4 and c8, so those follow in the same pass.
    assert cells_of(queens, 8) == [(0, 1), (0, 5), (1, 3), (1, 7)]
    assert not cand & (puzzle.units[0] | puzzle.units[1])  # full rows lose their other cells
    assert (2, 0) in cells_of(cand, 8) and (2, 2) not in cells_of(cand, 8)


# --- eliminate_attackers ------------------------------------------------------------------------


def test_cells_that_would_take_a_whole_region_are_removed():
    puzzle = Puzzle.from_rows(["AABBB", "CCBBB", "CCDDD", "EEDDD", "EEDDD"])
    board = board_of(puzzle)
    log: list[Step] = []
    cand, _ = present(eliminate_attackers(board, full(puzzle), 0, log))
    # Region A is r1c1-r1c2: the rest of row 1 and the two cells under it take both.
    step = next(s for s in log if "region A" in s.text)
    assert list(step.cells) == [(0, 2), (0, 3), (0, 4), (1, 0), (1, 1)]
    assert step.text == (
        "a queen on r1c3, r1c4, r1c5, r2c1, r2c2 would take every candidate of region A: remove them"
    )
    assert set(step.cells) <= set(removed(puzzle, full(puzzle), cand))
    assert (1, 2) in cells_of(cand, 5)  # touches r1c2 only


def test_for_two_stars_a_cell_touching_more_candidates_than_a_unit_can_spare_goes():
    rows = ["AAAAAAAA", "BBBBBBBB", "CCCCCCCC", "DDDDDDDD", "EEEEEEEE", "FFFFFFFF", "GGGGGGGG", "HHHHHHHH"]
    puzzle = Puzzle.from_rows(rows, k=2)
    board = board_of(puzzle)
    # Row 1 keeps c1, c2, c6: 3 candidates for 2 queens, one to spare. r2c1 and r2c2 each touch
    # two of them (c1 and c2), so a queen there would leave row 1 with one candidate.
    start = without(puzzle, [(0, c) for c in (2, 3, 4, 6, 7)])
    cand, _ = present(eliminate_attackers(board, start, 0, None))
    gone = removed(puzzle, start, cand)
    assert (1, 0) in gone and (1, 1) in gone
    assert (1, 4) not in gone and (1, 5) not in gone  # each touches one candidate only


# --- confine (pigeonhole) -----------------------------------------------------------------------

CONFINED = ["AACCC", "AACCC", "BBCDD", "BCCDD", "EEEEE"]


def test_regions_confined_to_columns_clear_those_columns():
    puzzle = Puzzle.from_rows(CONFINED)
    board = board_of(puzzle)
    log: list[Step] = []
    cand, _ = present(confine(board, full(puzzle), 0, log))
    gone = removed(puzzle, full(puzzle), cand)
    assert {(3, 1), (4, 0), (4, 1)} <= set(gone)  # regions A, B own columns 1-2
    assert {(2, 2), (3, 2)} <= set(gone)  # regions B, D own rows 3-4
    texts = [step.text for step in log]
    assert texts == [
        "regions B, D are confined to rows 3-4: remove r3c3, r4c2, r4c3",
        "regions A, B are confined to columns 1-2: remove r5c1, r5c2",  # r4c2 went just before
    ]


def test_rows_inside_regions_clear_the_rest_of_those_regions():
    # Rows 1-2 lie within regions A and B, so A and B have no queen below row 2.
    puzzle = Puzzle.from_rows(["AAABB", "AABBB", "ACCDB", "CCDDE", "CCDEE"])
    board = board_of(puzzle)
    log: list[Step] = []
    rows_regions = [0b00011, 0b00011, 0b01111, 0b11101, 0b11101]  # the regions each row meets
    confined = _confine_lines_to_regions(board, full(puzzle), 0, board.rows, rows_regions, "rows", log)
    cand, _ = present(confined)
    assert removed(puzzle, full(puzzle), cand) == [(2, 0), (2, 4)]
    assert [s.text for s in log] == ["rows 1-2 lie within regions A, B: remove r3c1, r3c5"]
    # confine finds it too (here as its mirror image: regions C, D, E fill rows 3-5)
    cand, _ = present(confine(board, full(puzzle), 0, None))
    assert {(2, 0), (2, 4)} <= set(removed(puzzle, full(puzzle), cand))


def test_too_many_regions_in_too_few_rows_is_a_contradiction():
    puzzle = Puzzle.from_rows(["AABBC", "AABBC", "DDDDC", "DDDDC", "EEEEE"])
    board = board_of(puzzle)
    start = without(puzzle, [(1, 4), (2, 4), (3, 4)])  # region C keeps r1c5 only
    assert confine(board, start, 0, None) is None  # A, B and C all within rows 1-2


def test_for_two_stars_what_is_left_of_lines_beyond_the_regions_inside_acts_as_a_unit():
    # Rows 1-2 hold 4 queens and region A (inside them) 2, so the rest of rows 1-2 holds exactly 2;
    # with r1c5, r1c7, r2c5 left there, a queen on r1c4 or r2c4 would leave one.
    rows = ["AAAABBCC", "AAAABBCC", "DDDDBBCC", "DDDDEEEE", "FFFFEEEE", "FFFFGGGG", "HHHHGGGG", "HHHHGGGG"]
    puzzle = Puzzle.from_rows(rows, k=2)
    start = without(puzzle, [(0, 5), (0, 7), (1, 5), (1, 6), (1, 7)])
    log: list[Step] = []
    cand, _ = present(confine(board_of(puzzle), start, 0, log))
    step = next(s for s in log if s.text.startswith("rows 1-2 outside region A hold exactly 2 queens"))
    assert step.cells == ((0, 3), (1, 3))
    assert not {(0, 3), (1, 3)} & set(cells_of(cand, 8))


def test_too_few_cells_left_beyond_the_regions_inside_is_a_contradiction():
    rows = ["AAAABBCC", "AAAABBCC", "DDDDBBCC", "DDDDEEEE", "FFFFEEEE", "FFFFGGGG", "HHHHGGGG", "HHHHGGGG"]
    puzzle = Puzzle.from_rows(rows, k=2)
    start = without(puzzle, [(0, 5), (0, 6), (0, 7), (1, 5), (1, 6), (1, 7)])  # only r1c5, r2c5
    assert confine(board_of(puzzle), start, 0, None) is None


# --- the 2x2 block rules (k > 1) ----------------------------------------------------------------

STRIPES_8 = ["AAAAAAAA", "BBBBBBBB", "CCCCCCCC", "DDDDDDDD", "EEEEEEEE", "FFFFFFFF", "GGGGGGGG", "HHHHHHHH"]


def stripes_with_row_1_cut_to_three_cells() -> tuple[Board, int]:
    """Eight one-row regions of two queens each, with only r1c1, r1c2, r1c3 left in row 1: the
    board and the candidates."""
    puzzle = Puzzle.from_rows(STRIPES_8, k=2)
    return board_of(puzzle), without(puzzle, [(0, c) for c in range(3, 8)])


def test_a_line_with_room_for_exactly_k_queens_places_them():
    board, start = stripes_with_row_1_cut_to_three_cells()
    log: list[Step] = []
    cand, queens = present(count_blocks(board, start, 0, log))
    assert log[0].text == (
        "row 1 has room for exactly 2 queens not side by side: r1c1, r1c3 must hold queens; remove r1c2"
    )
    assert {(0, 0), (0, 2)} <= set(cells_of(queens, 8)) and (0, 1) not in cells_of(cand, 8)


def test_a_band_of_two_rows_with_exactly_2k_blocks_fills_its_lonely_blocks():
    puzzle = Puzzle.from_rows(STRIPES_8, k=2)
    board = board_of(puzzle)
    # Row 1 keeps c1, c4, c7 and row 2 keeps c3, c5, c8: each row fits 3 queens, but the band
    # projects to c1, c3-5, c7-8, which takes exactly 4 blocks of 2 columns from either end.
    # Blocks c1-2, c5-6 (from the left) and c2-3 (from the right) have a single cell.
    keep = {(0, 0), (0, 3), (0, 6), (1, 2), (1, 4), (1, 7)}
    start = without(puzzle, [(r, c) for r in (0, 1) for c in range(8) if (r, c) not in keep])
    log: list[Step] = []
    _cand, queens = present(count_blocks(board, start, 0, log))
    assert {(0, 0), (1, 2), (1, 4)} <= set(cells_of(queens, 8))
    assert log[0].kind == "block"
    assert log[0].text.startswith("rows 1-2 need 4 queens in 4 separate 2x2 blocks, one in each: ")
    assert log[0].cells[:3] == ((0, 0), (1, 2), (1, 4))


def test_a_region_covered_by_k_blocks_puts_one_queen_in_each():
    rows = ["AABBBBBB", "HHHHHHHH", "CCCCCCCC", "CCCACCCC", "DDDDDDDD", "EEEEEEEE", "FFFFFFFF", "GGGGGGGG"]
    puzzle = Puzzle.from_rows(rows, k=2)
    board = board_of(puzzle)
    log: list[Step] = []
    cand, queens = present(cover_regions(board, full(puzzle), 0, log))
    assert (3, 3) in cells_of(queens, 8)  # the lone cell of region A's second block
    gone = removed(puzzle, full(puzzle), cand)
    assert (1, 0) in gone and (1, 1) in gone  # they touch both cells of the block r1c1-r1c2
    assert [s.kind for s in log] == ["block"]


def test_a_queen_beside_a_crowded_line_that_would_leave_it_too_little_room_goes():
    board, start = stripes_with_row_1_cut_to_three_cells()
    log: list[Step] = []
    cand, _ = present(squeeze_units(board, start, 0, log))
    gone = removed(board.puzzle, start, cand)
    # r2c4 touches only r1c3 (crowding misses it), but then r1c1-r1c2 fit one queen, not two
    assert {(1, 0), (1, 1), (1, 2), (1, 3), (0, 1)} <= set(gone)
    assert (1, 4) not in gone
    assert log[0].text == (
        "a queen on r1c2, r2c1, r2c2, r2c3, r2c4 would leave row 1 room for too few queens: remove them"
    )


def test_a_queen_that_would_leave_a_region_too_little_room_goes():
    rows = ["AAABBB", "AAABBB", "CCCDDD", "CCCDDD", "EEEFFF", "EEEFFF"]
    puzzle = Puzzle.from_rows(rows, k=2)
    board = board_of(puzzle)
    cand, _ = present(squeeze_units(board, full(puzzle), 0, None))
    gone = removed(puzzle, full(puzzle), cand)
    assert (2, 1) in gone  # takes r2c1-r2c3 from region A, leaving r1c1-r1c3: room for one
    assert (2, 0) not in gone  # leaves r1c1-r1c3 and r2c3: still two blocks


def test_a_region_that_fits_fewer_than_k_queens_is_a_contradiction():
    rows = ["AABBBBBB", "AABBBBBB", "CCCCCCCC", "DDDDDDDD", "EEEEEEEE", "FFFFFFFF", "GGGGGGGG", "HHHHHHHH"]
    puzzle = Puzzle.from_rows(rows, k=2)
    assert cover_regions(board_of(puzzle), full(puzzle), 0, None) is None


# --- rules are sound: they never remove a cell of any answer ------------------------------------


def all_answers(puzzle: Puzzle) -> list[frozenset[tuple[int, int]]]:
    """Every k=1 answer, by trying every permutation (small boards only)."""
    n = puzzle.n
    out = []
    for cols in permutations(range(n)):
        cells = list(enumerate(cols))
        if is_solution(puzzle, cells):
            out.append(frozenset(cells))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 6), seed=st.integers(0, 10**6), rule=st.sampled_from(["touch", "diagonal"]))
def test_propagation_keeps_every_answer(n, seed, rule):
    rng = random.Random(seed)
    grid = [[rng.randrange(n) for _ in range(n)] for _ in range(n)]
    for g in range(n):
        grid[g][rng.randrange(n)] = g  # every region has a cell
    for g in range(n):
        grid[rng.randrange(n)][g] = grid[rng.randrange(n)][g]
    puzzle = Puzzle.from_region_grid(grid, rule=rule)
    assume(puzzle.region_count == n)
    board = board_of(puzzle)
    answers = all_answers(puzzle)
    state = propagate(board, full(puzzle), 0, None)
    if state is None:
        assert answers == []
        return
    cand, queens = state
    for answer in answers:
        mask = mask_of(answer, n)
        assert mask & (cand | queens) == mask
        assert queens & ~mask == 0


# --- search ------------------------------------------------------------------------------------


def test_solve_finds_an_answer_and_counts_all_of_a_small_board():
    puzzle = Puzzle.from_rows(["AABBB", "AACCB", "DDCCE", "DDDEE", "DDDEE"])
    solution = solve(puzzle)
    assert solution is not None and is_solution(puzzle, solution)
    assert count_solutions(puzzle, limit=9) == baseline_count(puzzle, 9)[0] == 3


def test_a_board_without_answer_gives_none_and_zero():
    puzzle = Puzzle.from_rows(["AB", "CD"])
    assert solve(puzzle) is None
    assert search(puzzle) == SearchResult(None, 0, search(puzzle).nodes)


def test_counting_stops_at_the_limit():
    puzzle = Puzzle.from_region_grid([[r for _ in range(8)] for r in range(8)])  # rows as regions
    assert count_solutions(puzzle, limit=2) == 2
    assert count_solutions(puzzle, limit=5) == 5
    small = search(puzzle, limit=2).nodes
    assert search(puzzle, limit=20).nodes > small


def test_given_queens_are_kept():
    puzzle = Puzzle.from_region_grid([[r for _ in range(6)] for r in range(6)], given=[(0, 1)])
    solution = solve(puzzle)
    assert solution is not None and (0, 1) in solution.queens
    assert is_solution(puzzle, solution)


def test_given_queens_that_clash_mean_no_answer():
    puzzle = Puzzle.from_region_grid([[r for _ in range(6)] for r in range(6)], given=[(0, 1), (1, 2)])
    assert solve(puzzle) is None


def test_the_diagonal_rule_is_the_n_queens_problem_on_stripes():
    stripes = [[r for _ in range(6)] for r in range(6)]
    assert count_solutions(Puzzle.from_region_grid(stripes, rule="diagonal"), limit=10) == 4
    assert count_solutions(Puzzle.from_region_grid(stripes), limit=100) > 4  # touch allows more


def test_large_boards_solve():
    rng = random.Random(30)
    puzzle = Puzzle.from_region_grid(random_regions(30, rng))
    solution = solve(puzzle)
    assert solution is not None and is_solution(puzzle, solution)


# --- explain -----------------------------------------------------------------------------------


def test_explain_names_singles_and_ends_solved():
    puzzle = Puzzle.from_rows(["AABBB", "AACCB", "DDCCE", "DDDEE", "DDDEE"])
    steps = explain(puzzle)
    assert steps[-1].kind == "solved"
    assert set(steps[-1].cells) == set(present(solve(puzzle)).queens)
    assert all(isinstance(s, Step) and s.text for s in steps)
    singles = [s for s in steps if s.kind == "single"]
    assert len(singles) == 3
    for s in singles:
        ((r, c),) = s.cells
        assert s.text.endswith(f"has one candidate left: r{r + 1}c{c + 1}")
        assert (r, c) in present(solve(puzzle)).queens


def test_explain_marks_guesses_and_backtracks():
    puzzle = Puzzle.from_region_grid([[r for _ in range(6)] for r in range(6)], rule="diagonal")
    steps = explain(puzzle)
    guesses = [s for s in steps if s.guess]
    assert guesses and guesses[0].text.startswith("guess: r")
    assert "candidates in" in guesses[0].text
    assert any(s.kind == "backtrack" for s in steps)  # 6-queens: the first guess r1c1 fails
    assert steps[-1].kind == "solved"


def test_explain_says_when_there_is_no_answer():
    steps = explain(Puzzle.from_rows(["AB", "CD"]))
    assert steps[-1].text == "no solution"
    assert any(s.kind == "contradiction" for s in steps)


# --- against brute force -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 7), seed=st.integers(0, 10**9), rule=st.sampled_from(["touch", "diagonal"]))
def test_count_matches_the_baseline_on_grown_regions(n, seed, rule):
    puzzle = Puzzle.from_region_grid(random_regions(n, random.Random(seed)), rule=rule)
    result = search(puzzle, limit=2)
    assert result.count == baseline_count(puzzle, 2)[0]
    if result.solution is not None:
        assert is_solution(puzzle, result.solution)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(4, 7),
    labels=st.lists(st.integers(0, 6), min_size=49, max_size=49),
    rule=st.sampled_from(["touch", "diagonal"]),
)
def test_count_matches_the_baseline_on_any_region_grid(n, labels, rule):
    grid = [[labels[r * n + c] % n for c in range(n)] for r in range(n)]
    puzzle = Puzzle.from_region_grid(grid, rule=rule)
    assume(puzzle.region_count == n)  # not a puzzle otherwise: every one of the n regions needs a cell
    result = search(puzzle, limit=3)
    assert result.count == baseline_count(puzzle, 3)[0]
    if result.solution is not None:
        assert is_solution(puzzle, result.solution)


def grown_two_star_puzzle(seed: int) -> Puzzle:
    """An 8x8 two-star puzzle on regions grown from 8 random seed cells (any number of answers)."""
    rng = random.Random(seed)
    n = 8
    seeds = rng.sample([(r, c) for r in range(n) for c in range(n)], n)
    return Puzzle.from_region_grid(grow_regions(n, seeds, rng), k=2)

@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_two_star_count_matches_the_baseline(seed):
    puzzle = grown_two_star_puzzle(seed)
    result = search(puzzle, limit=2)
    assert result.count == baseline_count(puzzle, 2)[0]
    if result.solution is not None:
        assert is_solution(puzzle, result.solution)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), swaps=st.integers(0, 12))
def test_two_star_count_matches_the_baseline_on_boards_with_answers(seed, swaps):
    # Rows as regions have many two-star answers; swapping cells between regions keeps some.
    assert_two_star_count_matches_the_baseline(seed, swaps)


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_search_result_is_frozen_and_counts_nodes(limit):
    result = search(Puzzle.from_region_grid([[r for _ in range(7)] for r in range(7)]), limit=limit)
    assert result.count == limit and result.nodes >= 1
    with pytest.raises(AttributeError):
        result.count = 0  # type: ignore[misc]


def test_the_solver_never_imports_the_screen_stack():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from queens_autosolve.solver import search, propagate, formats\n"
        "from queens_autosolve.bench import times, report, generate_times\n"
        "screen = ('cv2', 'pyautogui', 'mss', 'queens_autosolve.vision', 'queens_autosolve.capture',\n"
        "          'queens_autosolve.actuator')\n"
        "bad = [m for m in screen if m in sys.modules]\n"
        "print(bad)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# --- search_board on half-built maps (the generator's checks) ----------------------------------


def _all_answers(puzzle: Puzzle, allowed: int, given: int) -> set[int]:
    """Every answer (queen mask) of `puzzle` that keeps to `allowed` cells and holds `given`,
    by brute force over permutations (k=1)."""
    n = puzzle.n
    answers = set()
    for cols in permutations(range(n)):
        mask = mask_of(enumerate(cols), n)
        if mask & ~allowed or mask & given != given:
            continue
        if is_solution(puzzle, Solution.of(cells_of(mask, n))):
            answers.add(mask)
    return answers


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 6), seed=st.integers(0, 10**6), holes=st.integers(0, 8))
def test_search_board_on_a_map_with_unowned_cells_agrees_with_brute_force(n, seed, holes):
    rng = random.Random(seed)
    puzzle = Puzzle.from_region_grid(random_regions(n, rng))
    # Cells taken out of every region may hold no queen; one cell is given a queen.
    dropped = set(rng.sample(range(n * n), holes))
    masks = [mask & ~mask_of((divmod(i, n) for i in dropped), n) for mask in puzzle.region_masks]
    given = 1 << rng.choice([i for i in range(n * n) if i not in dropped])
    answers = _all_answers(puzzle, sum(masks), given)
    board = board_of_regions(n, 1, "touch", masks)
    first, finished = search_board(board, sum(masks), given)
    assert finished
    assert (first in answers) if answers else first == 0
    if answers:  # leaving out the first answer gives another one, or none when it was the only one
        other, finished = search_board(board, sum(masks), given, skip=first)
        assert finished
        assert (other in answers - {first}) if len(answers) > 1 else other == 0


def test_search_board_stops_unfinished_at_its_node_budget():
    puzzle = Puzzle.from_region_grid([[r] * 6 for r in range(6)])  # rows as regions: many answers
    board = board_of(puzzle)
    full = (1 << 36) - 1
    found, finished = search_board(board, full, limit=10**6, budget=3)
    assert not finished
    found, finished = search_board(board, full, limit=10**6)
    assert finished and found


def assert_two_star_count_matches_the_baseline(seed: int, swaps: int) -> None:
    """On an 8x8 two-star board of rows as regions with `swaps` random cells swapped (such
    boards keep many answers), the solver counts (up to 3) what plain backtracking counts."""
    rng = random.Random(seed)
    n = 8
    grid = [[r] * n for r in range(n)]
    for _ in range(swaps):
        (r1, c1), (r2, c2) = rng.sample([(r, c) for r in range(n) for c in range(n)], 2)
        grid[r1][c1], grid[r2][c2] = grid[r2][c2], grid[r1][c1]
    puzzle = Puzzle.from_region_grid(grid, k=2)
    assume(min(m.bit_count() for m in puzzle.region_masks) >= 2)
    result = search(puzzle, limit=3)
    assert result.count == baseline_count(puzzle, 3)[0]
    if result.solution is not None:
        assert is_solution(puzzle, result.solution)
