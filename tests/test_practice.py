"""The practice page: its server API, and the page itself in a real headless Chromium.

The browser tests drive a headless Chromium over DevTools (autosolve/browser.py): they press
cells with real mouse events and read back what the page reported.
"""

from __future__ import annotations

import base64
import itertools
import json
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from functools import partial
from io import BytesIO
from typing import Any

import numpy as np
import pytest
from PIL import Image

from queens_autosolve.autosolve.cli import main
from queens_autosolve.pages.browser import Chromium, find_chromium
from queens_autosolve.pages.practice import (
    REGION_COLOURS,
    PageState,
    PracticeServer,
    PracticeTimeout,
    region_colours,
)
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Puzzle
from tests.checks import present
from tests.environment import have_chromium, require_tool
from tests.live import FIVE, FIVE_ANSWER, photograph_page, tab_urls

# A 9x9 LinkedIn level (2026-07-11) with two pre-placed queens.
LEVEL = Puzzle.from_rows(
    ["AABAAACDD", "ABBBACCCH", "AABEAACHH", "AAEEEAAAH", "AAAEAAAAA",
     "AAFAAAGAA", "AFFFAGGGA", "AAFAAIGAA", "AAAAIIIAA"],
    given=[(0, 7), (1, 1)],
    name="linkedin-2026-07-11",
)
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
]


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


