"""The practice page's coach: its Hint button (``POST /api/hint``, answered by solver.coach) and
its new-puzzle choice (``POST /api/new``, a puzzle of the chosen difficulty).

The API is tested over real HTTP; the button in a real Chromium on Xvfb, pressed from the
keyboard, with the outlined cells looked for on screen.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.solver.coach import Tier
from queens_autosolve.solver.difficulty import Difficulty
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.search import search
from tests.checks import present
from tests.live import board_box, grab, post, shown, xdotool

SIX = generate_puzzle(6, rng=5)
SIX_ANSWER = set(present(search(SIX).solution).queens)
HINT_BLUE = (10, 102, 194)  # the dashed outline of the cells a hint lets you mark


def test_a_hint_on_the_empty_board_is_a_step_that_keeps_the_answer():
    with PracticeServer(SIX) as server:
        status, answer = post(server, "/api/hint", {"states": ["......"] * 6})
    assert status == 200 and answer["mistakes"] == [] and not answer["solved"]
    step = answer["step"]
    assert step["text"] and step["rule"] and 1 <= step["tier"] <= 6
    marks = {tuple(cell) for cell in step["marks"]}
    assert marks or step["queen"], "a step marks cells or places a queen"
    assert not marks & SIX_ANSWER  # never an X where a queen goes
    if step["queen"]:
        assert tuple(step["queen"]) in SIX_ANSWER


def test_a_hint_names_a_wrong_queen_before_anything_else():
    wrong = next((1, c) for c in range(6) if (1, c) not in SIX_ANSWER)
    states = ["......"] * 6
    states[1] = "".join("Q" if c == wrong[1] else "." for c in range(6))
    with PracticeServer(SIX) as server:
        status, answer = post(server, "/api/hint", {"states": states})
    assert status == 200
    assert [m["cell"] for m in answer["mistakes"]] == [list(wrong)]
    assert f"r2c{wrong[1] + 1}" in answer["mistakes"][0]["text"]


@pytest.mark.parametrize("body", [{}, {"states": ["......"] * 5}, {"states": ["..?..."] * 6}])
def test_a_hint_for_a_board_that_is_not_this_one_is_a_400(body):
    with PracticeServer(SIX) as server:
        status, answer = post(server, "/api/hint", body)
    assert status == 400 and answer["error"]


def test_a_new_puzzle_of_the_chosen_difficulty_replaces_the_board():
    puzzle = generate_puzzle(7, rng=2)
    with PracticeServer(puzzle) as server:
        status, answer = post(server, "/api/new", {"difficulty": "easy"})
        assert status == 200, answer
        new = server.puzzle
        state = server.state()
        status_bad, bad = post(server, "/api/new", {"difficulty": "fiendish"})
    assert new.n == 7 and new.name == answer["name"] != puzzle.name
    assert new.meta["difficulty"] == "easy"
    assert Tier(answer["grade"]["tier"]) in Difficulty.EASY.tiers
    assert search(new).count == 1
    assert state.states == (".......",) * 7 and state.reports == 0
    assert status_bad == 400 and "easy, medium or hard" in bad["error"]


def test_the_hint_button_outlines_the_cells_the_step_lets_you_mark(browser):
    with shown(browser, SIX) as server:
        _, answer = post(server, "/api/hint", {"states": ["......"] * 6})
        # theme, the board (its cell in the tab order), Undo, Clear, Hint
        xdotool(browser.display, "key", "Tab", "Tab", "Tab", "Tab", "Tab", "Return")
        marked: set[tuple[int, int]] = set()
        deadline = time.monotonic() + 10
        while not marked and time.monotonic() < deadline:
            pixels, _ = grab(browser)
            box = board_box(pixels)
            assert box is not None
            marked = _outlined_cells(pixels, box, 6)
            time.sleep(0.1)
    step = answer["step"]
    wanted = {tuple(c) for c in step["marks"]} | ({tuple(step["queen"])} if step["queen"] else set())
    assert marked == wanted


def _outlined_cells(pixels: np.ndarray, box: tuple[int, int, int, int], n: int) -> set[tuple[int, int]]:
    """The cells of the board at `box` that show the hint's blue dashed outline."""
    x, y, w, h = box
    blue = np.all(np.abs(pixels[y : y + h, x : x + w].astype(int) - HINT_BLUE) < 12, axis=2)
    cells = set()
    for r in range(n):
        for c in range(n):
            part = blue[r * h // n : (r + 1) * h // n, c * w // n : (c + 1) * w // n]
            if part.sum() > 20:
                cells.add((r, c))
    return cells


@pytest.mark.parametrize(("rows", "offered"), [
    (["ABBB", "ABCC", "DDCC", "DDDD"], "easy"),
    (["AAAAE", "ACCAE", "ACCEE", "DDCBB", "DDBBB"], "easy,medium"),
])
def test_the_page_offers_only_the_difficulties_its_size_can_have(browser, rows, offered):
    from queens_autosolve.solver.puzzle import Puzzle

    with shown(browser, Puzzle.from_rows(rows)):
        choices = browser.evaluate(
            "[...document.getElementById('difficulty').options].map(option => option.value).join()")
    assert choices == offered
