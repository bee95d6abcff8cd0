"""The coach (solver/coach.py): mistakes named without the solution, hints that are sound
deductions from the board as it stands, the tier ladder, grades; and `hint`, `solve --grade`
and `bench`'s grade table through the CLI."""

from __future__ import annotations

import json

import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.solver.coach import (
    UNKNOWN_TIER,
    Coach,
    CoachError,
    Hint,
    Tier,
    advise,
    grade,
    hint_sequence,
    tier_of,
)
from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.position import Position
from queens_autosolve.solver.propagate import Step, StepKind, board_of
from queens_autosolve.solver.puzzle import Puzzle, cell_name, mask_of
from queens_autosolve.solver.search import explain, search_board, solve
from tests.checks import present
from tests.environment import shared_path

LINKEDIN = ("linkedin-official.txt", "linkedin-bonus.txt", "linkedin-2026.txt")


def linkedin_levels() -> list[Puzzle]:
    return [p for name in LINKEDIN for p in read_puzzles(str(shared_path("levels", name)))]


def level(number: int) -> Puzzle:
    return read_puzzles(str(shared_path("levels", "linkedin-official.txt")))[number - 1]


def after(position: Position, hint: Hint) -> Position:
    """The position after making `hint` (its X marks and its queen)."""
    queens = position.queens | ({hint.queen} if hint.queen else set())
    return Position.of(position.n, queens, (position.marks | set(hint.marks)) - queens)


def still_unique(puzzle: Puzzle, position: Position) -> bool:
    """Whether the position keeps the puzzle's one solution: searching from its queens and with
    its X-marked cells ruled out finds exactly the solution."""
    n = puzzle.n
    board = board_of(puzzle)
    cand = ((1 << n * n) - 1) & ~mask_of(position.marks, n)
    answer = mask_of(present(solve(puzzle)).queens, n)
    found, _ = search_board(board, cand, mask_of(position.queens, n), limit=1)
    other, _ = search_board(board, cand, mask_of(position.queens, n), limit=1, skip=answer)
    return found == answer and other == 0


# --- mistakes --------------------------------------------------------------------------------


def test_a_wrong_queen_is_named_and_explained_without_the_solution():
    puzzle = level(2)
    answer = set(present(solve(puzzle)).queens)
    wrong = next((r, c) for r in range(puzzle.n) for c in range(puzzle.n) if (r, c) not in answer)
    right = sorted(answer)[4]
    advice = advise(puzzle, Position.of(puzzle.n, [wrong, right], marks=[]))
    assert [m.cell for m in advice.mistakes] == [wrong] and advice.step is None
    text = advice.mistakes[0].text
    assert text.startswith(f"the queen on {cell_name(wrong)} cannot be right: ")
    # nothing of the answer given away beyond the queen the player has already placed
    assert not any(cell_name(cell) in text for cell in answer - {right})


def test_every_wrong_queen_on_sampled_levels_leads_to_a_named_contradiction():
    for puzzle in read_puzzles(str(shared_path("levels", "linkedin-official.txt")))[::60]:
        answer = set(present(solve(puzzle)).queens)
        names = {cell_name(cell) for cell in answer}
        for cell in [(r, c) for r in range(puzzle.n) for c in range(puzzle.n) if (r, c) not in answer][::5]:
            mistake = advise(puzzle, Position.of(puzzle.n, [cell])).mistakes[0]
            assert mistake.because or "with it, " in mistake.text, mistake.text
            assert "no short chain" not in mistake.text
            assert not any(name in mistake.text for name in names), mistake.text


def test_a_queen_beside_a_right_one_is_blamed_on_that_queen():
    puzzle = Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"])  # answer r1c3 r2c1 r3c4 r4c2
    advice = advise(puzzle, Position.of(puzzle.n, [(0, 2), (0, 1)]))
    assert [m.cell for m in advice.mistakes] == [(0, 1)]
    assert "row 1 already has its queen on r1c3" in advice.mistakes[0].text


def test_an_x_where_a_queen_must_go_is_a_mistake():
    puzzle = level(3)
    cell = present(solve(puzzle)).queens[2]
    advice = advise(puzzle, Position.of(puzzle.n, marks=[cell]))
    assert [(m.cell, m.what) for m in advice.mistakes] == [(cell, "mark")]
    assert advice.mistakes[0].text.startswith(f"the X on {cell_name(cell)} is wrong")


def test_a_puzzle_without_one_solution_cannot_be_coached():
    with pytest.raises(CoachError, match="more than one solution"):
        advise(Puzzle.from_rows(["AAAAA", "BBBBB", "CCCCC", "DDDDD", "EEEEE"]), Position.empty(5))


# --- the next step ---------------------------------------------------------------------------


def position_after(n: int, steps: list[Step]) -> Position:
    """The board after a prefix of `explain`'s deductions (k = 1): queens where singles put
    them, X marks on the cells the other rules removed."""
    queens = [cell for step in steps if step.kind == StepKind.SINGLE for cell in step.cells]
    removing = (StepKind.ATTACK, StepKind.CONFINE)
    marks = [cell for step in steps if step.kind in removing for cell in step.cells]
    return Position.of(n, queens, marks)


