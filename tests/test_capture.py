"""Capture: choosing the game's window (pure logic on window records), image <-> screen mapping,
and, on a real Xvfb with a real Chromium, finding and grabbing the window and the errors."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.parse

import numpy as np
import pytest

from queens_autosolve.capture import (
    CaptureError,
    Desktop,
    Frame,
    FrameSource,
    NoDisplayError,
    NotABrowserError,
    Rect,
    WaylandSessionError,
    WindowMinimisedError,
    WindowNotFoundError,
    WindowRecord,
    choose_window,
    load_image,
    rank_windows,
)
from queens_autosolve.capture.x11_windows import display_name
from tests.live import xmessage

CHROMIUM = ("chromium (/tmp/profile)", "Chromium")


def window(title: str, stacking: int, wm_class: tuple[str, ...] = CHROMIUM, **kw: object) -> WindowRecord:
    return WindowRecord(wid=stacking + 100, title=title, rect=Rect(0, 0, 800, 600), wm_class=wm_class,
                        stacking=stacking, **kw)  # type: ignore[arg-type]


# --- choosing the window -------------------------------------------------------------------


def test_browser_window_titled_queens_is_chosen_over_a_terminal_on_top():
    records = [
        window("Queens | LinkedIn - Chromium", 0),
        window("queens-autosolve --dry-run: Queens", 1, ("xterm", "XTerm")),
    ]
    assert choose_window(records).title == "Queens | LinkedIn - Chromium"


def test_terminal_is_never_chosen_even_when_it_is_the_only_match():
    with pytest.raises(WindowNotFoundError):
        choose_window([window("Queens", 3, ("gnome-terminal-server", "Gnome-terminal"))])


def test_message_box_naming_the_tool_is_never_chosen():
    records = [window("queens-autosolve: Queens solved", 5, ("xmessage", "Xmessage"))]
    assert rank_windows(records) == []


def test_topmost_of_several_browser_windows_wins():
    firefox = window("Queens - Mozilla Firefox", 4, ("Navigator", "firefox"))
    records = [window("Queens - Chromium", 1), firefox]
    assert choose_window(records).stacking == 4


def test_browser_beats_a_non_browser_window_on_top_and_window_role_counts_as_browser():
    records = [
        window("Queens notes", 9, ("gedit", "Gedit")),
        window("Queens", 2, ("someapp", "SomeApp"), role="browser"),
    ]
    assert choose_window(records).title == "Queens"


def test_a_non_browser_window_showing_queens_is_refused_and_says_why():
    viewer = window("Queens - screenshot", 3, ("display", "Display"))
    with pytest.raises(NotABrowserError, match=r"'Queens - screenshot' \(display/Display\).*--any-window"):
        choose_window([viewer])
    assert choose_window([viewer], any_window=True).title == "Queens - screenshot"


def test_a_terminal_is_never_chosen_even_with_any_window():
    term = window("Queens", 3, ("xterm", "XTerm"))
    with pytest.raises(NotABrowserError, match="never clicks into a terminal"):
        choose_window([term], any_window=True)


def test_no_window_message_does_not_recommend_reading_the_whole_screen():
    with pytest.raises(WindowNotFoundError) as info:
        choose_window([window("Inbox - Chromium", 1)])
    assert "--screen" not in str(info.value)


def test_page_about_the_tool_ranks_below_the_game_page():
    records = [window("Queens - Chromium", 1), window("queens-autosolve: Queens solver - GitHub", 8)]
    assert choose_window(records).title == "Queens - Chromium"


def test_window_option_matches_any_title_case_insensitively():
    records = [window("Queens - Chromium", 1), window("My Puzzle Tab - Chromium", 0)]
    assert choose_window(records, "my puzzle").title == "My Puzzle Tab - Chromium"


def test_a_window_title_given_that_matches_two_windows_is_refused_naming_them():
    records = [window("Queens - Chromium", 1), window("Inbox - Chromium", 3),
               window("Notes - Chromium", 2, viewable=False, minimised=True)]
    with pytest.raises(CaptureError, match=r"^--window 'chromium' matches 2 windows: 'Inbox - Chromium', "
                       r"'Queens - Chromium'; give more of the title") as refused:
        choose_window(records, "chromium")
    assert not isinstance(refused.value, WindowNotFoundError)  # found too many, not none
    assert choose_window(records, "queens").title == "Queens - Chromium"
    assert choose_window(records).title == "Queens - Chromium"  # the default title: the top one, as before


def test_minimised_window_is_an_error_saying_restore_it():
    with pytest.raises(WindowMinimisedError, match="minimised; restore it"):
        choose_window([window("Queens - Chromium", 1, viewable=False, minimised=True)])


def test_a_window_on_another_desktop_is_an_error_saying_switch_to_it():
    hidden = window("Queens - Chromium", 1, viewable=False, minimised=True, other_desktop=True)
    with pytest.raises(WindowMinimisedError, match=r"on another desktop .*switch to that desktop"):
        choose_window([hidden])


def test_visible_window_beats_a_minimised_one_on_top():
    records = [window("Queens - Chromium", 1), window("Queens - Chromium", 5, viewable=False, minimised=True)]
    assert choose_window(records).stacking == 1


def test_no_match_lists_the_windows_seen_and_what_to_do():
    with pytest.raises(WindowNotFoundError, match=r"'Inbox - Chromium'.*open the LinkedIn Queens"):
        choose_window([window("Inbox - Chromium", 1)])


# --- image <-> screen ------------------------------------------------------------------------


def test_frame_maps_image_pixels_to_screen_points_with_offset_and_hidpi_scale():
    frame = Frame(np.zeros((200, 300, 4), np.uint8), Rect(1920, 40, 150, 100), FrameSource.WINDOW)
    assert frame.to_screen(0, 0) == (1920, 40)
    assert frame.to_screen(100, 50) == (1970, 65)
    assert frame.to_image(*frame.to_screen(37, 81)) == (37, 81)
    assert frame.scale == 2.0
    assert frame.box_to_screen(Rect(10, 20, 60, 40)) == Rect(1925, 50, 30, 20)


def test_frame_at_fractional_scale_round_trips():
    frame = Frame(raw=np.zeros((150, 150, 4), np.uint8), rect=Rect(10, 20, 100, 100))
    assert frame.to_screen(15, 30) == (20, 40)
    assert frame.scale == 1.5


def test_a_grab_of_a_fractionally_scaled_output_keeps_the_outputs_scale_and_its_pixel_grid():
    """sway at 1.5: a grab of (11, 21, 101, 101) points is the output's pixels 17..168 and
    32..183 (151 of them, rounded by the compositor): the scale is the output's, not 151 / 101,
    and two grabs of different boxes agree on which screen pixel is which."""
    board = Frame(np.zeros((151, 151, 4), np.uint8), Rect(11, 21, 101, 101), FrameSource.SCREEN,
                  output_scale=1.5)
    window = Frame(np.zeros((300, 300, 4), np.uint8), Rect(0, 0, 200, 200), FrameSource.SCREEN,
                   output_scale=1.5)
    assert board.scale == window.scale == 1.5
    assert board.to_image(*window.to_screen(0, 0)) == (-17, -32)
    assert window.to_image(*board.to_screen(0, 0)) == (17, 32)
    assert board.to_screen(*board.to_image(50, 60)) == (50, 60)


def test_rect_clipping_to_the_screen():
    screen = Rect(0, 0, 1920, 1080)
    assert Rect(-50, 1000, 200, 200).intersection(screen) == Rect(0, 1000, 150, 80)
    assert Rect(2000, 0, 100, 100).intersection(screen).empty


def test_load_image_reads_rgb_and_cannot_be_clicked(tmp_path):
    from PIL import Image

    path = tmp_path / "shot.png"
    Image.new("RGB", (30, 20), (10, 200, 30)).save(path)
    frame = load_image(path)
    assert frame.rgb.shape == (20, 30, 3) and tuple(frame.rgb[5, 5]) == (10, 200, 30)
    assert not frame.on_screen


# --- no display, Wayland -------------------------------------------------------------------


def test_no_display_says_what_to_do():
    with pytest.raises(NoDisplayError, match="DISPLAY is not set"):
        display_name({})


def test_wayland_session_without_x_is_named():
    with pytest.raises(WaylandSessionError, match="Wayland"):
        display_name({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"})


def test_unreachable_display_is_a_no_display_error():
    with pytest.raises(NoDisplayError, match="cannot connect"):
        Desktop(":4242")


@pytest.mark.parametrize(
    ("env", "words"), [({}, "DISPLAY is not set"), ({"WAYLAND_DISPLAY": "wayland-0"}, "Wayland")]
)
def test_cli_without_x_exits_2_with_one_line(env, words):
    session = ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE")
    clean = {k: v for k, v in os.environ.items() if k not in session}
    done = subprocess.run([sys.executable, "-m", "queens_autosolve", "--dry-run"], env={**clean, **env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


# --- live: real Xvfb, real Chromium, real X11 windows --------------------------------------

BLUE_PAGE = "data:text/html," + urllib.parse.quote(
    "<title>Queens</title><body style='margin:0;background:#3366cc'><h1>Queens</h1></body>"
)


@pytest.fixture(scope="module")
def blue_page(shared_browser):
    """The shared Chromium showing a plain blue page titled Queens, for this module's tests."""
    from tests.live import wait_for_window

    shared_browser.open(BLUE_PAGE)
    try:
        wait_for_window(shared_browser.display, "Queens - Chromium")
        yield shared_browser
    finally:
        shared_browser.open("about:blank")  # no stale "Queens" window left for the modules after this


