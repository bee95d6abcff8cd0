"""The generator: every puzzle it makes is valid, connected and has exactly one solution (checked
with the plain baseline solver, independent of the solver the generator searches with), its
rival searches agree with brute force, seeds repeat, the files in games/ hold, and
`queens-autosolve generate` reports bad input in one line."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from queens_autosolve.autosolve.cli import main
from queens_autosolve.bench import baseline
from queens_autosolve.solver import generator as generate_module
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.formats import format_puzzle, parse_puzzles, read_puzzles
from queens_autosolve.solver.generator import (
    ONE_AT_A_TIME,
    check_size,
    generate_many,
    generate_puzzle,
    hardest,
)
from queens_autosolve.solver.grow import UNKNOWN, Budgets, Growth, RegionMap
from queens_autosolve.solver.puzzle import Puzzle, cells_of, is_solution, mask_of
from queens_autosolve.solver.regions import grow_star_regions, is_connected, random_solution_cells
from queens_autosolve.solver.search import search
from tests.checks import present
from tests.environment import GAMES

FEW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def region_cells(puzzle: Puzzle) -> list[set[tuple[int, int]]]:
    cells: list[set[tuple[int, int]]] = [set() for _ in range(puzzle.region_count)]
    for r, row in enumerate(puzzle.regions):
        for c, region in enumerate(row):
            cells[region].add((r, c))
    return cells


def assert_good_puzzle(puzzle: Puzzle, n: int, k: int) -> None:
    puzzle.validate()
    assert (puzzle.n, puzzle.k) == (n, k)
    assert all(is_connected(cells) for cells in region_cells(puzzle))
    count, solution = baseline.count_solutions(puzzle, limit=2)
    assert count == 1
    assert solution is not None and is_solution(puzzle, solution)


@FEW
@given(n=st.integers(5, 8), seed=st.integers(0, 10**6))
def test_one_queen_puzzles_are_valid_connected_and_unique(n, seed):
    assert_good_puzzle(generate_puzzle(n, 1, rng=seed), n, 1)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(8, 9), seed=st.integers(0, 10**6))
def test_two_star_puzzles_are_valid_connected_and_unique(n, seed):
    assert_good_puzzle(generate_puzzle(n, 2, rng=seed), n, 2)


def test_diagonal_rule_puzzle_is_unique():
    puzzle = generate_puzzle(7, 1, rng=3, rule="diagonal")
    assert puzzle.rule == "diagonal"
    assert_good_puzzle(puzzle, 7, 1)


def test_same_seed_gives_the_same_text_and_names_the_seed():
    first = format_puzzle(generate_puzzle(9, 1, rng=42))
    assert first == format_puzzle(generate_puzzle(9, 1, rng=42))
    assert first.startswith("# gen-n9-k1-s42 n=9 seed=42\n")
    assert first != format_puzzle(generate_puzzle(9, 1, rng=43))


@pytest.mark.parametrize(("n", "k"), [(8, 1), (8, 2)])
def test_puzzle_does_not_depend_on_which_solver_checks_uniqueness(n, k, monkeypatch):
    expected = format_puzzle(generate_puzzle(n, k, rng=11))
    monkeypatch.setattr(
        generate_module, "count_solutions", lambda puzzle, limit=2: baseline.count_solutions(puzzle, limit)[0]
    )
    assert format_puzzle(generate_puzzle(n, k, rng=11)) == expected


def test_a_random_generator_is_the_only_source_of_randomness():
    random.seed(1)
    a = generate_puzzle(7, 1, rng=random.Random(5))
    random.seed(2)
    b = generate_puzzle(7, 1, rng=random.Random(5))
    assert a.regions == b.regions and a.name == "gen-n7-k1"


@FEW
@given(n=st.integers(4, 12), k=st.sampled_from([1, 2]), seed=st.integers(0, 10**6))
def test_random_answer_has_k_non_touching_queens_per_row_and_column(n, k, seed):
    assume(n >= 4 * k)
    cells = random_solution_cells(n, k, random.Random(seed))
    assert sorted(r for r, _ in cells) == sorted(list(range(n)) * k)
    assert sorted(c for _, c in cells) == sorted(list(range(n)) * k)
    for a in cells:
        for b in cells:
            assert a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 1


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_star_regions_hold_k_answer_queens_each_and_are_connected(seed):
    rng = random.Random(seed)
    queens = random_solution_cells(12, 3, rng)
    grid = grow_star_regions(12, queens, 3, rng)
    puzzle = Puzzle.from_region_grid(grid, k=3)
    assert puzzle.region_count == 12
    assert is_solution(puzzle, queens)
    assert all(is_connected(cells) for cells in region_cells(puzzle))


def ambiguous_map(seed: int) -> tuple[Puzzle, list[tuple[int, int]]]:
    """A 6x6..8x8 map grown at random around an answer (so usually with more answers), and that answer."""
    rng = random.Random(seed)
    n = 6 + seed % 3
    queens = random_solution_cells(n, 1, rng)
    return Puzzle.from_region_grid(grow_star_regions(n, queens, 1, rng)), queens


def test_brute_force_lists_distinct_answers_as_many_as_the_solver_counts():
    for seed in range(40):
        puzzle, _ = ambiguous_map(seed)
        found = baseline.find_solutions(puzzle, limit=30)
        assert len(found) == search(puzzle, limit=30).count
        assert len(set(found)) == len(found) and all(is_solution(puzzle, s) for s in found)


def test_a_rival_is_another_answer_and_found_whenever_brute_force_finds_one():
    for seed in range(20):
        puzzle, queens = ambiguous_map(seed)
        board = RegionMap([list(row) for row in puzzle.regions], 1, "touch", queens)
        rival = board.rival()
        assert (rival == 0) == (len(baseline.find_solutions(puzzle, limit=2)) == 1)
        if rival:  # an answer, and one with a queen forced on one of its own cells is found too
            assert rival != mask_of(queens, puzzle.n) and is_solution(puzzle, cells_of(rival, puzzle.n))
            cell = next(c for c in cells_of(rival, puzzle.n) if c not in queens)
            forced = board.rival(mask_of([cell], puzzle.n))
            assert cell in cells_of(forced, puzzle.n) and is_solution(puzzle, cells_of(forced, puzzle.n))


def test_a_rival_search_out_of_budget_says_unknown():
    board = RegionMap([[r] * 8 for r in range(8)], 1, "touch",
                      [(0, 0), (1, 2), (2, 4), (3, 6), (4, 1), (5, 3), (6, 5), (7, 7)])
    assert board.rival(budget=1) == UNKNOWN
    assert board.rival() not in (0, UNKNOWN)


def test_unassigned_cells_hold_no_queen_in_a_rival():
    queens = [(0, 0), (1, 2), (2, 4), (3, 6), (4, 1), (5, 3), (6, 5), (7, 7)]
    grid = [[-1] * 8 for _ in range(8)]
    for region, (r, c) in enumerate(queens):  # each region is its intended queen alone
        grid[r][c] = region
    assert RegionMap(grid, 1, "touch", queens).rival() == 0


def test_the_residue_holds_every_queen_of_every_other_answer():
    for seed in range(20):
        puzzle, queens = ambiguous_map(seed)
        board = RegionMap([list(row) for row in puzzle.regions], 1, "touch", queens)
        residue = board.residue()
        intended = mask_of(queens, puzzle.n)
        for answer in baseline.find_solutions(puzzle, limit=30):
            assert not mask_of(answer.queens, puzzle.n) & ~intended & ~residue
        assert (residue == 0) <= (len(baseline.find_solutions(puzzle, limit=2)) == 1)


@pytest.mark.parametrize(("n", "k", "seed"), [(7, 1, 1), (9, 1, 2), (12, 1, 3), (10, 2, 4)])
def test_growth_in_batches_lets_no_rival_in(n, k, seed):
    rng = random.Random(seed)
    queens = random_solution_cells(n, k, rng)
    board = RegionMap(generate_module.seed_regions(n, queens, k, rng), k, "touch", queens)
    if board.rival():
        pytest.skip("the seed map already has a rival")
    growth = Growth(board, set(queens), rng, None)
    while growth.frontier or growth.unchecked:
        growth.add_batch()
        if growth.unchecked:
            growth.check_batch()
    assert len(board.unassigned()) < n * n - n * k  # it grew
    assert board.rival() == 0


@pytest.mark.parametrize(("n", "k", "seed"), [(6, 1, 1), (7, 1, 2), (8, 1, 3), (8, 2, 4)])
def test_generated_puzzles_have_one_solution_by_brute_force(n, k, seed):
    assert len(baseline.find_solutions(generate_puzzle(n, k, rng=seed), limit=2)) == 1


@pytest.mark.parametrize("budgets", [ONE_AT_A_TIME, Budgets(evictions=0.3), Budgets(check=None, rival=None)])
@pytest.mark.parametrize(("n", "k"), [(9, 1), (8, 2)])
def test_other_budgets_also_make_unique_puzzles(n, k, budgets):
    assert_good_puzzle(generate_puzzle(n, k, rng=11, budgets=budgets), n, k)


@pytest.mark.parametrize(
    ("n", "k", "rule", "words"),
    [
        (3, 1, "touch", "4 or more"),
        (7, 2, "touch", "at least 8x8"),
        (11, 3, "touch", "at least 12x12"),
        (8, 2, "diagonal", "needs --stars 1"),
        (8, 0, "touch", "at least one queen"),
        (61, 1, "touch", "not supported"),
    ],
)
def test_impossible_sizes_are_refused_with_a_reason(n, k, rule, words):
    with pytest.raises(QueensError, match=words):
        check_size(n, k, rule)


def test_smallest_feasible_sizes_generate():
    assert_good_puzzle(generate_puzzle(4, 1, rng=0), 4, 1)
    assert_good_puzzle(generate_puzzle(8, 2, rng=0), 8, 2)


def game_files():
    return sorted(GAMES.glob("*.txt"))


def test_games_folder_has_puzzles_of_every_promised_kind():
    kinds = {(p.n, p.k) for path in game_files() for p in read_puzzles(str(path))}
    assert {(n, 1) for n in range(5, 17)} <= kinds
    assert {(10, 2), (11, 2), (14, 3)} <= kinds


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.name)
def test_every_game_file_parses_and_each_puzzle_has_one_solution(path):
    for puzzle in read_puzzles(str(path)):
        assert all(is_connected(cells) for cells in region_cells(puzzle))
        if path.name in ("stars4-17-hard.txt", "stars4-17-harder.txt"):
            continue  # their one answer each: test_solver_stars proves them (seconds, not twice)
        if puzzle.n <= 8 or (puzzle.k == 1 and puzzle.n <= 10):
            count, _ = baseline.count_solutions(puzzle, limit=2)  # independent of the generator
        else:  # the solver, itself checked against brute force (above and in test_solver.py)
            count = search(puzzle, limit=2).count
        assert count == 1, puzzle.name


def test_cli_writes_puzzles_that_parse_back(capsys):
    assert main(["generate", "--size", "6", "--count", "2", "--seed", "7"]) == 0
    puzzles = parse_puzzles(capsys.readouterr().out)
    assert [p.name for p in puzzles] == ["gen-n6-k1-s7", "gen-n6-k1-s8"]
    assert all(p.meta["seed"] == p.name.rsplit("s", 1)[1] for p in puzzles)


def test_cli_writes_the_same_puzzle_as_the_api_to_a_file(tmp_path):
    out = tmp_path / "p.txt"
    assert main(["generate", "-n", "8", "-k", "2", "-s", "5", "--out", str(out)]) == 0
    assert out.read_text() == format_puzzle(generate_puzzle(8, 2, rng=5))


@pytest.mark.parametrize(
    "args",
    [
        ["--size", "3"],
        ["--size", "9", "--stars", "3"],
        ["--size", "8", "--count", "0"],
        ["--size", "8", "--rule", "diagonal", "--stars", "2"],
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(args, capsys):
    assert main(["generate", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("queens-autosolve: error: --")


def test_cli_out_to_a_folder_is_refused(tmp_path, capsys):
    assert main(["generate", "--size", "5", "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


# --- generate --hard ------------------------------------------------------------------------------


def test_hardest_keeps_the_puzzles_that_take_the_most_nodes_in_their_order():
    candidates = [generate_puzzle(9, 2, rng=seed) for seed in range(1, 7)]
    nodes = {p.name: search(p, limit=2).nodes for p in candidates}
    kept = hardest(candidates, 3)
    assert [p.name for p in kept] == [p.name for p in candidates if p in kept]
    assert min(nodes[p.name] for p in kept) >= max(nodes[p.name] for p in candidates if p not in kept)


def test_the_hardest_generated_are_the_puzzles_one_seed_at_a_time_makes():
    kept = hardest(generate_many(8, 2, range(3, 7)), 2)
    assert len(kept) == 2
    for puzzle in kept:
        assert format_puzzle(puzzle) == format_puzzle(generate_puzzle(8, 2, rng=int(puzzle.meta["seed"])))


def test_cli_hard_keeps_count_of_the_candidates(capsys):
    assert main(["generate", "-n", "8", "-k", "2", "--hard", "--count", "2", "--candidates", "4",
                 "--seed", "3"]) == 0
    puzzles = parse_puzzles(capsys.readouterr().out)
    assert [p.name for p in puzzles] == [p.name for p in hardest(generate_many(8, 2, range(3, 7)), 2)]


def test_cli_hard_needs_at_least_count_candidates(capsys):
    assert main(["generate", "-n", "8", "--hard", "--count", "3", "--candidates", "2"]) == 2
    assert "--candidates 2" in capsys.readouterr().err


def test_a_seed_that_fails_is_skipped_and_reported_and_the_run_goes_on(monkeypatch, capsys):
    made = generate_module.generate_puzzle

    def failing_on_four(n, k=1, **kwargs):
        if kwargs["rng"] == 4:
            raise QueensError("no unique puzzle after 20 attempts; try another seed")
        return made(n, k, **kwargs)

    monkeypatch.setattr(generate_module, "generate_puzzle", failing_on_four)
    skipped: list[tuple[int, str]] = []
    kept = hardest(generate_many(8, 2, range(3, 7), skipped=skipped), 2)
    assert [seed for seed, _ in skipped] == [4] and len(kept) == 2
    assert "4" not in [p.meta["seed"] for p in kept]
    with pytest.raises(QueensError):
        generate_module.generate_many(8, 2, range(3, 6))  # without `skipped`, as before
    assert main(["generate", "-n", "8", "-k", "2", "--hard", "--count", "2", "--candidates", "4",
                 "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert len(parse_puzzles(captured.out)) == 2
    assert "seed 4 skipped: no unique puzzle" in captured.err and "1 of 4 candidates skipped" in captured.err


def test_hardening_keeps_the_answer_unique_and_costs_the_search_no_fewer_nodes():
    plain = generate_puzzle(10, 2, rng=11)
    hardened = generate_puzzle(10, 2, rng=11, harden_tries=40)
    result = search(hardened, limit=2)
    assert result.count == 1 and result.solution == search(plain, limit=2).solution
    assert result.nodes >= search(plain, limit=2).nodes
    assert hardened.regions != plain.regions  # some of the 40 moves were kept
    assert all(is_connected(cells) for cells in region_cells(hardened))
    assert hardened.meta["harden"] == "40"
    assert format_puzzle(generate_puzzle(10, 2, rng=11, harden_tries=40)) == format_puzzle(hardened)


def largest_region(puzzle: Puzzle) -> tuple[int, int]:
    """A `generator.Cost` that is not the search's: answers up to 2 and the largest region's size."""
    return search(puzzle, limit=2).count, max(len(cells) for cells in region_cells(puzzle))


def test_hardening_and_choosing_by_another_cost_follow_that_cost():
    """What benchmarks/sat_hard.py does with CaDiCaL's conflicts: harden and choose by a cost of
    the caller's; the answer stays unique, the map moves, and the cost does not fall."""
    plain = generate_puzzle(10, 2, rng=11)
    hardened = generate_puzzle(10, 2, rng=11, harden_tries=40, harden_cost=largest_region)
    assert search(hardened, limit=2).count == 1
    assert largest_region(hardened)[1] > largest_region(plain)[1]  # a larger region is never refused
    assert hardened.regions != generate_puzzle(10, 2, rng=11, harden_tries=40).regions
    candidates = [generate_puzzle(8, 2, rng=seed) for seed in range(1, 6)]
    sizes = {p.name: largest_region(p)[1] for p in candidates}
    kept = hardest(candidates, 2, largest_region)
    assert min(sizes[p.name] for p in kept) >= max(sizes[p.name] for p in candidates if p not in kept)


