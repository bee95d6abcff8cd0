"""The board on the screen: the window's pixels, the board read from them or why none can be
(cut off, covered, missing: each named with what the user can do), and --scroll's wheel turns
until the whole board shows. `pipeline` runs its stages on these."""

from __future__ import annotations

import time

import numpy as np

from queens_autosolve.actuator.errors import ClickAborted, UnsafeToClick
from queens_autosolve.capture import BoardNotVisibleError, DesktopSession, Frame, Rect, WindowRecord
from queens_autosolve.capture.models import MONITOR_ROLE
from queens_autosolve.vision import (
    BoardCutOff,
    BoardNotFound,
    BoardReading,
    RegionsUnreadable,
    TwoBoards,
    read_board,
)
from queens_autosolve.vision.frame import SCROLL
from queens_autosolve.vision.locate import VisibleCells, visible_cells
from queens_autosolve.vision.read import read_picture
from queens_autosolve.vision.reading import GridNotSquare
from queens_autosolve.vision.shades import shades_of

EDGE_MARGIN = 2  # px: a board closer than this to the edge of what was grabbed may be cut
SCROLL_STEPS = 12  # wheel steps --scroll tries before giving up
# s a page gets to show a wheel notch, and to come to rest after it: a busy renderer draws late
SCROLL_RESPONSE, SCROLL_REST_CAP = 2.0, 3.0
SCROLL_QUIET = 0.1  # s a scrolled page must at least hold still to be at rest
# s a page gets to repaint the cells the pointer left (its hover tint, its tooltip) when it shows
# no change there sooner: a page with no hover effect costs this once, when the pointer was on it
HOVER_CLEARS = 0.3
HOVER_POLL = 0.015  # s between grabs while waiting for it
HOVER_STILL = 2  # grabs showing the same there after it changed: the page has done repainting
NO_BOARD_HINT = (
    "press Start or close the tutorial, bring the Queens tab to the front and scroll the whole "
    "board into view"
)


def grab(desktop: DesktopSession, window: WindowRecord | None) -> Frame:
    """The window's pixels (or the whole screen's when `window` is None)."""
    return desktop.grab_screen() if window is None else desktop.grab_window(window)


def read(frame: Frame) -> BoardReading:
    """The board in `frame`. On screen, a board that is missing, cut off or runs to the edge of
    what was grabbed is a BoardNotVisibleError naming the cause and what to do; only a picture
    file may show a board cropped tightly inside its frame (the user can scroll a live one)."""
    try:
        reading = read_board(frame.rgb) if frame.on_screen else read_picture(frame)
    except BoardNotFound as exc:
        if not frame.on_screen:
            raise
        edges = exc.edges if isinstance(exc, BoardCutOff) else ()
        raise not_visible(frame, exc, edges, seen=str(exc)) from None
    if frame.on_screen:
        edges = edges_touched(reading.box, frame)
        if edges:
            cut = BoardCutOff(f"the board reaches the {' and '.join(edges)} edge of the picture", edges)
            raise not_visible(frame, cut, edges)
    return reading


def after_the_pointer_left(
    desktop: DesktopSession, window: WindowRecord | None, before: Frame, around: Rect
) -> Frame:
    """A grab taken once the page has repainted `around` (screen points: the cells about where
    the pointer was, with room for a tooltip) since `before`, the grab with the pointer there:
    it has changed there and then held still for HOVER_STILL grabs more, or HOVER_CLEARS seconds
    have passed (a page may paint the hover late, then take it away: two changes).
    A hover tint or a tooltip read as part of the board makes the reading uncertain (the page
    repaints a cell the pointer left some frames later, not at once)."""
    area = around.intersection(before.rect)
    deadline = time.monotonic() + (0.0 if area.empty else HOVER_CLEARS)
    first = _pixels_at(before, area)
    last: np.ndarray | None = None
    repainted, still = False, 0
    while time.monotonic() < deadline:
        # only the cells about the pointer are grabbed while waiting; the window once, at the end
        now = desktop.grab(area, source=before.source, window=window).raw
        still = still + 1 if last is not None and np.array_equal(now, last) else 0
        if repainted and still >= HOVER_STILL:
            break
        repainted = repainted or not np.array_equal(now, first)
        last = now.copy()
        time.sleep(HOVER_POLL)
    return grab(desktop, window)


def _pixels_at(frame: Frame, area: Rect) -> np.ndarray:
    """The pixels of `frame` at screen area `area` (inside the frame)."""
    left, top = frame.to_image(area.left, area.top)
    right, bottom = frame.to_image(area.right, area.bottom)
    return frame.raw[int(top) : int(bottom), int(left) : int(right)]


def board_on_screen(frame: Frame, reading: BoardReading) -> Rect:
    """The board's box in screen points."""
    return frame.box_to_screen(reading.box)


