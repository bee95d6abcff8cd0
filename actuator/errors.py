"""Reasons the actuator refuses to click or stops clicking. All are `QueensError`s (exit status 2)."""

from __future__ import annotations

from solver.errors import QueensError


class ActuatorError(QueensError):
    """Base for problems planning or making clicks."""


class UnsafeToClick(ActuatorError):
    """Clicking now could do the wrong thing (uncertain reading, no unique solution, window moved)."""


class ClickOutsideBoard(ActuatorError):
    """A planned click falls outside the board vision found: a bug or a bad reading; nothing clicked."""


class ClickAborted(ActuatorError):
    """The user stopped the clicks (pyautogui fail-safe: mouse pushed into a screen corner)."""
