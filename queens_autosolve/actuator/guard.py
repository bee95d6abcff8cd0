"""The checks between clicks: the board must still be where, and what, it was when its clicks
were planned.

Before every cell (and before every click when clicks are spaced out) `BoardGuard.check` grabs the
board's pixels and compares a few points of every cell with the frame the clicks were planned
from (under 1 ms; the X server is asked what happened only once something has):

- the window moved, was resized, minimised or closed: `BoardChanged`, with what changed;
- another window came over the board (seen in the pixels, then named by the X server):
  `BoardChanged`, naming it;
- a cell's rim (the ring inside its borders, where no mark reaches: `vision.states.RIM_POINTS`)
  no longer shows what it showed: the page changed under the clicks (a new puzzle, a reload, a
  dialog or a scroll): `BoardChanged`, naming the cells;
- the cell about to be clicked no longer shows what it showed (the page changed its mark, as
  pages that remove their automatic X marks do): `CellChanged`, and the round ends there to be
  read and planned again.

The cells around the pointer are left out of the rim check (a page tints the hovered cell and
may put a tooltip beside it), as are the cells it has been on this round (Chromium repaints a
cell the pointer left a few clicks later, not at once: found live at full speed, a cell left
three cells before still 12% darker), and so are rim points that were off their region's colour when
read (red conflict stripes of the player's wrong queens, which go once those are cleared); a rim
point that turns to a conflict stripe's red is no change of the board either (a dropped click
left a wrong queen: the next round clears it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from queens_autosolve.actuator.errors import BoardChanged, CellChanged, UnsafeToClick
from queens_autosolve.actuator.safety import check_not_covered, check_window_unchanged
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import MONITOR_ROLE, Frame, Placement, WindowRecord
from queens_autosolve.solver.puzzle import Cell, cell_name
from queens_autosolve.vision.reading import BoardReading
from queens_autosolve.vision.recheck import lattice_at
from queens_autosolve.vision.sample import point_pixels
from queens_autosolve.vision.shades import STRIPE_KEEPS_RED
from queens_autosolve.vision.states import RIM_POINTS

if TYPE_CHECKING:
    from queens_autosolve.capture.desktop import DesktopSession

# The largest difference in any colour channel (0-255) at a point that is still the same pixel.
# A screen grab is exact, so an unchanged page gives 0; a hover tint is 10-20, a new region
# colour or a dialog 40 and more. Only cells away from the pointer are judged (no hover there).
SAME_PIXEL = 24
# Where a cell's mark is judged: a 5 x 5 grid over its middle 60% (X marks, crowns, the locked disc).
CORE_POINTS = np.array([(x, y) for y in np.linspace(-0.3, 0.3, 5) for x in np.linspace(-0.3, 0.3, 5)])
NAMED = 4  # cells named in a message
HOVER_LAG = 2  # cells that may still show a late hover tint (see `_shaded`)
HOVER_FACTORS = (0.75, 1.3)  # a hover tint's brightness factor, darker or lighter
SHADE_SLACK = 8  # per channel, off the one factor: rounding and blending
STRIPE_FADES = 15  # how much further green falls than red under a red stripe (or its edge), at least

STILL = "run again once the window and the page are still"  # the advice after the board changed


@dataclass(frozen=True)
class CellPoints:
    """Sample points of every cell: pixels of the planning frame, (n, n, points) each, and the
    colours found there, (n, n, points, 3) as in the frame (BGR). Whole pixels, so that the same
    pixel is compared in every grab (thin strokes: an X mark at 50% zoom is 1 px wide)."""

    xs: np.ndarray
    ys: np.ndarray
    colours: np.ndarray

    @classmethod
    def of(cls, frame: Frame, reading: BoardReading, fractions: np.ndarray) -> CellPoints:
        xs, ys, _ = point_pixels(lattice_at(reading), fractions, frame.raw.shape)
        return cls(xs, ys, _colours_at(frame.raw, xs, ys))


class BoardGuard:
    """Checks, before each click, that the board is still where and what it was in `frame`
    (the frame `reading` was read from and the clicks planned on); `board`: its screen box."""

    def __init__(self, desktop: DesktopSession, window: WindowRecord | None, frame: Frame,
                 reading: BoardReading, board: Rect) -> None:
        self.desktop = desktop
        self.window = window
        self.frame = frame
        self.board = board
        self.n = reading.n
        self.rims = CellPoints.of(frame, reading, RIM_POINTS)
        self.cores = CellPoints.of(frame, reading, CORE_POINTS)
        region = np.array(reading.region_colours, dtype=np.int16)[np.array(reading.regions)]  # RGB
        # rim points showing their region's colour when read; the others are not judged
        self.judged: np.ndarray = _differs(self.rims.colours, region[:, :, None, ::-1]) <= SAME_PIXEL
        self.hovered: set[Cell] = set()  # cells the pointer has been on

    def check(self, done: int, planned: int, pointer_on: Cell | None, next_cell: Cell | None) -> None:
        """Raise unless the board is as planned: `done` of `planned` clicks made, the pointer on
        cell `pointer_on` (None: beside the board), `next_cell` the cell about to be clicked
        (None: the next click is on `pointer_on` again).

        Before the first click the window is asked after in full (`check_window_before`). After
        it, the board's pixels are the test: a window moved, resized, minimised or closed, or
        one come over the board, changes what shows where the board was (a shift of 3 px puts
        the cell lines on the rim points), and only then is the X server asked what happened,
        to say so. A shift too small for that still lands every click in its cell."""
        if done == 0:
            self.check_window_before()
        if pointer_on is not None:
            self.hovered.add(pointer_on)
        now = self.desktop.grab(self.board, source=self.frame.source, window=self.frame.window)
        xs, ys = self._in(now, self.rims)
        changed = self._changed_rims(_colours_at(now.raw, xs, ys), pointer_on)
        if changed:
            raise BoardChanged(self._what_changed(changed), STILL, clicks=done, planned=planned)
        if next_cell is not None and self._cell_changed(now, next_cell):
            change = self._window_changed()
            if change:
                raise BoardChanged(change, STILL, clicks=done, planned=planned)
            raise CellChanged(f"{cell_name(next_cell)}, the next cell to click, no longer shows what was "
                              "read (the page changed its mark)", clicks=done, planned=planned)

    def check_window_before(self) -> None:
        """Before the first click: the window unmoved, unresized, shown and with its title, and
        nothing over the board."""
        if self.window is not None:
            check_window_unchanged(self.window, self.desktop.refresh(self.window))
            check_not_covered(self.board, self.desktop.windows_above(self.window))

    def _window_changed(self) -> str:
        """What happened to the window, or what came over the board, in words ('' nothing)."""
        if self.window is None:
            return ""
        return (window_change(self.window, self.desktop.placement(self.window))
                or _cover(self.board, self.desktop.windows_above(self.window)))

    def _what_changed(self, cells: list[Cell]) -> str:
        """Why `cells` look different: the window, a window over the board, or the page itself."""
        change = self._window_changed()
        if change:
            return change
        names = ", ".join(cell_name(cell) for cell in cells[:NAMED])
        more = f" and {len(cells) - NAMED} more" if len(cells) > NAMED else ""
        causes = "a new puzzle, a reload, a dialog or a scroll"
        if self.window is not None and self.window.role == MONITOR_ROLE:
            # no window list (GNOME, wlroots without sway): a window's own changes show only here
            causes = f"the browser window moved or another came over it, {causes}"
        return f"the page changed under the board ({names}{more} no longer show what was read: {causes})"

    def _in(self, now: Frame, points: CellPoints) -> tuple[np.ndarray, np.ndarray]:
        """`points` (planning frame pixels) in the pixels of `now`, a grab of the same screen."""
        if abs(now.scale - self.frame.scale) > 1e-6:
            raise UnsafeToClick("the screen's scale changed during the clicks")
        dx, dy = now.to_image(*self.frame.to_screen(0, 0))
        return points.xs + round(dx), points.ys + round(dy)

    def _changed_rims(self, colours: np.ndarray, pointer_on: Cell | None) -> list[Cell]:
        """Cells away from the pointer, and not hovered before, with a rim point that changed
        other than to a stripe; a cell or two merely lighter or darker all over are not counted
        (a hover the page painted late: one left before the clicks, as the pointer parked or
        the wheel turned over the board, or one the read caught in passing)."""
        changed = (_differs(colours, self.rims.colours) > SAME_PIXEL) & self.judged
        if not changed.any():
            return []
        changed &= ~_turned_to_stripe(colours, self.rims.colours)
        cells = changed.any(axis=2)
        for r, c in self.hovered:
            cells[r, c] = False
        if pointer_on is not None:
            r, c = pointer_on
            cells[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2] = False
        found = [(int(r), int(c)) for r, c in np.argwhere(cells)]
        shaded = [cell for cell in found
                  if _shaded(colours[cell][changed[cell]], self.rims.colours[cell][changed[cell]])]
        return found if len(found) > len(shaded) or len(shaded) > HOVER_LAG else []

    def _cell_changed(self, now: Frame, cell: Cell) -> bool:
        """Whether the middle of `cell` shows anything else than when read (another mark), not
        merely lighter or darker all over (a hover painted late, when read or since)."""
        r, c = cell
        xs, ys = self._in(now, self.cores)
        colours = _colours_at(now.raw, xs[r, c][None, None], ys[r, c][None, None])[0, 0]
        changed = _differs(colours, self.cores.colours[r, c]) > SAME_PIXEL
        return bool(changed.any()) and not _shaded(colours[changed], self.cores.colours[r, c][changed])


def window_change(before: WindowRecord, now: Placement | None) -> str:
    """What happened to the window since `before`, in words ('' when nothing did)."""
    if now is None:
        return f"the window {before.title!r} was closed"
    if not now.shown:
        return f"the window {before.title!r} was minimised or hidden"
    old, new = before.rect, now.rect
    if (old.width, old.height) != (new.width, new.height):
        return (f"the window {before.title!r} was resized from {old.width}x{old.height} to "
                f"{new.width}x{new.height}")
    if (old.left, old.top) != (new.left, new.top):
        return f"the window {before.title!r} moved by ({new.left - old.left}, {new.top - old.top})"
    return ""


def _cover(board: Rect, above: Sequence[WindowRecord]) -> str:
    for window in above:
        if not window.rect.intersection(board).empty:
            return f"the window {window.title!r} came over the board"
    return ""


def _shaded(now: np.ndarray, before: np.ndarray) -> bool:
    """Whether colours `now` are colours `before` made lighter or darker alike, by one factor
    (a hover tint: Chromium's practice page 0.88, LinkedIn's 5-8 delta E), not another colour."""
    factor = float(now.sum()) / max(1.0, float(before.sum()))
    if not HOVER_FACTORS[0] <= factor <= HOVER_FACTORS[1]:
        return False
    return bool((np.abs(now - factor * before) <= SHADE_SLACK).all())


def _colours_at(raw: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The BGR colours of `raw` (H x W x 4) at pixels (xs, ys), as int16; points outside take the
    nearest edge pixel."""
    h, w = raw.shape[:2]
    return raw[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1), :3].astype(np.int16)


def _differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The largest channel difference between colours `a` and `b` (broadcast), per point."""
    return np.asarray(np.abs(a - b).max(axis=-1))


def _turned_to_stripe(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Points where the colour `before` may have turned to a red conflict stripe's over it, or
    to its blurred edge (BGR): the red (nearly) kept, the green fallen by STRIPE_FADES more than
    the red, the blue no higher. A new region colour, a dialog or a dimmed page (and hover,
    which darkens all three alike) is none of that on most cells."""
    now, before = now.astype(np.int32), before.astype(np.int32)
    red_fall = before[..., 2] - now[..., 2]
    green_fall = before[..., 1] - now[..., 1]
    kept_red = now[..., 2] >= STRIPE_KEEPS_RED * before[..., 2]
    return np.asarray(kept_red & (green_fall - red_fall >= STRIPE_FADES) & (now[..., 0] <= before[..., 0]))