def edges_touched(box: Rect, frame: Frame) -> tuple[str, ...]:
    """The edges of the frame that the board box (image pixels) comes within EDGE_MARGIN pixels of."""
    return box.edges_near(frame.width, frame.height, EDGE_MARGIN)


def not_visible(
    frame: Frame, exc: BoardNotFound, edges: tuple[str, ...] = (), seen: str = ""
) -> BoardNotVisibleError:
    """Why no board can be read in a live frame, and what the user can do about it."""
    reason, advice = _why_not_visible(frame, exc)
    return BoardNotVisibleError(reason, advice, edges, seen=seen)


def shown_in(frame: Frame) -> str:
    """What the frame shows, for a message: "the window 'TITLE'", "the GNOME monitor NAME" or "the
    output NAME" (the record there stands for a monitor, titled so) or "the screen"."""
    if frame.window is None:
        return "the screen"
    if frame.window.role == MONITOR_ROLE:
        return frame.window.title
    return f"the window {frame.window.title!r}"


def _why_not_visible(frame: Frame, exc: BoardNotFound) -> tuple[str, str]:
    where = shown_in(frame)
    onto_screen = "move the window fully onto one screen"
    if isinstance(exc, BoardCutOff) and exc.edges:
        off_monitor = _monitor_cuts(frame, _monitor_cells(frame))
        screen_cut = [edge for edge in exc.edges if edge in frame.clipped or edge in off_monitor]
        if screen_cut:
            return (f"the board in {where} runs past the {' and '.join(screen_cut)} edge of the screen "
                    "(the window is partly off it, or on another monitor)", onto_screen)
        return f"the board is cut off by {where}: {cut_advice(exc)}", ""
    if frame.clipped:
        return (f"{where} runs past the {' and '.join(frame.clipped)} edge of the screen and no whole "
                f"board shows in the part on screen ({exc})", onto_screen)
    if isinstance(exc, TwoBoards):
        return f"{where} shows more than one board ({exc})", ""
    if isinstance(exc, GridNotSquare):  # fewer rows than columns, each side closed by a line: the
        # rest under a toolbar or a page's header, which ends in a line as a frame does
        return (f"{where} shows only part of a board ({exc}): the rest is hidden, under a toolbar or the "
                "page's header, or past the window's edge",
                "scroll the whole board into view (or, if it all shows, set the page zoom to 100% with "
                "Ctrl+0) and run again")
    if isinstance(exc, RegionsUnreadable):
        return (f"{where} shows a board whose regions cannot be read ({exc})",
                "set the page zoom to 100% (Ctrl+0) and run again")
    hint = NO_BOARD_HINT
    if frame.window is not None and frame.window.role == MONITOR_ROLE:
        # no window list (GNOME, wlroots without sway): where the browser is, nothing says
        hint += "; the tool reads only this monitor: if the browser is on another, move it here " \
                "(on GNOME: Super+Shift+arrow), and move any window off the board"
    return f"{where} shows no Queens board ({exc}); {hint}", ""


def other_monitors(desktop: DesktopSession, window: WindowRecord | None) -> list[WindowRecord]:
    """Where `window` stands for a monitor (a desktop that lists no windows: a wlroots compositor
    without sway's IPC, GNOME), the records of the other monitors it can read, each found by
    asking `window_at` for its monitor's middle (GNOME answers with the one monitor it casts:
    none); else none."""
    if window is None or window.role != MONITOR_ROLE:
        return []
    found: list[WindowRecord] = []
    for monitor in desktop.monitors()[1:]:  # 0 is all of them
        rect = monitor.rect
        record = desktop.window_at(rect.left + rect.width / 2, rect.top + rect.height / 2)
        if record is not None and record.role == MONITOR_ROLE and record.wid != window.wid \
                and record not in found:
            found.append(record)
    return found


def no_board_on_any(windows: list[WindowRecord]) -> BoardNotVisibleError:
    """No monitor of `windows` (records that stand for monitors) shows a board."""
    names = ", ".join(window.title for window in windows)
    return BoardNotVisibleError(f"no monitor shows a Queens board ({names} read)",
                                f"{NO_BOARD_HINT}, and move any window off the board")


def _monitor_cells(frame: Frame) -> VisibleCells | None:
    """The board's cells that show in a frame of a whole monitor (a record standing for one: no
    window list), found once for every question asked of them; None in a window's frame."""
    if frame.window is None or frame.window.role != MONITOR_ROLE:
        return None
    return visible_cells(shades_of(frame.rgb))


