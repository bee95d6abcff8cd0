"""The practice page's finish, in a real (headless) Chromium: the hint reads as sentences and
says where the dashed cells are, a new puzzle keeps the difficulty chosen and shows its grade,
the win dialog copies a result text, and the board plays from the keyboard."""

from __future__ import annotations

import base64
import re
from io import BytesIO

import numpy as np
from PIL import Image

from queens_autosolve.pages.browser import Chromium
from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.search import search
from tests.checks import present
from tests.live import TWO_FRAMES, wait_for_page

SIX = generate_puzzle(6, rng=5)
SIX_ANSWER = sorted(present(search(SIX).solution).queens)
WAIT = 30.0


def wait_for(headless: Chromium, expression: str) -> object:
    return wait_for_page(headless, expression, WAIT)


def open_page(headless: Chromium, server: PracticeServer) -> None:
    headless.open(server.url)
    server.wait_for_page(timeout=20)
    headless.call("Runtime.evaluate", expression=TWO_FRAMES, awaitPromise=True)


def screenshot(headless: Chromium) -> np.ndarray:
    data = headless.call("Page.captureScreenshot", format="png")["data"]
    return np.asarray(Image.open(BytesIO(base64.b64decode(data))).convert("RGB"))


def key(headless: Chromium, name: str, code: int) -> None:
    """One key press as the keyboard sends it (keydown, then keyup)."""
    text = " " if name == " " else ""
    for kind in ("keyDown", "keyUp"):
        headless.call("Input.dispatchKeyEvent", type=kind, key=name, code="Space" if name == " " else name,
                      windowsVirtualKeyCode=code, text=text if kind == "keyDown" else "")


def test_the_hint_is_sentences_that_point_at_the_dashed_cells(headless):
    with PracticeServer(SIX) as server:
        open_page(headless, server)
        headless.evaluate("document.getElementById('hint').click()")
        text = str(wait_for(headless, "!document.getElementById('hint-text').hidden && "
                                      "document.getElementById('hint-text').textContent"))
        outlined = headless.evaluate("document.querySelectorAll('#board .cell.hint-mark').length")
        shot = screenshot(headless)
    assert re.fullmatch(r"[^:]+: .+[.] (Mark the (cell|\d+ cells) outlined in dashes with X|"
                        r"Place a queen on r\dc\d \(outlined in dashes\))[.]", text), text
    assert not re.search(r"\bregions? [A-Z]\b", text)
    dashed_blue = np.all(shot == np.array([10, 102, 194], np.uint8), axis=-1).sum()
    assert isinstance(outlined, int) and outlined >= 1 and dashed_blue > 50 * outlined


def test_a_new_puzzle_keeps_the_difficulty_chosen_and_shows_its_grade(headless):
    with PracticeServer(SIX) as server:
        open_page(headless, server)
        assert headless.evaluate("document.getElementById('puzzle-grade').hidden")
        headless.evaluate("document.getElementById('difficulty').value = 'easy';"
                          "document.getElementById('new-puzzle').click()")
        wait_for(headless, "!document.getElementById('puzzle-grade').hidden")
        server.wait_for_page(timeout=20)
        chosen = headless.evaluate("document.getElementById('difficulty').value")
        grade = str(headless.evaluate("document.getElementById('puzzle-grade').textContent"))
        name = headless.evaluate("document.getElementById('puzzle-name').textContent")
        puzzle = server.puzzle
    assert chosen == "easy" and puzzle.meta["difficulty"] == "easy"
    assert grade.startswith("easy: ") and len(grade) > len("easy: ")
    assert name == puzzle.name != SIX.name


def test_the_win_dialog_copies_the_result_text(headless):
    with PracticeServer(SIX) as server:
        open_page(headless, server)
        headless.call("Browser.grantPermissions",
                      permissions=["clipboardReadWrite", "clipboardSanitizedWrite"])
        for r, c in SIX_ANSWER:  # two taps each: X, then a queen
            cell = f"document.querySelector('#board .cell[data-row=\"{r}\"][data-col=\"{c}\"]')"
            for _ in range(2):
                headless.evaluate(f"{cell}.click()")
        wait_for(headless, "!document.getElementById('win').hidden")
        headless.evaluate("document.getElementById('win-share').click()")
        share = "document.getElementById('win-share').textContent"
        button = wait_for(headless, f"{share} !== 'Copy your result' && {share}")
        copied = headless.call("Runtime.evaluate", expression="navigator.clipboard.readText()",
                               awaitPromise=True, returnByValue=True)["result"].get("value")
        shared = headless.evaluate("queensGame.win.lastShared")
    assert button == "Copied!"
    assert copied == shared
    result = r"Queens \S+ \| \d+:\d\d in \d+ moves 👑\nPractised with queens-autosolve"
    assert re.fullmatch(result, str(shared))


def test_the_board_plays_from_the_keyboard(headless):
    target = SIX_ANSWER[2]
    with PracticeServer(SIX) as server:
        open_page(headless, server)
        headless.evaluate("document.querySelector('#board .cell').focus()")  # as Tab onto the board would
        assert headless.evaluate("document.activeElement.dataset.index") == "0"
        for _ in range(target[0]):
            key(headless, "ArrowDown", 40)
        for _ in range(target[1]):
            key(headless, "ArrowRight", 39)
        key(headless, "Enter", 13)
        key(headless, " ", 32)
        state = server.wait_for(lambda s: s.states[target[0]][target[1]] == "Q", timeout=10)
        focused = headless.evaluate("document.activeElement.dataset.index")
    assert focused == str(target[0] * 6 + target[1])
    assert sum(row.count("Q") for row in state.states) == 1
