"""The practice page's options (what real Queens pages do that a tool must survive) and a practice
server that bad requests cannot hurt.

The first part talks HTTP to a real server on loopback; the second shows each option on screen in
one real Chromium on Xvfb (the conftest.py fixtures) and clicks it with pyautogui, as the tool does;
the last, the double click, in Firefox too.
"""

from __future__ import annotations

import http.client
import json
import socket
import struct
import threading
import time

import numpy as np
import pytest

from queens_autosolve.autosolve.cli import main
from queens_autosolve.pages.browser import Chromium
from queens_autosolve.pages.practice import PageOptions, PageState, PracticeServer
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.search import search
from tests.checks import present
from tests.live import (
    FIVE,
    FIVE_ANSWER,
    PageBrowser,
    board_box,
    cell_centre,
    clicker,
    grab,
    one_more_press_counted,
    palette_mask,
    practice_page,
    shown,
    wait_painted,
    wait_until,
)

EMPTY_FIVE = ["....."] * 5


def report_body(seq: object = 1, **extra: object) -> dict[str, object]:
    return {"session": "s1", "seq": seq, "states": EMPTY_FIVE, "solved": False, "moves": 1, **extra}


def post(
    server: PracticeServer, body: bytes | str, headers: dict[str, str] | None = None
) -> tuple[int, dict]:
    """POST raw `body` to /api/state with `headers` (default: JSON, no Origin)."""
    data = body.encode() if isinstance(body, str) else body
    if headers is None:
        headers = {"Content-Type": "application/json"}
    connection = http.client.HTTPConnection(server.host, server.port, timeout=5)
    try:
        connection.request("POST", "/api/state", data, headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


# --- options: checked, embedded in the page, reported back -----------------------------------


def test_options_default_to_the_real_page_and_are_embedded_in_the_page():
    with PracticeServer(FIVE) as default, PracticeServer(
        FIVE, win_screen="replace", win_delay_ms=600, drop_gap_ms=80, busy_ms=40, thin_borders=True,
        zoom=1.5, buttons=True, input_mode="click", tooltip_ms=500, letters=True, strict_clicks=True,
        start_screen=True,
    ) as custom:
        assert default.puzzle_json()["options"] == PageOptions().to_json()
        assert PageOptions().win_screen == "dialog"  # as on the real page
        page = custom.render_index().decode()
    expected = {"win_screen": "replace", "win_delay_ms": 600, "drop_gap_ms": 80, "busy_ms": 40,
                "thin_borders": True, "zoom": 1.5, "buttons": True, "input_mode": "click", "tooltip_ms": 500,
                "letters": True, "strict_clicks": True, "start_screen": True}
    embedded = json.loads(page.split('type="application/json">', 1)[1].split("</script>", 1)[0])
    assert embedded["options"] == expected


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("win_screen", "popup", "win screen 'popup'"),
        ("input_mode", "touch", "input mode"),
        ("zoom", 7, "zoom 7"),
        ("zoom", 0.25, "0.5 to 2"),
        ("zoom", float("nan"), "zoom nan"),
        ("win_delay_ms", -1, "win delay -1"),
        ("drop_gap_ms", 1.5, "drop gap 1.5"),
        ("busy_ms", -5, "busy time -5"),
        ("tooltip_ms", -2, "tooltip delay -2"),
        ("thin_borders", "yes", "thin_borders 'yes'"),
        ("letters", 1, "letters 1"),
        ("strict_clicks", "on", "strict_clicks 'on'"),
    ],
)
def test_bad_options_are_refused_in_one_line(option, value, message):
    with pytest.raises(QueensError, match=message) as refused:
        PracticeServer(FIVE, **{option: value})
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--zoom", "7"], "'7' is not a zoom factor from 0.5 to 2"), (["--zoom", "nan"], "--zoom"),
     (["--size", "0"], "--size 0"), (["--win-screen", "modal"], "win screen")],
)
def test_the_command_refuses_bad_options_and_size_zero_with_exit_2(args, message, capsys):
    status = main(["practice", "--no-open", "--seed", "1", *args])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err