def post_json(url: str, body: object) -> tuple[int, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def report(states: list[str], seq: int, session: str = "s1", **extra: object) -> dict[str, object]:
    return {"session": session, "seq": seq, "states": states, "solved": False, "moves": seq, **extra}


# --- server API ------------------------------------------------------------------------------


def test_puzzle_api_gives_regions_palette_colours_locked_cells_and_initial_marks():
    with PracticeServer(LEVEL, dark=True, initial=["x" + "." * 8] + ["." * 9] * 8) as server:
        data = get_json(server.url + "api/puzzle")
    assert server.url.startswith("http://127.0.0.1:") and server.port > 0
    assert data["n"] == 9 and data["regions"][0] == "AABAAACDD"
    assert data["region_ids"][0][:3] == [0, 0, 1]
    assert data["colours"] == list(REGION_COLOURS[:9])
    assert data["locked"] == [[0, 7], [1, 1]]
    assert data["initial"][:2] == ["x......L.", ".L......."]
    assert data["dark"] is True and "Queens" in data["title"]


def test_page_is_served_with_the_puzzle_embedded_and_static_files_alongside():
    with PracticeServer(FIVE) as server:
        with urllib.request.urlopen(server.url, timeout=5) as response:
            page = response.read().decode()
        with urllib.request.urlopen(server.url + "app.js", timeout=5) as response:
            script_type = response.headers["Content-Type"]
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(server.url + "../server.py", timeout=5)
    assert "<title>Queens | Practice</title>" in page
    assert '"regions": ["AAAAE"' in page and "__PUZZLE_JSON__" not in page
    assert script_type.startswith("text/javascript")
    assert missing.value.code == 404


def test_state_starts_as_the_initial_board_and_follows_reports():
    initial = ["Q....", ".x...", ".....", ".....", "....."]
    with PracticeServer(FIVE, initial=initial) as server:
        before = server.state()
        moved = ["Qx...", ".x...", "..Q..", ".....", "....."]
        status, answer = post_json(server.url + "api/state", report(moved, 1))
        after = server.state()
    assert before.states == tuple(initial) and before.reports == 0 and before.queens == ((0, 0),)
    assert status == 200 and answer == {"ok": True, "solved": False}
    assert after.states[0] == "Qx..." and after.queens == ((0, 0), (2, 2))
    assert after.reports == 1 and after.moves == 1 and after.updated_at > 0


def test_solved_is_judged_by_the_rules_not_by_what_the_page_claims():
    rows = ["Q....", "..Q..", "....Q", ".Q...", "...Q."]
    with PracticeServer(FIVE) as server:
        touching = ["Q....", ".Q...", ".....", ".....", "....."]
        post_json(server.url + "api/state", report(touching, 1, solved=True))
        wrong = server.state()
        post_json(server.url + "api/state", report(rows, 2, solved=True))
        right = server.state()
    assert not wrong.solved and wrong.page_solved
    assert right.solved and right.queens == tuple(FIVE_ANSWER)


def test_late_reports_of_the_same_page_are_ignored_but_a_reloaded_page_wins():
    with PracticeServer(FIVE) as server:
        post_json(server.url + "api/state", report(["x....", ".....", ".....", ".....", "....."], 5))
        post_json(server.url + "api/state", report(["Q....", ".....", ".....", ".....", "....."], 4))
        kept = server.state()
        post_json(server.url + "api/state", report(["....."] * 5, 1, session="s2"))
        reloaded = server.state()
    assert kept.states[0] == "x...."
    assert reloaded.states[0] == "....." and reloaded.reports == 2


@pytest.mark.parametrize(
    "body",
    [
        {"states": ["....."] * 4, "seq": 1},
        {"states": ["..?.."] * 5, "seq": 1},
        {"states": ["....."] * 5, "seq": "one"},
        [1, 2, 3],
    ],
)
def test_malformed_reports_are_refused_with_400(body):
    with PracticeServer(FIVE) as server:
        status, answer = post_json(server.url + "api/state", body)
        assert server.state().reports == 0
    assert status == 400 and "error" in answer


def test_a_report_that_moves_a_locked_queen_is_refused():
    with PracticeServer(LEVEL) as server:
        unlocked, _ = post_json(server.url + "api/state", report(["." * 9] * 9, 1))
        extra_lock = ["L......L.", ".L......."] + ["." * 9] * 7
        invented, _ = post_json(server.url + "api/state", report(extra_lock, 2))
        assert server.state().reports == 0
    assert unlocked == 400 and invented == 400


def test_wait_for_returns_the_first_matching_state_and_times_out_with_the_last_one():
    with PracticeServer(FIVE) as server:
        rows = ["Q....", "..Q..", "....Q", ".Q...", "...Q."]
        timer = threading.Timer(0.2, post_json, (server.url + "api/state", report(rows, 1)))
        timer.start()
        solved = server.wait_for(solved=True, timeout=5)
        with pytest.raises(PracticeTimeout) as timeout:
            server.wait_for(lambda s: s.moves > 100, timeout=0.2)
        timer.join()
    assert solved.solved and solved.states == tuple(rows)
    assert timeout.value.state.moves == 1


def test_initial_marks_that_do_not_fit_the_board_are_refused():
    with pytest.raises(QueensError, match="5 rows of 5 letters"):
        PracticeServer(FIVE, initial=["....."] * 4)
    with pytest.raises(QueensError, match="not a locked cell"):
        PracticeServer(FIVE, initial=["L...."] + ["....."] * 4)


def test_region_colours_follow_the_palette_then_differ_from_neighbours_beyond_it():
    assert region_colours(FIVE) == list(REGION_COLOURS[:5])
    n = 20
    stripes = Puzzle.from_region_grid([[c for c in range(n)] for _ in range(n)])
    colours = region_colours(stripes)
    assert len(colours) == n and colours[:18] == list(REGION_COLOURS)
    assert all(a != b for a, b in itertools.pairwise(colours))


def test_a_taken_port_is_a_one_line_error(capsys):
    with PracticeServer(FIVE) as server:
        status = main(["practice", "--size", "5", "--seed", "1", "--port", str(server.port), "--no-open"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "cannot serve" in err


def test_a_bad_puzzle_file_is_a_one_line_error(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("AAB\nAB\n")
    status = main(["practice", "--puzzle", str(bad), "--no-open"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "bad.txt" in err


def test_the_command_serves_a_generated_puzzle_and_prints_its_url():
    command = [sys.executable, "-m", "queens_autosolve",
               "practice", "--size", "6", "--seed", "4", "--no-open"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        line = present(process.stdout).readline()
        url = line.split(" at ")[1].strip()
        data = get_json(url + "api/puzzle")
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert "gen-n6-k1-s4" in line and url.startswith("http://127.0.0.1:")
    assert data["n"] == 6 and data["name"] == "gen-n6-k1-s4"


# --- the page in a real browser ---------------------------------------------------------------


def need_chromium() -> str:
    """The Chromium executable, for the tests that run it once (--dump-dom, --screenshot)."""
    require_tool(have_chromium(), "Chromium")
    return find_chromium()


def mouse(headless: Chromium, kind: str, x: float, y: float, **extra: object) -> None:
    """One mouse event with the left button (``mousePressed``, ``mouseMoved``, ...)."""
    headless.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", **extra)


def press(headless: Chromium, x: float, y: float) -> None:
    mouse(headless, "mousePressed", x, y, clickCount=1)
    mouse(headless, "mouseReleased", x, y, clickCount=1)


def screenshot(headless: Chromium) -> np.ndarray:
    data = headless.call("Page.captureScreenshot", format="png")["data"]
    return np.asarray(Image.open(BytesIO(base64.b64decode(data))).convert("RGB"))


def open_page(headless: Chromium, server: PracticeServer) -> list[tuple[float, float]]:
    """Load the page, wait for its first report; return each cell's centre in reading order."""
    headless.open(server.url)
    server.wait_for_page(timeout=20)
    centres = headless.evaluate(
        "[...document.querySelectorAll('#board .cell')].map(e => {"
        "const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })"
    )
    assert isinstance(centres, list)
    return [(x, y) for x, y in centres]


def palette_pixels(image: np.ndarray) -> dict[str, int]:
    """How many pixels of each palette colour the image holds (exact matches)."""
    flat = image.reshape(-1, 3).astype(np.int32)
    codes = flat[:, 0] << 16 | flat[:, 1] << 8 | flat[:, 2]
    values, counts = np.unique(codes, return_counts=True)
    found = dict(zip(values.tolist(), counts.tolist()))
    return {colour: found.get(int(colour[1:], 16), 0) for colour in REGION_COLOURS}


def has_moves(moves: int, state: PageState) -> bool:
    return state.moves == moves


def test_each_press_cycles_empty_x_queen_empty_and_the_server_sees_it(headless):
    with PracticeServer(FIVE) as server:
        cells = open_page(headless, server)
        assert len(cells) == 25
        seen = []
        for presses in (1, 2, 3):
            press(headless, *cells[6])
            state = server.wait_for(partial(has_moves, presses), timeout=5)
            seen.append(state.states[1][1])
        headless.evaluate("document.querySelectorAll('#board .cell')[7].click()")  # script: no pointer
        scripted = server.wait_for(lambda s: s.moves == 4, timeout=5)
    assert seen == ["x", "Q", "."]
    assert scripted.states[1] == "..x.."


def test_fast_presses_are_all_counted_and_clicking_the_answer_solves_with_gold_crowns(headless):
    with PracticeServer(FIVE, win_screen="none") as server:  # no results card over the crowns
        cells = open_page(headless, server)
        for r, c in FIVE_ANSWER:  # two presses each, back to back: x then queen
            press(headless, *cells[r * 5 + c])
            press(headless, *cells[r * 5 + c])
        state = server.wait_for(solved=True, timeout=10)
        banner = headless.evaluate("(b => b.hidden ? '' : b.textContent)(document.getElementById('banner'))")
        shot = screenshot(headless)
    assert state.page_solved and state.moves == 10 and state.queens == tuple(FIVE_ANSWER)
    assert isinstance(banner, str) and banner.startswith("You win!")
    gold = (np.abs(shot.astype(int) - (0xE8, 0xB4, 0x00)).sum(axis=2) < 30).sum()
    assert gold > 5 * 40  # five gold crowns on the board


def test_open_about_blank_returns_once_the_page_before_has_gone(headless):
    """The live tests blank the browser after each page so that the next one cannot read it.
    Chromium commits a navigation about 0.1 s after `Page.navigate` answers; `open` waits."""
    seen = []
    for _ in range(5):
        with PracticeServer(FIVE) as server:
            open_page(headless, server)
            headless.open("about:blank")
            seen.append((tab_urls(headless), headless.evaluate("document.URL + ' ' + document.title")))
    assert seen == [(["about:blank"], "about:blank ")] * 5


def test_locked_queens_ignore_presses_and_undo_and_clear_restore_marks(headless):
    initial = ["x........", "...Q....."] + ["." * 9] * 7
    with PracticeServer(LEVEL, initial=initial) as server:
        cells = open_page(headless, server)
        first = server.state()
        press(headless, *cells[0 * 9 + 7])  # the locked queen
        press(headless, *cells[8 * 9 + 8])  # an empty cell: x
        after_press = server.wait_for(lambda s: s.states[8][8] == "x", timeout=5)
        headless.evaluate("document.getElementById('undo').click()")
        undone = server.wait_for(lambda s: s.states[8][8] == ".", timeout=5)
        headless.evaluate("document.getElementById('clear').click()")
        cleared = server.wait_for(lambda s: "Q" not in "".join(s.states), timeout=5)
        conflicts = headless.evaluate("document.querySelectorAll('#board .cell.conflict').length")
    assert first.states[:2] == ("x......L.", ".L.Q.....")
    assert after_press.states[0][7] == "L" and after_press.moves == 1
    assert undone.states[1][3] == "Q"
    assert cleared.states[:2] == (".......L.", ".L.......") and cleared.queens == ((0, 7), (1, 1))
    assert conflicts == 0


def test_dump_dom_shows_the_title_all_cells_and_the_examples():
    chromium = need_chromium()
    with PracticeServer(LEVEL) as server, tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=3000",
             "--dump-dom", server.url],
            capture_output=True, text=True, timeout=60,
        )
        state = server.state()
    dom = done.stdout
    board = dom.split('id="board"', 1)[1].split('class="controls"', 1)[0]
    assert "<title>Queens | Practice</title>" in dom
    assert board.count('class="cell') == 81
    assert board.count('data-state="L"') == 2
    assert dom.count("board mini") == 3
    assert state.reports >= 1  # the page reported its first board


@pytest.mark.parametrize("dark", [False, True])
def test_screenshot_shows_one_palette_colour_per_region(dark, headless):
    with PracticeServer(LEVEL, dark=dark) as server:
        # 800 px tall: the board is on screen, the example boards below it are not.
        png = photograph_page(headless, server, (900, 800))
    image = np.asarray(Image.open(BytesIO(png)).convert("RGB"))
    counts = palette_pixels(image)
    present = [colour for colour, count in counts.items() if count > 500]
    assert present == list(REGION_COLOURS[:9])
    background = tuple(image[5, 450]) if dark else None  # the header bar
    assert background in ((0x1B, 0x1F, 0x23), None)


def test_dragging_from_a_new_x_marks_the_empty_cells_passed_and_one_undo_removes_them(headless):
    with PracticeServer(FIVE, initial=["..Q..", ".....", ".....", ".....", "....."]) as server:
        cells = open_page(headless, server)
        (x0, y0), (x3, y3) = cells[0], cells[3]
        mouse(headless, "mousePressed", x0, y0, clickCount=1)
        for step in range(1, 13):
            mouse(headless, "mouseMoved", x0 + (x3 - x0) * step / 12, y0, buttons=1)
        mouse(headless, "mouseReleased", x3, y3, clickCount=1)
        dragged = server.wait_for(lambda s: s.moves == 3, timeout=5)
        headless.evaluate("document.getElementById('undo').click()")
        undone = server.wait_for(lambda s: s.moves == 4, timeout=5)
    assert dragged.states[0] == "xxQx."  # the queen is passed over, not marked
    assert undone.states[0] == "..Q.."


SIZES_JS = """(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
  const cell = (i) => document.querySelectorAll('#board .cell')[i];
  const board = document.getElementById('board');
  return {
    cell: box(cell(0)), border: getComputedStyle(board).borderTopWidth,
    xmark: box(cell(0).querySelector('.xmark')), crown: box(cell(2).querySelector('.crown')),
    disc: box(cell(4).querySelector('.disc')), bg: getComputedStyle(cell(1)).backgroundColor,
  };
})()"""


def test_cells_marks_and_hover_have_the_look_the_vision_renderer_copies(headless):
    puzzle = Puzzle.from_rows(FIVE.label_rows(), given=[(0, 4)])
    with PracticeServer(puzzle, initial=["x.Q..", ".....", ".....", ".....", "....."]) as server:
        cells = open_page(headless, server)
        sizes = headless.evaluate(SIZES_JS)
        mouse(headless, "mouseMoved", *cells[12])
        hovered = headless.evaluate("getComputedStyle(document.querySelectorAll('#board .cell')[12]).filter")
    assert isinstance(sizes, dict)
    assert sizes["cell"] == [56, 56] and sizes["border"] == "3px"
    assert sizes["xmark"][0] == pytest.approx(0.4 * 56, abs=1)  # bars at 45 degrees: ~30% across
    assert sizes["crown"][0] == pytest.approx(0.55 * 56, abs=1)
    assert sizes["disc"][0] == pytest.approx(0.7 * 56, abs=1)
    assert sizes["bg"] == "rgb(187, 163, 226)"  # region A: #BBA3E2
    assert hovered == "brightness(0.88)"
