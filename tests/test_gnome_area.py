"""The area the GNOME desktop casts for the guard (capture.gnome_area.area_around): the board and
a margin the reads after the clicks fit in, within the monitor, in even sizes. Live: the area
cast's pixels against the monitor's, tests/test_e2e_gnome.py."""

from __future__ import annotations

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.gnome_area import area_around

MONITOR = Rect(0, 0, 1920, 1080)


def test_the_area_holds_the_board_and_the_margin_the_reads_after_the_clicks_take():
    board = Rect(619, 225, 507, 505)
    area = area_around(board, MONITOR)
    read_after = board.grown(max(board.width, board.height) // 10 + 4)  # Session.grab_board's margin
    assert area.intersection(read_after) == read_after
    assert area.width % 2 == 0 and area.height % 2 == 0


def test_the_area_of_a_board_at_the_monitors_edge_stays_on_the_monitor():
    area = area_around(Rect(1500, 700, 420, 380), MONITOR)
    assert area.intersection(MONITOR) == area and area.right <= 1920 and area.bottom <= 1080
    assert area.left < 1500 and area.top < 700