def test_cli_harden_writes_what_the_api_makes(capsys):
    assert main(["generate", "-n", "8", "-k", "2", "-s", "5", "--harden", "10"]) == 0
    assert capsys.readouterr().out == format_puzzle(generate_puzzle(8, 2, rng=5, harden_tries=10))
    assert main(["generate", "-n", "8", "--harden", "-1"]) == 2


def test_a_random_answer_where_row_by_row_placement_gives_up(monkeypatch):
    # 21x21 with 5 stars: row-by-row placement gives up on most seeds (2002 among them); the
    # answer then comes from propagation on the board whose regions are its rows
    with pytest.raises(ValueError, match="could not place 5 non-attacking queens"):
        random_solution_cells(21, 5, random.Random(0), tries=5)
    by_propagation = []
    made = generate_module._answer_by_propagation

    def recorded(*args):
        by_propagation.append(made(*args))
        return by_propagation[-1]

    # the answer is drawn once, inside the generator (seconds at this size), and checked there
    monkeypatch.setattr(generate_module, "_answer_by_propagation", recorded)
    puzzle = generate_puzzle(21, 5, rng=2002)
    assert by_propagation and by_propagation[-1] is not None
    queens = cells_of(by_propagation[-1], 21)
    rows = [r for r, _ in queens]
    cols = [c for _, c in queens]
    assert all(rows.count(i) == 5 and cols.count(i) == 5 for i in range(21))
    apart = [max(abs(a[0] - b[0]), abs(a[1] - b[1])) for i, a in enumerate(queens) for b in queens[i + 1:]]
    assert min(apart) > 1  # no two touch
    result = search(puzzle, limit=2)
    assert result.count == 1 and is_solution(puzzle, present(result.solution))
    assert sorted(present(result.solution).queens) == sorted(queens)  # the puzzle is built on it
