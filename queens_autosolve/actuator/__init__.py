"""Actuator: plan the clicks that turn the board into the solution, check it is safe, click.

``plan_clicks`` (pure) gives a `ClickPlan`; ``actuator.safety`` holds the checks that must pass
first; ``click_plan`` makes the clicks through the desktop (`capture.desktop.DesktopSession`).
"""

from queens_autosolve.actuator.clicker import click_plan
from queens_autosolve.actuator.errors import ActuatorError, ClickAborted, ClickOutsideBoard, UnsafeToClick
from queens_autosolve.actuator.plan import Click, ClickPlan, cell_steps, plan_clicks
from queens_autosolve.actuator.safety import (
    check_certain,
    check_not_covered,
    check_unique,
    check_window_unchanged,
)

__all__ = [
    "ActuatorError",
    "Click",
    "ClickAborted",
    "ClickOutsideBoard",
    "ClickPlan",
    "UnsafeToClick",
    "cell_steps",
    "check_certain",
    "check_not_covered",
    "check_unique",
    "check_window_unchanged",
    "click_plan",
    "plan_clicks",
]