def test_finds_chromium_not_the_message_box_naming_the_tool_on_top(blue_page, xvfb):
    with xmessage(xvfb.display, "queens-autosolve: Queens"), Desktop(xvfb.display) as desktop:
        titles = [r.title for r in desktop.windows("Queens") if r.viewable]
        assert "queens-autosolve: Queens" in titles  # the decoy is really there, above the browser
        found = desktop.find_window()
    assert found.title == "Queens - Chromium" and found.is_browser
    assert found.rect == Rect(0, 0, 1200, 1040)


def test_window_option_refuses_a_non_browser_window_unless_any_window(blue_page, xvfb):
    with xmessage(xvfb.display, "Practice notes"), Desktop(xvfb.display) as desktop:
        with pytest.raises(NotABrowserError, match=r"not a web browser.*--any-window"):
            desktop.find_window("practice notes")
        assert desktop.find_window("practice notes", any_window=True).title == "Practice notes"
        assert desktop.find_window().title == "Queens - Chromium"


def test_grab_window_gives_rgb_pixels_where_the_window_is(blue_page, xvfb):
    with Desktop(xvfb.display) as desktop:
        win = desktop.find_window()
        frame = desktop.grab_window(win)
    assert frame.rgb.shape == (1040, 1200, 3)
    assert (frame.left, frame.top, frame.scale) == (0, 0, 1.0)
    assert frame.monitor is not None and frame.monitor.rect == Rect(0, 0, 1920, 1080)
    # The page body is #3366cc: red 0x33, green 0x66, blue 0xcc, in that order.
    assert tuple(frame.rgb[1000, 600]) == (0x33, 0x66, 0xCC)