def test_the_page_reports_dropped_presses_and_the_win_screen():
    with PracticeServer(FIVE) as server:
        status, _ = post(server, json.dumps(report_body(dropped=3, win_shown=True)))
        state = server.state()
        _, _ = post(server, json.dumps(report_body(2, win_shown="yes")))  # not True: not shown
        later = server.state()
    assert status == 200 and state.dropped == 3 and state.win_shown is True
    assert later.win_shown is False and server.state().to_json()["dropped"] == 0


# --- hardening: bad reports, stalled and reset connections, other origins --------------------


@pytest.mark.parametrize(
    "body",
    [
        '{"session": "s1", "seq": 1e999, "states": ["....."]}',
        '{"session": "s1", "seq": Infinity, "states": []}',
        '{"session": "s1", "seq": NaN}',
        json.dumps(report_body(10**400)),
        json.dumps(report_body(1, moves=-1e308)),
        "[" * 30_000 + "]" * 30_000,
        '{"a": ' * 20_000 + "1" + "}" * 20_000,
        b"\xff\xfe{}",
    ],
    ids=["1e999", "Infinity", "NaN", "huge-int", "huge-moves", "deep-list", "deep-object", "not-utf8"],
)
def test_reports_the_parser_cannot_take_are_a_400_not_a_crash(body, capsys):
    with PracticeServer(FIVE) as server:
        status, answer = post(server, body)
        good, _ = post(server, json.dumps(report_body()))  # and the server still serves
    assert status == 400 and "error" in answer
    assert good == 200
    assert "Traceback" not in capsys.readouterr().err


def test_a_client_that_resets_the_connection_leaves_no_traceback(capsys):
    with PracticeServer(FIVE) as server:
        serving = threading.active_count()  # with the server's own thread
        for _ in range(3):
            client = socket.create_connection((server.host, server.port), timeout=5)
            client.sendall(b"POST /api/state HTTP/1.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 500\r\n\r\n{\"seq\": 1")
            wait_until(lambda: threading.active_count() > serving, what="a handler for the connection")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.close()  # SO_LINGER 0: the close is a reset (RST), not a goodbye
            # the handler has met the reset (and said whatever it says about it) once it ends
            wait_until(lambda: threading.active_count() == serving, what="the handler to end")
        good, _ = post(server, json.dumps(report_body()))
    assert good == 200
    assert capsys.readouterr().err == ""


