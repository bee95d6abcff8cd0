"""The checks between clicks (`actuator.guard.BoardGuard`) on rendered boards: a desktop stand-in
answers where the window is and hands out grabs of pictures the test draws. What must stop the
clicks stops them, with what changed; what a page does to the cells under the pointer (hover),
to the cells the pointer has left (late repaints) and to a wrong queen's row (red stripes) does
not."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import cast

import numpy as np
import pytest

from queens_autosolve.actuator.errors import BoardChanged, CellChanged, UnsafeToClick
from queens_autosolve.actuator.guard import BoardGuard
from queens_autosolve.capture import DesktopSession
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import Frame, FrameSource, Placement, WindowRecord
from queens_autosolve.vision import read_board
from tests.render import render_board

REGIONS = ["AABBB", "AABBC", "DDBCC", "DEECC", "EEEEC"]
OTHER_REGIONS = ["AAABB", "AAABC", "DDDCC", "DEECC", "EEECC"]
AT = (100, 50)  # where the picture sits on the screen
WINDOW = WindowRecord(7, "Queens - Chromium", Rect(100, 50, 400, 400), ("chromium",), stacking=1)


@dataclass
class StandIn:
    """A desktop whose screen shows `picture` at AT, with `window` where it is now."""

    picture: np.ndarray
    window: WindowRecord | None = WINDOW
    above: list[WindowRecord] = field(default_factory=list)

    def refresh(self, window: WindowRecord) -> WindowRecord | None:
        return self.window

    def placement(self, window: WindowRecord) -> Placement | None:
        if self.window is None:
            return None
        return Placement(self.window.rect, self.window.viewable and not self.window.minimised)

    def windows_above(self, window: WindowRecord) -> list[WindowRecord]:
        return self.above

    def grab(self, rect: Rect, *, source: FrameSource, window: WindowRecord | None = None) -> Frame:
        x, y = rect.left - AT[0], rect.top - AT[1]
        part = self.picture[y : y + rect.height, x : x + rect.width]
        return Frame.from_rgb(np.ascontiguousarray(part), rect, source)


def picture(regions: list[str] = REGIONS, **drawn: object) -> np.ndarray:
    return render_board(regions, page=True, canvas=(400, 400), **drawn)  # type: ignore[arg-type]


def guard_on(desktop: StandIn) -> BoardGuard:
    frame = Frame.from_rgb(desktop.picture, Rect(*AT, 400, 400), FrameSource.WINDOW)
    reading = read_board(frame.rgb)
    board = frame.box_to_screen(reading.box)
    return BoardGuard(cast(DesktopSession, desktop), WINDOW, frame, reading, board)  # what the guard calls


def test_an_unchanged_board_passes_before_every_cell():
    guard = guard_on(StandIn(picture()))
    for done, cell in enumerate([(0, 0), (1, 3), (2, 1)]):
        guard.check(2 * done, 10, None if done == 0 else (0, 0), cell)


@pytest.mark.parametrize(("now", "says"), [
    (replace(WINDOW, rect=Rect(40, 30, 400, 400)), "moved by (-60, -20)"),
    (replace(WINDOW, rect=Rect(100, 50, 380, 400)), "was resized from 400x400 to 380x400"),
    (replace(WINDOW, minimised=True), "was minimised or hidden"),
    (replace(WINDOW, viewable=False), "was minimised or hidden"),
    (None, "was closed"),
])
def test_a_window_changed_after_some_clicks_stops_them_saying_how(now, says):
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    desktop.window = now
    desktop.picture = np.roll(desktop.picture, (-20, -60), axis=(0, 1))  # what shows there now
    stops = f"stopped after 5 of 10 clicks: the window .*{re.escape(says)}.*nothing more"
    with pytest.raises(BoardChanged, match=stops):
        guard.check(5, 10, (0, 0), (1, 3))


def test_the_board_where_it_was_is_clicked_on_whatever_the_window_record_says():
    """After the first click, the pixels are the test: a board still showing where it was read
    gets its clicks (the X server is asked only to name a change)."""
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    desktop.window = None
    guard.check(5, 10, (0, 0), (1, 3))  # no BoardChanged
    with pytest.raises(UnsafeToClick, match="closed before the clicks"):  # before any click: refused
        guard.check(0, 10, None, (0, 0))


def test_a_window_moved_before_the_first_click_is_refused_as_before():
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    desktop.window = replace(WINDOW, rect=Rect(40, 30, 400, 400))
    with pytest.raises(UnsafeToClick, match=r"moved or resized since it was read.*nothing was clicked"):
        guard.check(0, 10, None, (0, 0))


def test_a_new_puzzle_on_the_page_stops_the_clicks_naming_cells():
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    desktop.picture = picture(OTHER_REGIONS)
    stops = r"after 4 of 10 clicks: the page changed under the board \(r\dc\d"
    with pytest.raises(BoardChanged, match=stops):
        guard.check(4, 10, (4, 4), (1, 3))


def test_a_window_over_the_board_is_named():
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    covered = desktop.picture.copy()
    covered[150:260, 150:300] = (250, 250, 250)
    desktop.picture = covered
    desktop.above = [WindowRecord(9, "Reminder", Rect(250, 200, 150, 110), ("xmessage",), stacking=2)]
    with pytest.raises(BoardChanged, match="the window 'Reminder' came over the board"):
        guard.check(3, 10, (0, 0), (4, 4))


def test_hover_on_the_pointers_cell_and_on_cells_it_left_is_no_change():
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    guard.check(0, 10, None, (0, 0))
    desktop.picture = picture(hover=(0, 0))
    assert not np.array_equal(desktop.picture, picture())  # the hover shows in the pixels
    guard.check(2, 10, (0, 0), (1, 3))
    desktop.picture = picture(hover=(0, 0))  # repainted late: (0, 0) still hovered, pointer on (1, 3)
    guard.check(4, 10, (1, 3), (3, 1))


def test_red_conflict_stripes_are_no_change():
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    desktop.picture = picture(states=["Q...Q", ".....", ".....", ".....", "....."],
                              conflicts=[(0, c) for c in range(5)])
    unstriped = picture(states=["Q...Q", ".....", ".....", ".....", "....."])
    assert not np.array_equal(desktop.picture, unstriped)  # the stripes show in the pixels
    guard.check(4, 10, (0, 4), (2, 2))


def test_the_next_cell_showing_another_mark_ends_the_round_with_the_clicks_made():
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    desktop.picture = picture(states=[".....", "...x.", ".....", ".....", "....."])
    with pytest.raises(CellChanged, match="r2c4, the next cell to click, no longer shows") as stop:
        guard.check(3, 10, (0, 0), (1, 3))
    assert stop.value.clicks == 3
    guard.check(3, 10, (0, 0), (2, 1))  # a mark on another cell is no business of this one's


def test_a_dialog_of_the_page_or_a_dimmed_page_stops_the_clicks():
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    board = desktop.picture
    dialog = board.copy()
    dialog[180:300, 120:330] = (255, 255, 255)
    for shown in (dialog, (board * 0.6).astype(np.uint8)):
        desktop.picture = shown
        with pytest.raises(BoardChanged, match="the page changed under the board"):
            guard.check(6, 10, (0, 0), (4, 4))


def test_a_late_hover_on_a_cell_or_two_is_no_change_but_a_dimmed_board_is():
    """A hover the page paints late (the pointer parked off the board, or left it after the
    wheel turned) tints one cell; a page-wide dimmer of the same strength tints them all."""
    desktop = StandIn(picture())
    guard = guard_on(desktop)
    desktop.picture = picture(hover=(4, 0))
    guard.check(2, 10, (0, 4), (2, 2))
    dimmed = (desktop.picture * 0.88).astype(np.uint8)
    desktop.picture = dimmed
    with pytest.raises(BoardChanged, match="the page changed under the board"):
        guard.check(2, 10, (0, 4), (2, 2))


def test_the_next_cell_read_hovered_and_shown_plain_now_is_no_change():
    """Read while the page still showed a hover on the cell (painted late), then repainted: the
    same mark, only lighter, is no change; another mark still is."""
    desktop = StandIn(picture(states=[".....", "...x.", ".....", ".....", "....."], hover=(1, 3)))
    guard = guard_on(desktop)
    desktop.picture = picture(states=[".....", "...x.", ".....", ".....", "....."])
    guard.check(3, 10, (0, 0), (1, 3))
    desktop.picture = picture(states=[".....", "...Q.", ".....", ".....", "....."])
    with pytest.raises(CellChanged):
        guard.check(3, 10, (0, 0), (1, 3))


def test_a_board_whose_cells_are_not_flat_colours_is_still_watched():
    """Rim points count when near their region's colour, not only when equal to it (gradients,
    dithering, a colour-managed screen): a new puzzle under noisy cells still stops the clicks."""
    noise = np.random.default_rng(1).integers(-6, 7, (400, 400, 3))
    desktop = StandIn(np.clip(picture().astype(int) + noise, 0, 255).astype(np.uint8))
    guard = guard_on(desktop)
    assert guard.judged.mean() > 0.9
    guard.check(2, 10, (0, 0), (1, 3))
    desktop.picture = np.clip(picture(OTHER_REGIONS).astype(int) + noise, 0, 255).astype(np.uint8)
    with pytest.raises(BoardChanged, match="the page changed under the board"):
        guard.check(4, 10, (4, 4), (1, 3))