def test_grab_screen_covers_the_display(blue_page, xvfb):
    with Desktop(xvfb.display) as desktop:
        frame = desktop.grab_screen()
    assert frame.rgb.shape == (1080, 1920, 3) and frame.window is None
    assert tuple(frame.rgb[1000, 600]) == (0x33, 0x66, 0xCC)


def test_no_matching_window_lists_the_titles_on_screen(blue_page, xvfb):
    with Desktop(xvfb.display) as desktop, pytest.raises(WindowNotFoundError, match="'Queens - Chromium'"):
        desktop.find_window("Sudoku")


def test_minimised_window_is_reported_not_grabbed(xvfb):
    from Xlib import X, Xatom
    from Xlib.display import Display

    display = Display(xvfb.display)
    try:
        root = display.screen().root
        win = root.create_window(0, 0, 300, 200, 0, X.CopyFromParent)
        win.set_wm_name("Hidden Queens - Chromium")
        win.set_wm_class("chromium", "Chromium")
        win.set_wm_state(state=3, icon=0)  # IconicState: what a window manager sets on minimising
        hidden = display.intern_atom("_NET_WM_STATE_HIDDEN")
        win.change_property(display.intern_atom("_NET_WM_STATE"), Xatom.ATOM, 32, [hidden])
        display.sync()
        with Desktop(xvfb.display) as desktop, pytest.raises(WindowMinimisedError):
            desktop.find_window("Hidden Queens")
    finally:
        display.close()
