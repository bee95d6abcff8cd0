"""The checks that stand between a reading and the user's mouse. Each raises `UnsafeToClick`
with what was wrong and what to do; none of them clicks or reads anything itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from queens_autosolve.actuator.errors import UnsafeToClick
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import WindowRecord


class Certainty(Protocol):
    """The parts of a `vision.BoardReading` the certainty check uses (read-only, so the frozen
    dataclass fits)."""

    @property
    def confidence(self) -> float: ...

    @property
    def reasons(self) -> Sequence[str]: ...

    @property
    def is_certain(self) -> bool: ...


def check_certain(reading: Certainty) -> None:
    """Refuse to click on a reading vision is not sure of."""
    if reading.is_certain:
        return
    why = "; ".join(reading.reasons) or "no reason given"
    raise UnsafeToClick(
        f"the board reading is uncertain (confidence {reading.confidence:.2f}: {why})",
        "run with --dry-run to see what was read"
    )


def check_unique(count: int, counted_to: int = 2, *, offer_any: bool = False) -> None:
    """Refuse to click unless the board read has exactly one solution; `count` is the number of
    solutions found when counting stopped at `counted_to`. A certain reading of a board with
    several is the page's own puzzle having several, so the message says how many (and, with
    `offer_any`, that `run --any-solution` clicks one)."""
    if count == 1:
        return
    if count == 0:
        raise UnsafeToClick(
            "the board as read has no solution, so the reading must be wrong",
            "run with --dry-run to see what was read"
        )
    many = f"at least {counted_to}" if count >= counted_to else str(count)
    raise UnsafeToClick(
        f"the puzzle on the page has more than one solution: it has {many} solutions (a proper "
        "Queens puzzle has exactly one), so there is no one answer to click",
        "run with --dry-run to see one" + (", or with --any-solution to click one (a page that takes any)"
                                             if offer_any else "")
    )


def check_window_unchanged(before: WindowRecord, now: WindowRecord | None) -> None:
    """Refuse to click when the window closed, moved, resized, hid or changed title since capture."""
    if now is None:
        raise UnsafeToClick(f"the window {before.title!r} closed before the clicks")
    if now.rect != before.rect:
        raise UnsafeToClick(
            f"the window {before.title!r} moved or resized since it was read ({before.rect} -> "
            f"{now.rect})", "keep it still and run again"
        )
    if now.minimised or not now.viewable:
        raise UnsafeToClick(f"the window {before.title!r} was hidden before the clicks")
    if now.title != before.title:
        raise UnsafeToClick(
            f"the window's title changed from {before.title!r} to {now.title!r} (another tab?)", "run again"
        )


def check_not_covered(board: Rect, above: Sequence[WindowRecord]) -> None:
    """Refuse to click when another window lies over the board (screen points): the clicks
    would land in it."""
    for window in above:
        if not window.rect.intersection(board).empty:
            raise UnsafeToClick(
                f"the window {window.title!r} covers part of the board", "move it away and run again"
            )
