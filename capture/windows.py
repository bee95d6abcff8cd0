"""Choosing the game's window among all top-level windows: pure logic on `WindowRecord`s.

Default: a browser window whose title contains "Queens". Browsers beat other applications, a
title that does not mention this tool beats one that does, and among equals the window on top
wins. Terminals are never chosen (a click there could type into a shell), nor any non-browser
window that names this tool (the terminal or message box running it).
"""

from __future__ import annotations

from collections.abc import Sequence

from capture.errors import WindowMinimisedError, WindowNotFoundError
from capture.models import WindowRecord

DEFAULT_TITLE = "Queens"


def title_matches(record: WindowRecord, title: str) -> bool:
    return title.lower() in record.title.lower()


def eligible(record: WindowRecord) -> bool:
    """Whether a window may ever be clicked by us, whatever its title."""
    if record.is_terminal:
        return False
    return record.is_browser or not record.mentions_tool


def rank_windows(records: Sequence[WindowRecord], title: str = DEFAULT_TITLE) -> list[WindowRecord]:
    """Eligible windows whose title matches, best first (minimised ones included, last)."""
    matches = [r for r in records if title_matches(r, title) and eligible(r) and not r.rect.empty]
    matches = [r for r in matches if r.viewable or r.minimised]  # withdrawn windows are not windows
    return sorted(
        matches,
        key=lambda r: (r.viewable and not r.minimised, r.is_browser, not r.mentions_tool, r.stacking),
        reverse=True,
    )


def choose_window(records: Sequence[WindowRecord], title: str | None = None) -> WindowRecord:
    """The window to play in, or an error that lists what we saw and says what to do."""
    wanted = title or DEFAULT_TITLE
    ranked = rank_windows(records, wanted)
    if ranked and ranked[0].viewable and not ranked[0].minimised:
        return ranked[0]
    if ranked:
        raise WindowMinimisedError(
            f"the window {ranked[0].title!r} is minimised; restore it (and keep the Queens board "
            "visible), then run again"
        )
    seen = sorted({r.title for r in records if r.title and r.viewable})
    listing = ", ".join(repr(t) for t in seen[:12]) or "none"
    hint = (
        "open the LinkedIn Queens game (or `queens-autosolve practice`) in a browser"
        if title is None
        else f"check the title given with --window {title!r}"
    )
    raise WindowNotFoundError(
        f"no browser window titled {wanted!r} found; windows on screen: {listing}; {hint}, "
        "or use --screen to read the whole screen"
    )