def test_stalled_connections_time_out_and_hold_at_most_the_connection_limit():
    server = PracticeServer(FIVE)
    server.request_timeout, server.max_connections = 1.0, 4
    threads_before = threading.active_count()
    stalled: list[socket.socket] = []
    with server:
        try:
            for _ in range(12):  # connect and say nothing
                stalled.append(socket.create_connection((server.host, server.port), timeout=5))
            refused = [_read_all(sock) for sock in stalled[4:]]  # answered: all 12 were taken in
            threads_held = threading.active_count() - threads_before - 1  # - the serving thread
            dropped_by_server = [_read_all(sock) for sock in stalled[:4]]  # closed at the time limit
            status, _ = post(server, json.dumps(report_body()))
        finally:
            for sock in stalled:
                sock.close()
    assert threads_held <= 4
    assert all(answer.startswith(b"HTTP/1.0 503") for answer in refused)
    assert not any(answer.startswith(b"HTTP/1.0 200") for answer in dropped_by_server)
    assert status == 200


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection; TimeoutError when it keeps
    it open for 3 s."""
    sock.settimeout(3)
    chunks = []
    try:
        while chunk := sock.recv(4096):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Content-Type": "application/json", "Origin": "https://evil.example"}, 403),
        ({"Content-Type": "application/json", "Origin": "null"}, 403),
        ({"Content-Type": "application/json", "Origin": "http://127.0.0.1:1"}, 403),  # another port
        ({"Content-Type": "text/plain"}, 415),  # what a cross-site form or no-cors fetch can send
        ({"Content-Type": "application/x-www-form-urlencoded", "Origin": "https://evil.example"}, 403),
        ({}, 415),
        ({"Content-Type": "application/json; charset=utf-8", "Origin": "http://localhost:{port}"}, 200),
        ({"Content-Type": "application/json", "Origin": "http://127.0.0.1:{port}"}, 200),
        ({"Content-Type": "application/json"}, 200),  # no Origin: a test or curl on this machine
    ],
)
def test_only_json_from_the_page_itself_may_write_the_state(headers, status):
    with PracticeServer(FIVE) as server:
        filled = {key: value.format(port=server.port) for key, value in headers.items()}
        answer, _ = post(server, json.dumps(report_body(moves=7)), filled)
        written = server.state().reports == 1
    assert answer == status
    assert written == (status == 200)


# --- the options on screen: one Chromium on Xvfb, clicked with pyautogui -----------------------

def press_answer(browser, server: PracticeServer, puzzle_answer: list[tuple[int, int]], n: int) -> None:
    pixels, at = grab(browser)
    box = board_box(pixels)
    assert box is not None
    gui = clicker(browser)
    for cell in puzzle_answer:
        gui.click(*cell_centre(present(box), n, cell, at), clicks=2, interval=0.05)
    server.wait_for(solved=True, timeout=10)


def test_the_win_dialog_covers_the_board_cells_and_closing_it_shows_the_board(browser):
    with practice_page(browser, FIVE, win_screen="dialog", win_delay_ms=300) as server:
        pixels, at = grab(browser)
        box = board_box(pixels)
        assert box is not None
        x, y, w, h = box
        before = palette_mask(pixels[y : y + h, x : x + w]).mean()
        press_answer(browser, server, FIVE_ANSWER, 5)
        assert not server.state().win_shown  # the page animates first (win_delay_ms)
        server.wait_for(lambda s: s.win_shown, timeout=5)
        wait_painted(browser)  # the page reports the dialog as soon as it adds it, before its paint
        covered = palette_mask(grab(browser)[0][y : y + h, x : x + w]).mean()
        # the close button: 8 px in from the card's corner, the card 6% in from the board's
        gui = clicker(browser)
        gui.click(at[0] + x + int(w * 0.94) - 24, at[1] + y + int(h * 0.06) + 24)
        closed = server.wait_for(lambda s: not s.win_shown, timeout=5)
        wait_painted(browser)
        again = palette_mask(grab(browser)[0][y : y + h, x : x + w]).mean()
    assert before > 0.7  # the board: region colours almost everywhere
    assert covered < 0.05  # the card and the dimmed backdrop: no region colour left
    assert closed.solved and again > 0.6


def test_replace_hides_the_board_and_none_leaves_it(browser):
    seen = {}
    for kind in ("replace", "none"):
        with practice_page(browser, FIVE, win_screen=kind) as server:
            pixels, _ = grab(browser)
            x, y, w, h = present(board_box(pixels))
            press_answer(browser, server, FIVE_ANSWER, 5)
            if kind == "replace":
                server.wait_for(lambda s: s.win_shown, timeout=5)
            wait_painted(browser)
            board_colour = palette_mask(grab(browser)[0][y : y + h, x : x + w]).mean()
            seen[kind] = (server.state().win_shown, board_colour)
    assert seen["replace"][0] and seen["replace"][1] < 0.05
    assert not seen["none"][0] and seen["none"][1] > 0.6


def double_click_then_press(browser: PageBrowser, input_mode: str) -> PageState:
    """Show FIVE with `input_mode`, double-click (2, 2) with no gap, press (0, 0) once; the page's
    state once that press shows (a third press on (2, 2), the dblclick taken as one more, would
    have come before it)."""
    with practice_page(browser, FIVE, input_mode=input_mode) as server:
        pixels, at = grab(browser)
        box = board_box(pixels)
        gui = clicker(browser)
        gui.click(*cell_centre(present(box), 5, (2, 2), at), clicks=2, interval=0)
        return one_more_press_counted(gui, server, (0, 0), cell_centre(present(box), 5, (0, 0), at))


@pytest.mark.parametrize("input_mode", ["pointer", "click"])
def test_two_clicks_zero_ms_apart_on_one_cell_leave_a_queen(browser, input_mode):
    state = double_click_then_press(browser, input_mode)
    assert state.moves == 3 and state.states[2][2] == "Q" and state.dropped == 0


def test_a_busy_page_drops_a_second_quick_press(browser):
    with practice_page(browser, FIVE, drop_gap_ms=250) as server:
        pixels, at = grab(browser)
        gui = clicker(browser)
        gui.click(*cell_centre(present(board_box(pixels)), 5, (2, 2), at), clicks=2, interval=0)
        quick = server.wait_for(lambda s: s.dropped == 1, timeout=5)
        time.sleep(0.3)  # not a wait: the input itself, a press more than drop_gap_ms after the last
        gui.click(*cell_centre(present(board_box(pixels)), 5, (2, 2), at))
        slow = server.wait_for(lambda s: s.moves == 2, timeout=5)
    assert quick.states[2][2] == "x" and quick.moves == 1
    assert slow.states[2][2] == "Q" and slow.dropped == 1


def test_a_slow_page_takes_each_press_but_shows_them_only_once_it_is_done(browser):
    with practice_page(browser, FIVE, busy_ms=300) as server:
        pixels, at = grab(browser)
        box = board_box(pixels)
        gui = clicker(browser)
        started = time.monotonic()
        for cell in ((0, 0), (2, 2), (4, 4)):
            gui.click(*cell_centre(present(box), 5, cell, at))
        state = server.wait_for(lambda s: s.moves == 3, timeout=10)
        took = time.monotonic() - started
    assert [state.states[i][i] for i in (0, 2, 4)] == ["x", "x", "x"] and state.dropped == 0
    assert took >= 0.9  # three presses, 300 ms of work each


def _line_widths(pixels: np.ndarray, box: tuple[int, int, int, int]) -> list[int]:
    """Widths of the dark runs along the board's middle row, inside its frame."""
    x, y, w, h = box
    row = pixels[y + h // 2 + 3, x : x + w].astype(int).sum(axis=1)  # off any line crossing
    # Region borders: black (thick) or 70% black (thin), sums below 240; cell lines are 35% black
    # over a region colour, sums above 300.
    dark = row < 260
    edges = np.diff(np.concatenate([[0], dark.astype(int), [0]]))
    return list(np.nonzero(edges == -1)[0] - np.nonzero(edges == 1)[0])


def test_thin_borders_are_one_pixel(browser):
    widths = {}
    for thin in (False, True):
        with shown(browser, FIVE, thin_borders=thin):
            pixels, _ = grab(browser)
            widths[thin] = _line_widths(pixels, present(board_box(pixels)))
    assert widths[False] and set(widths[False]) == {3}
    assert widths[True] and set(widths[True]) == {1}


def test_buttons_sit_right_under_the_board_about_a_cell_in_size(browser):
    found = {}
    for buttons in (False, True):
        with shown(browser, FIVE, buttons=buttons):
            pixels, _ = grab(browser)
            x, y, w, h = present(board_box(pixels))
            below = pixels[y + h + 2 : y + h + 60, x - 40 : x + w + 40].astype(int)
            # columns with a tall run of the buttons' grey (anti-aliased text has a pixel or two)
            grey = (np.abs(below - (0xE6, 0xE6, 0xE6)).sum(axis=2) < 6).sum(axis=0) >= 12
            edges = np.diff(np.concatenate([[0], grey.astype(int), [0]]))
            runs = np.nonzero(edges == -1)[0] - np.nonzero(edges == 1)[0]
            found[buttons] = [int(width) for width in runs if width > 4]  # not an edge's anti-aliasing
    assert found[False] == []
    assert len(found[True]) == 5 and all(28 <= width <= 36 for width in found[True])


def test_zoom_scales_the_board_as_browser_zoom_does(browser):
    sizes = {}
    for zoom in (0.5, 1.0, 1.5):
        with shown(browser, FIVE, zoom=zoom):
            sizes[zoom] = present(board_box(grab(browser)[0]))[2]
    # 5 cells of 56 CSS px (the region colours, inside the frame): 280 px at 100%.
    assert sizes[1.0] == 280
    assert sizes[0.5] == pytest.approx(140, abs=2) and sizes[1.5] == pytest.approx(420, abs=2)


# --- the same in Firefox ---------------------------------------------------------------------


@pytest.mark.parametrize("input_mode", ["pointer", "click"])
def test_in_firefox_two_clicks_zero_ms_apart_leave_a_queen(bare_firefox, input_mode):
    """In Firefox as in Chromium, a double click with no gap leaves a queen. One Firefox serves
    both input modes, on a display with no window manager (see `bare_firefox`)."""
    state = double_click_then_press(bare_firefox, input_mode)
    assert state.moves == 3 and state.states[2][2] == "Q" and state.dropped == 0


# --- issue 30: strict clicks, region letters, LinkedIn's win dialog over a big board ---------

PRESS = """(() => {{
  const cell = document.querySelector('#board .cell[data-index="{index}"]');
  const init = {{bubbles: true, button: 0, pointerId: 1}};
  const send = (type) => cell.dispatchEvent(new PointerEvent(type, init));
  for (const type of {types}) send(type);
  return true;
}})()"""


def send_pointer(browser: Chromium, index: int, *types: str) -> None:
    """Pointer events, in this order, on cell `index` (a page that does not check isTrusted)."""
    browser.evaluate(PRESS.format(index=index, types=json.dumps(list(types))))


def test_strict_clicks_drop_a_press_whose_cell_changed_between_its_pointerdown_and_pointerup(browser):
    with practice_page(browser, FIVE, strict_clicks=True) as server:
        send_pointer(browser, 12, "pointerdown", "pointerup", "pointerdown", "pointerup")  # in order
        in_order = server.wait_for(lambda s: s.moves == 2, timeout=5)
        send_pointer(browser, 0, "pointerdown", "pointerdown", "pointerup", "pointerup")  # interleaved
        interleaved = server.wait_for(lambda s: s.dropped == 1, timeout=5)
    assert in_order.states[2][2] == "Q" and in_order.dropped == 0
    assert interleaved.states[0][0] == "x" and interleaved.moves == 3  # the pair's second press lost


def test_letters_show_each_empty_cells_region_letter_and_a_mark_takes_its_place(browser):
    with practice_page(browser, FIVE, letters=True, whole_board=False) as server:
        shown = browser.evaluate("[...document.querySelectorAll('#board .letter')].map(e => "
                                 "getComputedStyle(e).display === 'none' ? '' : e.textContent).join('')")
        send_pointer(browser, 0, "pointerdown", "pointerup")
        server.wait_for(lambda s: s.moves == 1, timeout=5)
        after = browser.evaluate("getComputedStyle(document.querySelector('#board .letter')).display")
    assert shown == "".join(chr(65 + region) for row in FIVE.regions for region in row)
    assert after == "none"


def test_the_card_win_dialog_has_its_edges_through_rows_and_columns_of_a_15x15_board(browser):
    puzzle = generate_puzzle(15, rng=1)
    answer = present(search(puzzle).solution).queens
    with practice_page(browser, puzzle, win_screen="card") as server:
        for r, c in answer:
            send_pointer(browser, r * 15 + c, "pointerdown", "pointerup", "pointerdown", "pointerup")
        server.wait_for(lambda s: s.solved and s.win_shown, timeout=5)
        edges = browser.evaluate("""(() => {
            const card = document.getElementById('win').getBoundingClientRect();
            const cell = document.querySelector('#board .cell').getBoundingClientRect();
            const backdrop = getComputedStyle(document.getElementById('backdrop')).display;
            return [(card.top - cell.top) / cell.height, (card.bottom - cell.top) / cell.height,
                    (card.left - cell.left) / cell.width, (card.right - cell.left) / cell.width, backdrop];
        })()""")
    top, bottom, left, right, backdrop = edges  # in cells from the board's first cell
    for edge in (top, bottom, left, right):
        assert 0.3 < edge % 1 < 0.7, edges  # through the middle of a row or column
    assert 3 < top < bottom < 12 and 1 < left < right < 14 and backdrop == "none", edges