def _monitor_cuts(frame: Frame, cells: VisibleCells | None) -> tuple[str, ...]:
    """The left and right edges of a monitor's frame that the board's visible `cells` reach
    (within a cell: a cut cell is no square to see): there the monitor, not the browser window,
    cuts the board (it runs onto another monitor or off the screen), and scrolling would not
    help. Not the top or bottom: a maximised browser's page ends at the monitor's bottom, where
    scrolling is the cure."""
    if cells is None:
        return ()
    near = cells.box.edges_near(frame.width, frame.height, round(cells.cell) + EDGE_MARGIN)
    return tuple(edge for edge in near if edge in ("left", "right"))


def cut_advice(exc: BoardCutOff) -> str:
    """Which edge cuts the board, about how much is hidden, and how to bring it into view (no
    scrolling does when two opposite edges cut it: the window shows less than the board)."""
    parts = []
    for edge in exc.edges:
        hidden = exc.missing_px.get(edge, 0)
        amount = f" (at least {hidden} px of it hidden)" if hidden else ""
        parts.append(f"at the {edge}{amount}")
    cut = f"it runs past the window's edge {', '.join(parts)}"
    larger = _larger_than_the_window(exc.edges)
    if larger:
        return f"{cut}: it is {larger} than the window shows; {_make_it_fit(larger)}"
    moves = " or ".join(dict.fromkeys(SCROLL[e] for e in exc.edges if e in SCROLL))
    return (
        f"{cut}; {moves or 'scroll'} until the whole board shows, enlarge the window, or run with "
        "--scroll to let the tool scroll"
    )


def _larger_than_the_window(edges: tuple[str, ...]) -> str:
    """"taller", "wider" or "larger" when the board runs past two opposite edges at once, else ""."""
    tall, wide = {"top", "bottom"} <= set(edges), {"left", "right"} <= set(edges)
    return "larger" if tall and wide else "taller" if tall else "wider" if wide else ""


def _make_it_fit(larger: str) -> str:
    return f"make the window {larger} or zoom out with Ctrl+-"


