"""How the Queens Game page looks and keeps its settings, in a real (headless) Chromium: region
colours people tell apart (also with red-green colour blindness), region borders drawn as the
practice page draws them, no sideways scroll at 480x800, the game-over box alone with the last
move, the address following the game started, and one set of defaults for page and CLI."""

from __future__ import annotations

import base64
import itertools
import time
from collections.abc import Iterator
from io import BytesIO
from urllib.parse import parse_qs, urlencode, urlparse

import numpy as np
import pytest
from PIL import Image

from queens_autosolve.autosolve.cli import build_parser
from queens_autosolve.autosolve.commands.play import web_settings
from queens_autosolve.pages.browser import Chromium
from queens_autosolve.pages.two_player import GameServer
from queens_autosolve.pages.two_player_colours import PALETTE, apart, as_seen_with, region_colours
from queens_autosolve.twoplayer.queens_board import QueensBoard
from queens_autosolve.twoplayer.queens_game import DEFAULT_AI, DEFAULT_MODE, DEFAULT_SIZE
from queens_autosolve.vision.colour_names import hex_rgb
from queens_autosolve.vision.sample import to_lab
from tests.live import TWO_FRAMES, wait_for_page

FRAME = (0x3B, 0x2F, 0x63)  # the board's frame (game.css --frame)
REGION_LINE = (0, 0, 0)  # game.css --region-line
WAIT = 20.0


# --- the palette -----------------------------------------------------------------------------------


def delta_e(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(to_lab(a) - to_lab(b)))


def test_every_two_palette_colours_look_apart_also_with_red_green_colour_blindness():
    for a, b in itertools.combinations(PALETTE, 2):
        normal = delta_e(np.array(hex_rgb(a), float), np.array(hex_rgb(b), float))
        assert normal >= 13.5, (a, b, normal)
        for deficiency in ("deuteranopia", "protanopia"):
            seen = delta_e(as_seen_with(hex_rgb(a), deficiency), as_seen_with(hex_rgb(b), deficiency))
            assert seen >= 9.0, (a, b, deficiency, seen)


def test_the_pairs_the_issue_named_are_not_in_the_palette_and_would_fail_it():
    mint, light_green = np.array([177, 241, 196], float), np.array([193, 241, 177], float)
    assert delta_e(mint, light_green) < 13.5  # why they were hard to tell apart
    assert "#B1F1C4" not in PALETTE and "#C1F1B1" not in PALETTE


@pytest.mark.parametrize("n", range(4, 13))
def test_each_region_gets_its_own_colour_and_neighbours_the_most_distinct(n):
    for seed in range(5):
        regions = QueensBoard.random(n, seed, "hard").regions
        assert regions is not None
        colours = region_colours(regions)
        assert len(colours) == n and len(set(colours)) == n
        touching = {(regions[r][c], regions[rr][cc]) for r in range(n) for c in range(n)
                    for rr, cc in ((r + 1, c), (r, c + 1))
                    if rr < n and cc < n and regions[rr][cc] != regions[r][c]}
        assert min(apart(colours[a], colours[b]) for a, b in touching) >= 9.0


def test_the_cli_link_asks_for_the_pages_own_defaults():
    args = build_parser("play").parse_args(["play", "queens", "--web"])
    assert web_settings(args) == {"n": str(DEFAULT_SIZE), "mode": DEFAULT_MODE, "opponent": "ai",
                                          "first": "human", "level": DEFAULT_AI}


# --- the page in Chromium --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[GameServer]:
    with GameServer() as game_server:
        yield game_server


def wait_for(headless: Chromium, expression: str) -> object:
    return wait_for_page(headless, expression, WAIT)


def show(headless: Chromium, server: GameServer, window: tuple[int, int] = (900, 1100),
         **settings: object) -> dict:
    """The page at `window` CSS pixels, its first game started from `settings`; the GameState shown."""
    headless.open("about:blank")
    headless.call("Emulation.setDeviceMetricsOverride", width=window[0], height=window[1],
                  deviceScaleFactor=1, mobile=False)
    headless.call("Page.navigate", url=server.url + ("?" + urlencode(settings) if settings else ""))
    wait_for(headless, "typeof page !== 'undefined' && page.state !== null && !page.busy")
    headless.call("Runtime.evaluate", expression=TWO_FRAMES, awaitPromise=True)
    state = headless.evaluate("page.state")
    assert isinstance(state, dict)
    return state


def screenshot(headless: Chromium) -> np.ndarray:
    data = headless.call("Page.captureScreenshot", format="png")["data"]
    return np.asarray(Image.open(BytesIO(base64.b64decode(data))).convert("RGB"))


def board_box(pixels: np.ndarray) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the board's frame, found by its colour."""
    ys, xs = np.nonzero(np.all(pixels == np.array(FRAME, np.uint8), axis=-1))
    assert len(xs) > 400, "no board frame on the screenshot"
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


@pytest.fixture(autouse=True)
def _back_to_the_browsers_size(request):
    yield
    if "headless" in request.fixturenames:
        request.getfixturevalue("headless").call("Emulation.clearDeviceMetricsOverride")


