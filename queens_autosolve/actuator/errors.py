"""Reasons the actuator refuses to click or stops clicking. All are `ClickStop`s (a `QueensError`,
exit status 2): their messages say what was clicked in one wording."""

from __future__ import annotations

from queens_autosolve.capture.errors import ClickStop


class ActuatorError(ClickStop):
    """Base for problems planning or making clicks."""


class UnsafeToClick(ActuatorError):
    """Clicking now could do the wrong thing (uncertain reading, no unique solution, window moved)."""


class ClickOutsideBoard(ActuatorError):
    """A planned click falls outside the board vision found: a bug or a bad reading; nothing clicked."""


class ClickAborted(ActuatorError):
    """The clicks stopped before the next one: the user took the mouse, or what was clicked changed."""


class BoardChanged(ClickAborted):
    """The window or the page changed while the clicks were being made: they stopped before the
    next one (the message says after how many, and what changed)."""


class CellChanged(ClickAborted):
    """The cell about to be clicked no longer shows what the clicks were planned from; `clicks`
    were made before it. The board is otherwise as read: read it again and plan afresh."""
