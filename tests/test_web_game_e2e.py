"""End to end: the Queens Game page in a real Chromium on Xvfb, played against the AI by clicking
the board with pyautogui (and by keyboard with xdotool). What the page did is read back through
the REST API and must match what was clicked; the game-over message must show on screen.

The board is found on screen by its frame colour (``--frame`` in game.css) and the game-over
message by its own (``--over``), so no vision code is needed.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode

import numpy as np
import pytest

from queens_autosolve.pages.two_player import GameServer
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.twoplayer.queens_game import DEFAULT_MODE
from tests.checks import present
from tests.live import wait_painted, xdotool

pytestmark = pytest.mark.e2e

FRAME = (0x3B, 0x2F, 0x63)  # the board's frame (game.css --frame)
OVER = (0xFF, 0xD9, 0x66)  # the game-over message (game.css --over)
BORDER = 6  # px of frame around the cells
WAIT = 30.0  # seconds before a wait is a failure (a hang guard, not a speed check)


@contextmanager
def game_page(browser, **settings: object) -> Iterator[tuple[GameServer, str]]:
    """The page in `browser` with its first game started from `settings`; yields the server and
    the game's id once the board is on screen."""
    with GameServer() as server:
        browser.open(server.url + "?" + urlencode(settings))
        try:
            game_id = wait_until(lambda: server.store.ids()[0] if len(server.store) else None)
            assert api_state(server, game_id)["mode"] == settings.get("mode", DEFAULT_MODE)
            wait_until(lambda: board_box(grab(browser)[0]) if has_window(browser) else None)
            yield server, game_id
        finally:
            browser.open("about:blank")


def wait_until(probe, timeout: float = WAIT, browser=None):
    """Poll `probe` until it returns something truthy; that value. Giving up, it says what the
    page in `browser` (when given) holds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            seen = f"; the page: {browser.evaluate(PAGE_NOW)}" if browser is not None else ""
            raise AssertionError(f"gave up waiting after {timeout:g} s{seen}")
        time.sleep(0.05)


PAGE_NOW = """JSON.stringify({busy: page.busy, pending: page.pending !== null,
    queens: page.state && page.state.queens, error: document.getElementById("error").textContent,
    note: document.getElementById("ai-note").textContent})"""


def api_state(server: GameServer, game_id: str) -> dict:
    """The game as the server holds it, read through the REST API."""
    with urllib.request.urlopen(f"{server.url}api/game/state?game_id={game_id}", timeout=10) as response:
        return json.load(response)


def has_window(browser) -> bool:
    from queens_autosolve.capture import Desktop

    try:
        with Desktop(browser.display) as desktop:
            desktop.find_window("Queens Game")
        return True
    except QueensError:
        return False


def grab(browser) -> tuple[np.ndarray, tuple[int, int]]:
    """The game window's pixels (RGB) and the screen position of its top-left pixel."""
    from queens_autosolve.capture import Desktop

    with Desktop(browser.display) as desktop:
        frame = desktop.grab_window(desktop.find_window("Queens Game"))
    return np.array(frame.rgb), (frame.left, frame.top)