def test_at_480x800_the_whole_board_fits_and_nothing_scrolls_sideways(headless, server):
    show(headless, server, window=(480, 800), n=12, mode="hard", seed=3, opponent="pvp")
    widths = headless.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert isinstance(widths, list) and widths[0] <= widths[1] == 480
    pixels = screenshot(headless)
    assert pixels.shape[1] == 480
    left, _, right, _ = board_box(pixels)
    assert left > 0 and right < 479  # the frame's both sides are on the page
    assert right - left > 300  # and the board is still a good size


def test_region_borders_are_drawn_between_regions_and_not_inside_them(headless, server):
    state = show(headless, server, n=8, mode="hard", seed=5, opponent="pvp")
    regions, n = state["regions"], state["n"]
    pixels = screenshot(headless)
    left, top, right, _bottom = board_box(pixels)
    inner = 6  # the frame's width (game.css)
    size = (right - left + 1 - 2 * inner) / n
    x0, y0 = left + inner, top + inner
    between = within = 0
    for r, c in itertools.product(range(n), range(n - 1)):
        edge_x = int(round(x0 + (c + 1) * size))  # where cell (r, c) meets the next, give or take a pixel
        y = int(y0 + (r + 0.5) * size)
        line_pixels = sum(pixels[y, x].tolist() == list(REGION_LINE) for x in range(edge_x - 3, edge_x + 4))
        is_line = line_pixels >= 2  # 3 px between regions (2 + 1), blended at most at one edge
        if regions[r][c] != regions[r][c + 1]:
            assert is_line, f"no region border between r{r + 1}c{c + 1} and r{r + 1}c{c + 2}"
            between += 1
        else:
            assert not is_line, f"a region border inside a region at r{r + 1}c{c + 1}"
            within += 1
    assert between and within
    centre = pixels[int(y0 + size / 2), int(x0 + size / 2)]
    assert "#{:02X}{:02X}{:02X}".format(*centre) == state["colours"][regions[0][0]]


def test_the_page_draws_each_region_in_the_colour_the_server_chose(headless, server):
    state = show(headless, server, n=9, mode="easy", seed=6, opponent="pvp")
    pixels = screenshot(headless)
    left, top, right, _ = board_box(pixels)
    size = (right - left + 1 - 12) / 9
    for r, c in itertools.product(range(9), range(9)):
        y, x = int(top + 6 + (r + 0.5) * size), int(left + 6 + (c + 0.2) * size)
        assert "#{:02X}{:02X}{:02X}".format(*pixels[y, x]) == state["colours"][state["regions"][r][c]]


def test_the_plain_address_plays_the_clis_defaults(headless, server):
    state = show(headless, server)
    assert (state["n"], state["mode"]) == (DEFAULT_SIZE, DEFAULT_MODE)
    assert headless.evaluate("document.getElementById('opt-level').value") == DEFAULT_AI
    assert headless.evaluate("page.settings.level") == DEFAULT_AI


def test_the_address_follows_the_new_game_started_from_the_form(headless, server):
    show(headless, server, n=6, mode="easy", seed=4, opponent="ai", first="human", level="greedy")
    headless.evaluate("""(() => {
        document.getElementById('opt-n').value = '7';
        document.querySelector('input[name=mode][value=hard]').checked = true;
        document.getElementById('opt-seed').value = '9';
        document.querySelector('input[name=opponent][value=pvp]').checked = true;
        document.querySelector('#new-game button[type=submit]').click(); })()""")
    wait_for(headless, "page.state && page.state.n === 7 && !page.busy")
    query = parse_qs(urlparse(str(headless.evaluate("location.href"))).query)
    assert query == {"n": ["7"], "mode": ["hard"], "seed": ["9"], "opponent": ["pvp"]}
    headless.evaluate("location.reload()")
    time.sleep(0.3)
    wait_for(headless, "typeof page !== 'undefined' && page.state !== null && !page.busy")
    again = headless.evaluate("page.state")
    assert isinstance(again, dict) and (again["n"], again["mode"], again["seed"]) == (7, "hard", 9)


def test_the_game_over_box_stands_alone_with_the_last_move(headless, server):
    # 4x4, easy, against the AI moving first: the game is over within a few moves.
    show(headless, server, n=4, mode="easy", seed=1, opponent="ai", first="human", level="random")
    for _ in range(8):
        if headless.evaluate("page.state.game_over"):
            break
        headless.evaluate("""(() => { const m = page.state.valid_moves[0];
            document.querySelector(`#board .cell[data-row="${m.row}"][data-col="${m.col}"]`).click(); })()""")
        wait_for(headless, "!page.busy")
    assert headless.evaluate("page.state.game_over")
    headless.call("Runtime.evaluate", expression=TWO_FRAMES, awaitPromise=True)
    over = str(headless.evaluate("document.getElementById('gameover').textContent"))
    assert "wins" in over or "win!" in over
    assert "Last queen:" in over
    assert headless.evaluate("document.getElementById('ai-note').textContent") == ""
    box = headless.evaluate("document.getElementById('gameover').getBoundingClientRect().height")
    assert isinstance(box, (int, float)) and box > 0


def test_cells_name_their_region_by_its_colour_for_screen_readers(headless, server):
    state = show(headless, server, n=7, mode="easy", seed=2, opponent="pvp")
    names = state["colour_names"]
    assert len(names) == 7 and len(set(names)) == 7
    label = str(headless.evaluate("document.querySelector('#board .cell').getAttribute('aria-label')"))
    assert label.startswith(f"Row 1, column 1, the {names[state['regions'][0][0]]} region, ")