def scroll_into_view(desktop: DesktopSession, window: WindowRecord) -> tuple[Frame, BoardReading]:
    """--scroll: turn the mouse wheel over the page (never a click), one notch at a time, until
    the whole board shows. A wheel notch scrolls about 100 px: a board that shows whole only
    between two notches (the cut moves to the other edge) is refused saying so (`_scrolled_past`)."""
    inside = window.rect.intersection(desktop.monitors()[0].rect)
    point = (inside.left + inside.width // 2, inside.top + inside.height // 2)
    first_cut: tuple[str, ...] = ()
    frame = grab(desktop, window)
    for notches in range(SCROLL_STEPS):
        try:
            return frame, read(frame)
        except BoardNotVisibleError as exc:
            cut = exc.cut_edges
            if not cut:
                raise  # no edge cuts the board: nothing scrolling could change (no board, a dialog)
            first_cut = first_cut or cut
            if _larger_than_the_window(cut) or set(cut) - set(first_cut):
                raise _scrolled_past(frame, exc, first_cut, notches) from None
            cells = _monitor_cells(frame)  # None in a window's frame
            if set(cut) & set(_monitor_cuts(frame, cells)):
                raise  # the monitor's edge cuts it: no scrolling brings it onto this monitor
        if window.role == MONITOR_ROLE:  # its middle may lie on any window: the board's own cells
            point = over_the_board(frame, cells, notches)
        check_scroll_point(desktop, window, point, notches)
        if desktop.moved_by_someone_else() is not None:
            raise ClickAborted(
                f"the mouse was moved while the tool scrolled the page ({notches} notch(es)), so it "
                "stopped and left the mouse to you", "run again with the mouse still"
            )
        if not desktop.move_pointer(*point).at(*point):
            break
        if "bottom" in cut or "top" in cut:
            desktop.wheel(down=1 if "bottom" in cut else -1)
        else:
            desktop.wheel(right=1 if "right" in cut else -1)
        scrolled = _scrolled_grab(desktop, window, frame)
        if scrolled is None:
            break  # the page did not move: nothing left to scroll that way
        frame = scrolled
    raise BoardNotVisibleError("the board did not come into view by scrolling",
                               "scroll it into view yourself and run again", first_cut)


def over_the_board(frame: Frame, cells: VisibleCells | None, notches: int) -> tuple[int, int]:
    """Where to turn the wheel in a record that stands for a whole monitor (no window list says
    which window lies where): on a cell of the board that shows (`cells`, in `frame`), so the page
    showing it scrolls, not whatever window lies over the monitor's middle."""
    if cells is None:
        scrolled = f"the page was scrolled {notches} notch(es)" if notches else "nothing scrolled"
        raise UnsafeToClick(f"no cell of the board shows to turn the mouse wheel over ({scrolled})",
                            "scroll the board into view yourself and run again")
    x, y = frame.to_screen(*cells.middle)
    return int(x), int(y)


def _scrolled_past(
    frame: Frame, exc: BoardNotVisibleError, first_cut: tuple[str, ...], notches: int
) -> BoardNotVisibleError:
    """The refusal when the wheel cannot bring the whole board into view: the board runs past two
    opposite edges at once (the window shows less than the board), or the last notch moved the
    cut to the other edge (the window could show it whole, but only between two notches: a
    notch moves the page about 100 px, Chromium's 120)."""
    where = shown_in(frame)
    cut = exc.cut_edges
    larger = _larger_than_the_window(cut)
    if larger:
        edges = _edges(tuple(edge for edge in ("top", "bottom", "left", "right") if edge in cut))
        return BoardNotVisibleError(
            f"the board is cut off by {where}: it runs past the window's {edges} at once, so it is "
            f"{larger} than the window shows{_notches(notches)}", _make_it_fit(larger), cut,
        )
    which = "taller" if {"top", "bottom"} & set(cut) else "wider"
    return BoardNotVisibleError(
        f"the board is cut off by {where}: the mouse wheel moves the page past it (it ran past the "
        f"window's {_edges(first_cut)}, and after the last of {notches} notch(es) past the "
        f"{_edges(tuple(sorted(set(cut) - set(first_cut))))})",
        f"make the window {which}, zoom out with Ctrl+-, or where the window can show the whole board, "
        "scroll it into view by hand (the scroll bar or a touchpad moves the page finer than a wheel notch)",
        cut,
    )


def _edges(names: tuple[str, ...]) -> str:
    return " and ".join(names) + (" edge" if len(names) == 1 else " edges")


def _notches(notches: int) -> str:
    return f" (the page scrolled {notches} notch(es))" if notches else ""


def check_scroll_point(
    desktop: DesktopSession, window: WindowRecord, point: tuple[int, int], notches: int
) -> None:
    """The wheel turns whatever window is under the pointer: refuse unless it is the browser's
    (another window stacked over the middle of the page would be scrolled instead). `notches`:
    how many the page was scrolled already."""
    above = desktop.window_at(*point)
    if above is None or above.wid != window.wid:
        what = f"the window {above.title!r}" if above is not None else "no window"
        scrolled = f"the page was scrolled {notches} notch(es)" if notches else "nothing scrolled"
        raise UnsafeToClick(
            f"{what} lies over the middle of the browser window, where --scroll would turn the "
            f"mouse wheel ({scrolled})",
            "bring the browser to the front or scroll the board into view yourself",
        )


def blame_window_over(
    desktop: DesktopSession, window: WindowRecord | None, exc: BoardNotVisibleError
) -> BoardNotVisibleError:
    """The error for a window where no board could be read: when another window lies over part
    of it, that window is named first (the grab shows its pixels where the page should be: a
    board half hidden reads as "no board" or as unreadable regions)."""
    if window is None:
        return exc
    above = desktop.windows_above(window)
    over = [other for other in above if not other.rect.intersection(window.rect).empty]
    if not over:
        return exc
    return BoardNotVisibleError(
        f"the window {over[-1].title!r} lies over part of the browser window {window.title!r}, which "
        f"shows no whole board that can be read (what was read: {exc.seen})",
        "move that window away (or bring the browser to the front) and run again",
        exc.cut_edges,
        seen=exc.seen,
    )


def _scrolled_grab(desktop: DesktopSession, window: WindowRecord, before: Frame) -> Frame | None:
    """A grab once the page has taken a wheel notch and come to rest; None when it showed nothing
    of it within SCROLL_RESPONSE s. It has come to rest when it has not moved for twice the
    longest it took between two moves, the first counted from the notch, and at least
    SCROLL_QUIET s. A busy renderer may draw nothing of a notch for a while, or stall in its
    smooth scroll: two equal grabs 50 ms apart, once taken for rest, could send another notch
    past the board on a loaded machine (docs/notes.md)."""
    start = moved_at = time.monotonic()
    longest, last = 0.0, before
    while True:
        time.sleep(0.02)
        frame, now = grab(desktop, window), time.monotonic()
        if _page_moved(last, frame):
            longest, moved_at, last = max(longest, now - moved_at), now, frame
        elif last is not before and now - moved_at >= max(SCROLL_QUIET, 2 * longest):
            return frame
        if last is before and now - start >= SCROLL_RESPONSE:
            return None
        if now - start >= SCROLL_RESPONSE + SCROLL_REST_CAP:
            return frame


def _page_moved(before: Frame, after: Frame) -> bool:
    """Whether a quarter or more of the window's rows differ: the page has scrolled (a clock, a
    blinking caret or a hover changes only a few)."""
    if before.raw.shape != after.raw.shape:
        return True
    return bool(int(np.any(before.raw != after.raw, axis=(1, 2)).sum()) * 4 >= after.raw.shape[0])
