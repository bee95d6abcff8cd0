"""`hint --apply` end to end: the practice page in a real Chromium on Xvfb, the coach's steps made
with real pyautogui clicks. The tests assert what the page itself reports (its cell states, and
solved), not what we read back. In CI these run (a missing Xvfb or Chromium fails them)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from queens_autosolve.autosolve.live_coach import hint
from queens_autosolve.autosolve.records import Source
from queens_autosolve.solver.coach import hint_sequence
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.position import Position
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import solve
from tests.checks import present
from tests.live import practice_page

pytestmark = pytest.mark.e2e


def puzzle_whose_first_hint_marks(n: int) -> Puzzle:
    """A generated puzzle whose first hint is X marks (several of them), not a queen."""
    for seed in range(100):
        puzzle = generate_puzzle(n, rng=random.Random(7000 + seed))
        first = hint_sequence(puzzle)[0]
        if first.queen is None and len(first.marks) >= 2:
            return puzzle
    raise AssertionError("no such puzzle in 100 seeds")


def x_cells(states: tuple[str, ...]) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(states) for c, ch in enumerate(row) if ch == "x"}


def test_hint_apply_puts_the_x_marks_where_the_step_said(browser, xvfb):
    puzzle = puzzle_whose_first_hint_marks(7)
    first = hint_sequence(puzzle)[0]
    with practice_page(browser, puzzle, win_screen="none") as server:
        done = subprocess.run(
            [sys.executable, "-m", "queens_autosolve",
             "hint", "--apply", "--json", "--display", xvfb.display],
            capture_output=True, text=True, timeout=60,
        )
        state = server.wait_for(lambda s: len(x_cells(s.states)) >= len(first.marks), timeout=5)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["mistakes"] == []
    assert data["applied"] == {"clicks": len(first.marks), "shown": True, "missing": []}
    assert {tuple(cell) for cell in data["step"]["marks"]} == set(first.marks)
    assert x_cells(state.states) == set(first.marks) and not state.queens  # those cells, and only they


def test_hint_apply_names_a_wrong_queen_and_clicks_nothing(browser, xvfb, sent_clicks):
    puzzle = generate_puzzle(6, rng=random.Random(6001))
    answer = set(present(solve(puzzle)).queens)
    wrong = next((r, c) for r in range(6) for c in range(6) if (r, c) not in answer)
    initial = ["".join("Q" if (r, c) == wrong else "." for c in range(6)) for r in range(6)]
    with practice_page(browser, puzzle, initial=initial, win_screen="none") as server:
        before = server.state().moves
        result = hint(Source(display=xvfb.display), apply=True)
        after = server.state()
    assert [m.cell for m in result.advice.mistakes] == [wrong] and result.applied is None
    assert sent_clicks == [] and after.moves == before and after.states == tuple(initial)


def test_hint_apply_step_by_step_until_the_page_reports_solved(browser, xvfb):
    from queens_autosolve.pages.practice import region_colours
    from queens_autosolve.vision.colour_names import hex_rgb, region_colour_names

    puzzle = generate_puzzle(6, rng=random.Random(6002))
    # The live hint names regions by the colours it reads: the page's palette, so the same names.
    names = region_colour_names([hex_rgb(colour) for colour in region_colours(puzzle)])
    assert names is not None
    expected = hint_sequence(puzzle.with_colour_names(names))
    made = []
    with practice_page(browser, puzzle) as server:  # the win dialog comes up, as on LinkedIn
        for _ in range(len(expected)):
            result = hint(Source(display=xvfb.display), apply=True)
            assert not result.advice.mistakes and result.applied is not None, result.advice.lines()
            assert result.applied.shown, result.applied.missing
            made.append(present(result.advice.step))
            if server.state().solved:
                break
        state = server.wait_for(solved=True, timeout=5)
    assert state.page_solved and set(state.queens) == set(present(solve(puzzle)).queens)
    assert [step.text for step in made] == [step.text for step in expected]
    position = Position.empty(puzzle.n)
    for step in made:
        position = Position.of(puzzle.n, position.queens | ({step.queen} if step.queen else set()),
                               position.marks | set(step.marks))
    assert x_cells(state.states) == set(position.marks)  # every X the steps made, and no other