def test_hints_part_way_through_explain_are_sound_and_keep_the_one_solution():
    checked = 0
    for puzzle in read_puzzles(str(shared_path("levels", "linkedin-official.txt")))[::25]:
        answer = set(present(solve(puzzle)).queens)
        steps = explain(puzzle)
        end = next(i for i, s in enumerate(steps) if s.kind in (StepKind.GUESS, StepKind.SOLVED))
        deductions = steps[:end]
        for cut in (len(deductions) // 4, len(deductions) // 2, 3 * len(deductions) // 4):
            position = position_after(puzzle.n, deductions[:cut])
            advice = advise(puzzle, position)
            assert not advice.mistakes and advice.step is not None and advice.step.moves
            step = advice.step
            assert step.queen is None or step.queen in answer
            assert not set(step.marks) & answer and not set(step.marks) & position.marks
            assert still_unique(puzzle, after(position, step))
            checked += 1
    assert checked >= 60


def test_hints_from_the_empty_board_solve_every_linkedin_level_without_a_guess():
    for puzzle in linkedin_levels():
        coach = Coach(puzzle)
        answer = set(coach.solution.queens)
        hints = hint_sequence(puzzle, coach=coach)
        assert all(h.tier < Tier.GUESS for h in hints), puzzle.name
        position = Position.of(puzzle.n, puzzle.given)
        for h in hints:
            assert h.moves and not set(h.marks) & answer and (h.queen is None or h.queen in answer)
            position = after(position, h)
        assert answer <= position.queens, puzzle.name


def test_a_step_is_found_from_the_board_as_it_stands_not_from_an_empty_board():
    puzzle = level(2)
    hints = hint_sequence(puzzle)
    position = Position.empty(puzzle.n)
    for h in hints[:10]:
        position = after(position, h)
    step = advise(puzzle, position).step
    assert step is not None and step.text == hints[10].text


def test_a_solved_board_gets_no_step():
    puzzle = level(1)
    advice = advise(puzzle, Position.of(puzzle.n, present(solve(puzzle)).queens))
    assert advice.solved and advice.step is None and advice.lines() == ["solved: every queen is in place"]


# --- tiers and grades --------------------------------------------------------------------------

TIER_BOARDS = {  # small boards, each needing exactly its tier (found with the generator)
    Tier.SINGLES: (["AABBC", "AAAAC", "ADCCC", "ADCCC", "AACCE"], 1),
    Tier.ONE_UNIT: (["AAABC", "ADABC", "ADBBC", "DDCCC", "DEECC"], 1),
    Tier.SEVERAL_UNITS: (["AABBB", "ACCCB", "CCCCB", "CCCDD", "EECCD"], 1),
    Tier.BLOCKS: (["AAAABBBB", "AAABBBBB", "ACDDEEFF", "CCDDEEFF", "CDDDDEEF", "CCDDDDGG", "CHHGGGGG",
                   "HHHHHGGG"], 2),
    Tier.TRIAL: (["AABBBB", "AAAAAB", "AACCCC", "DDEEEE", "DDDDEE", "FDDEEE"], 1),
}


@pytest.mark.parametrize("tier", list(TIER_BOARDS), ids=lambda t: t.short)
def test_each_tier_on_a_small_hand_made_board(tier):
    rows, k = TIER_BOARDS[tier]
    graded = grade(Puzzle.from_rows(rows, k=k))
    assert graded.tier is tier
    assert graded.tiers[tier] >= 1 and graded.steps == sum(graded.tiers.values())
    assert (graded.trial_depth > 0) == (tier is Tier.TRIAL)


def test_a_board_no_rule_or_trial_cracks_needs_a_guess():
    # Five stripes have several answers, so every candidate lies in one of them and no trial
    # fails. The coach is told which answer to aim for: the guess places its queen (the unique
    # boards found that need a guess are 14x14 with 3 stars, too slow for a unit test).
    puzzle = Puzzle.from_rows(["AAAAA", "BBBBB", "CCCCC", "DDDDD", "EEEEE"])
    answer = solve(puzzle)
    hints = hint_sequence(puzzle, coach=Coach(puzzle, answer))
    assert hints[0].tier is Tier.GUESS and hints[0].queen is None and not hints[0].moves
    assert "try each in turn" in hints[0].text
    graded = grade(puzzle, answer)
    assert graded.tier is Tier.GUESS and graded.guesses >= 1


def test_an_unknown_step_kind_ranks_with_the_block_rules():
    assert tier_of("a-rule-added-later") is UNKNOWN_TIER is Tier.BLOCKS
    puzzle = level(2)
    coach = Coach(puzzle)
    n = puzzle.n
    wrong = next(i for i in range(n * n) if not coach.answer >> i & 1)

    def later_rule(board, cand, queens, log):
        if cand >> wrong & 1:
            if log is not None:
                log.append(Step("a new rule", ((wrong // n, wrong % n),), kind="a-rule-added-later"))  # type: ignore[arg-type]
            return cand & ~(1 << wrong), queens
        return cand, queens

    coach.rules = (later_rule, *coach.rules)
    step = present(coach.advise(Position.empty(puzzle.n)).step)
    assert step.rule == "a-rule-added-later" and step.tier is Tier.BLOCKS
    assert step.marks == ((wrong // n, wrong % n),)


# --- the CLI ---------------------------------------------------------------------------------


@pytest.fixture
def board_image(tmp_path):
    """Render a LinkedIn level with the given cell marks to a PNG; returns its path."""
    from PIL import Image

    from tests.render import render_board

    def draw(puzzle: Puzzle, marks: dict[tuple[int, int], str]) -> str:
        states = ["".join(marks.get((r, c), ".") for c in range(puzzle.n)) for r in range(puzzle.n)]
        path = tmp_path / "board.png"
        Image.fromarray(render_board(puzzle.label_rows(), states, cell=48)).save(path)
        return str(path)

    return draw


def test_hint_image_names_the_wrong_queen(capsys, board_image):
    puzzle = level(2)
    answer = set(present(solve(puzzle)).queens)
    wrong = next((r, c) for r in range(puzzle.n) for c in range(puzzle.n) if (r, c) not in answer)
    status = main(["hint", "--image", board_image(puzzle, {wrong: "Q"})])
    out = capsys.readouterr().out
    assert status == 0
    assert f"mistake: the queen on {cell_name(wrong)} cannot be right" in out


def test_hint_image_json_gives_the_step_the_engine_gives(capsys, board_image):
    from queens_autosolve.vision.colour_names import region_colour_names
    from tests.render import PALETTE, hex_rgb

    puzzle = level(2)
    names = region_colour_names([hex_rgb(PALETTE[g]) for g in range(puzzle.region_count)])
    assert names is not None
    hints = hint_sequence(puzzle.with_colour_names(names))  # the screen shows colours, not letters
    position = Position.empty(puzzle.n)
    for h in hints[:5]:
        position = after(position, h)
    marks = {cell: "x" for cell in position.marks} | {cell: "Q" for cell in position.queens}
    status = main(["hint", "--image", board_image(puzzle, marks), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["mistakes"] == [] and data["certain"]
    step = data["step"]
    assert set(step) >= {"rule", "cells", "marks", "queen", "text"}
    assert step["text"] == hints[5].text
    assert step["marks"] == [list(c) for c in hints[5].marks]
    assert step["queen"] == (list(hints[5].queen) if hints[5].queen else None)


def test_hint_apply_on_an_image_is_refused_in_one_line(capsys, board_image):
    status = main(["hint", "--apply", "--image", board_image(level(1), {})])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "--apply" in err and "Traceback" not in err


def test_hint_on_a_missing_image_or_a_board_with_two_answers_exits_2(capsys, board_image, tmp_path):
    assert main(["hint", "--image", str(tmp_path / "nope.png")]) == 2
    assert "no such file" in capsys.readouterr().err
    stripes = Puzzle.from_rows(["AAAAA", "BBBBB", "CCCCC", "DDDDD", "EEEEE"])
    assert main(["hint", "--image", board_image(stripes, {})]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "more than one solution" in err


@pytest.fixture
def tier_file(tmp_path):
    """tiers.txt: the boards of TIER_BOARDS, each named after its tier, in tier order."""
    path = tmp_path / "tiers.txt"
    path.write_text("".join(f"# {tier.short} k={k}\n" + "\n".join(rows) + "\n\n"
                            for tier, (rows, k) in TIER_BOARDS.items()))
    return path


def test_solve_grade_prints_the_grade_and_json_carries_it(capsys, tier_file):
    assert main(["solve", "--grade", str(tier_file)]) == 0
    out = capsys.readouterr().out
    grades = [line for line in out.splitlines() if line.startswith("grade: ")]
    assert [g.split(",")[0].removeprefix("grade: ").split(" (depth")[0] for g in grades] == [
        tier.title for tier in TIER_BOARDS
    ]
    assert main(["solve", "--grade", "--json", str(tier_file)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["grade"]["tier"] for r in records] == [int(t) for t in TIER_BOARDS]


def test_bench_prints_the_grade_distribution_per_file(capsys, tier_file):
    assert main(["bench", "--no-baseline", str(tier_file)]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("tiers.txt") and "graded" not in line
               and len(line.split()) > 10)
    assert row.split()[1:9] == ["5", "1", "1", "1", "1", "1", "0", "0"]
    assert main(["bench", "--no-baseline", "--json", str(tier_file)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["files"][0]["grades"]["counts"]["trial"] == 1


def test_hint_on_a_real_screenshot_gives_a_sound_step(capsys):
    from queens_autosolve.vision import read_image

    path = str(shared_path("screens", "an21p__data_0_input.png"))
    assert main(["hint", "--image", path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    answer = set(present(solve(read_image(path).puzzle())).queens)
    step = data["step"]
    assert data["certain"] and data["mistakes"] == [] and step["marks"]
    assert not {tuple(cell) for cell in step["marks"]} & answer
    assert set(map(tuple, step["marks"])) <= set(map(tuple, step["cells"]))