def colour_mask(pixels: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.all(pixels[..., :3] == np.array(colour, dtype=pixels.dtype), axis=-1)


def board_box(pixels: np.ndarray) -> tuple[int, int, int, int] | None:
    """(x, y, width, height) of the cells inside the board's frame, None while there is none."""
    ys, xs = np.nonzero(colour_mask(pixels, FRAME))
    if len(xs) < 400:
        return None
    left, top, right, bottom = xs.min() + BORDER, ys.min() + BORDER, xs.max() - BORDER, ys.max() - BORDER
    return int(left), int(top), int(right - left + 1), int(bottom - top + 1)


def cell_centre(browser, n: int, cell: tuple[int, int]) -> tuple[int, int]:
    pixels, at = grab(browser)
    box = board_box(pixels)
    assert box is not None, "no board on screen"
    x, y, w, h = box
    return at[0] + int(x + (cell[1] + 0.5) * w / n), at[1] + int(y + (cell[0] + 0.5) * h / n)


def clicker(browser):
    """pyautogui on the test's display, with no pause between events (as actuator/clicker.py)."""
    from tests.user_pointer import load_pyautogui

    gui = load_pyautogui(browser.display)
    gui.PAUSE = 0
    gui.FAILSAFE = False
    return gui


def queens_of(state: dict, player: int) -> list[tuple[int, int]]:
    return [(q["row"], q["col"]) for q in state["queens"] if q["player"] == player]


def my_turn_or_over(server: GameServer, game_id: str, placed: int):
    """The state once the page has placed `placed` queens for the human and the AI has answered
    (or the game is over)."""
    def probe() -> dict | None:
        state = api_state(server, game_id)
        mine = len(queens_of(state, 1))
        settled = state["game_over"] or state["current_player"] == 1
        return state if mine == placed and settled else None

    return wait_until(probe)


def game_over_shown(browser) -> bool:
    return int(colour_mask(grab(browser)[0], OVER).sum()) > 2000


@pytest.mark.parametrize(("mode", "n", "level", "seed"),
                         [("easy", 7, "greedy", 3), ("hard", 6, "perfect", 4), ("hard", 8, "random", 5)])
def test_a_whole_game_against_the_ai_played_by_clicking(browser, mode, n, level, seed):
    rng = random.Random(seed)
    settings = {"n": n, "mode": mode, "seed": seed, "opponent": "ai", "first": "human", "level": level}
    with game_page(browser, **settings) as (server, game_id):
        gui = clicker(browser)
        state = api_state(server, game_id)
        clicked: list[tuple[int, int]] = []
        while not state["game_over"]:
            move = rng.choice(state["valid_moves"])
            cell = (move["row"], move["col"])
            gui.click(*cell_centre(browser, n, cell))
            clicked.append(cell)
            state = my_turn_or_over(server, game_id, len(clicked))
            assert queens_of(state, 1) == clicked  # the page sent exactly what was clicked
        assert wait_until(lambda: game_over_shown(browser))
        assert state["winner"] in (1, 2) and state["reason"].startswith(f"Player {state['winner']} wins")
        assert len(state["queens"]) in (2 * len(clicked) - 1, 2 * len(clicked))


def test_the_ai_can_start_and_undo_takes_back_a_move_and_its_reply(browser):
    settings = {"n": 6, "mode": "easy", "seed": 8, "opponent": "ai", "first": "ai", "level": "greedy"}
    with game_page(browser, **settings) as (server, game_id):
        state = wait_until(lambda: (s := api_state(server, game_id))["queens"] and s)
        assert queens_of(state, 1) and state["current_player"] == 2  # the AI (player 1) moved first
        move = state["valid_moves"][0]
        clicker(browser).click(*cell_centre(browser, 6, (move["row"], move["col"])))
        after = wait_until(lambda: len((s := api_state(server, game_id))["queens"]) == 3 and s)
        assert queens_of(after, 2) == [(move["row"], move["col"])]
        # The Undo button is found on screen once the page shows the AI's reply, not before: the
        # screen then shows the page as it is (when the game-over banner stood above the buttons,
        # a reply ending the game moved them, and a click where Undo had been missed it).
        wait_until(lambda: browser.evaluate("!page.busy && page.state.queens.length === 3"))
        wait_painted(browser)
        undo = undo_button(browser)
        clicker(browser).click(*undo)
        one = lambda: len((s := api_state(server, game_id))["queens"]) == 1 and s  # noqa: E731
        back = wait_until(one, browser=browser)
        assert back["queens"] == state["queens"] and back["current_player"] == 2


def test_undo_pressed_while_the_ai_thinks_takes_back_the_move_and_its_reply_once_it_comes(
    browser, monkeypatch
):
    from queens_autosolve.pages import two_player as web_game

    answer = threading.Event()  # the AI thinks until the test lets it answer
    real = web_game.choose_move

    def slow_choose_move(*args: Any) -> object:
        assert answer.wait(WAIT), "the test never let the AI answer"
        return real(*args)

    monkeypatch.setattr(web_game, "choose_move", slow_choose_move)
    settings = {"n": 6, "mode": "easy", "seed": 8, "opponent": "ai", "first": "human", "level": "greedy"}
    with game_page(browser, **settings) as (server, game_id):
        gui = clicker(browser)
        gui.click(*cell_centre(browser, 6, (0, 0)))
        wait_until(lambda: browser.evaluate("page.busy && page.state.queens.length === 1"))
        gui.click(*undo_button(browser))
        wait_until(lambda: browser.evaluate("page.pending !== null"))  # kept for after the answer
        answer.set()
        back = wait_until(lambda: (s := api_state(server, game_id))["queens"] == [] and s)
        assert back["current_player"] == 1 and not browser.evaluate("page.busy")


UNDO = (0xEF, 0xE9, 0xFF)  # the Undo button's background (game.css #undo)


def undo_button(browser) -> tuple[int, int]:
    """The screen point at the middle of the Undo button, found by its colour."""
    pixels, at = grab(browser)
    ys, xs = np.nonzero(colour_mask(pixels, UNDO))
    assert len(xs) > 100, "no Undo button on screen"
    return at[0] + int(np.median(xs)), at[1] + int(np.median(ys))


def test_keyboard_arrows_and_enter_place_a_queen(browser):
    settings = {"n": 6, "mode": "hard", "seed": 2, "opponent": "pvp"}
    with game_page(browser, **settings) as (server, game_id):
        clicker(browser).click(*cell_centre(browser, 6, (0, 0)))  # a queen there, and the focus
        state = wait_until(lambda: (s := api_state(server, game_id))["queens"] and s)
        target = next(m for m in state["valid_moves"] if m["row"] >= 2 and m["col"] >= 1)
        keys = ["Down"] * target["row"] + ["Right"] * target["col"] + ["Return"]
        xdotool(browser.display, "key", "--delay", "50", *keys)
        after = wait_until(lambda: len((s := api_state(server, game_id))["queens"]) == 2 and s)
        assert queens_of(after, 2) == [(target["row"], target["col"])]


def test_each_region_has_its_own_colour_on_screen(browser):
    settings = {"n": 9, "mode": "easy", "seed": 6, "opponent": "pvp"}
    with game_page(browser, **settings) as (server, game_id):
        state = api_state(server, game_id)
        regions = state["regions"]
        pixels, _ = grab(browser)
        x, y, w, h = present(board_box(pixels))
        seen: dict[int, set[tuple[int, ...]]] = {}
        for r in range(9):
            for c in range(9):
                corner = pixels[y + int(r * h / 9) + 4, x + int(c * w / 9) + 4][:3]
                seen.setdefault(regions[r][c], set()).add(tuple(int(v) for v in corner))
    assert all(len(colours) == 1 for colours in seen.values()), seen  # one colour per region
    colours = [next(iter(colours)) for colours in seen.values()]
    assert len(set(colours)) == 9  # and no two regions alike
    chosen = {region: "#{:02X}{:02X}{:02X}".format(*next(iter(seen[region]))) for region in seen}
    assert all(chosen[region] == state["colours"][region] for region in seen)  # the server's choice


WIN, LOSE = (0x1B, 0x7F, 0x3B), (0x8A, 0x1C, 0x1C)  # the analysis marks (game.css .win, .lose)


def test_the_analysis_toggle_marks_winning_and_losing_moves(browser):
    settings = {"n": 6, "mode": "easy", "seed": 11, "opponent": "pvp", "analysis": 1}
    with game_page(browser, **settings) as (server, game_id):
        clicker(browser).click(*cell_centre(browser, 6, (1, 1)))
        wait_until(lambda: api_state(server, game_id)["queens"])
        with urllib.request.urlopen(f"{server.url}api/game/analysis?game_id={game_id}", timeout=30) as answer:
            analysis = json.load(answer)
        results = {m["result"] for m in analysis["moves"]}

        def marks_shown() -> bool:
            pixels = grab(browser)[0]
            shown = {name for name, colour in (("win", WIN), ("lose", LOSE))
                     if colour_mask(pixels, colour).sum() > 30}
            return shown == results

        assert wait_until(marks_shown)
