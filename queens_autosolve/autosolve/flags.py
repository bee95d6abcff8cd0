"""The command-line flags the commands share, said one way for all.

The numeric flags are checked in one place: each kind of number is an argparse type that takes a
value only when it is finite and in its range, so no command meets a NaN, an infinity or a number
too large for the timers and sleeps it feeds (``--timeout 1e10`` overflowed `signal.setitimer`,
``--delay inf`` the clicker's sleep). The commands that work on the screen (`run`, `hint`,
`watch`) take where the board is and on which desktop from `add_where_arguments`.

>>> TIMEOUT("2.5"), TIMEOUT("0")
(2.5, 0.0)
>>> DELAY("nan")
Traceback (most recent call last):
argparse.ArgumentTypeError: 'nan' is not a number of seconds from 0 to 60
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path

# The longest time limit or budget taken: 11.6 days. `signal.setitimer` overflows near 1e10 s.
MAX_SECONDS = 1_000_000.0
# The longest pause between two clicks.
MAX_DELAY = 60.0


@dataclass(frozen=True)
class Seconds:
    """A number of seconds in `low`..`high` (`low` itself excluded when `above_low`); `zero`
    says what 0 means when 0 is taken on its own (``no limit``)."""

    low: float
    high: float
    above_low: bool = False
    zero: str | None = None

    def __call__(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if value == 0 and self.zero is not None:
            return 0.0
        in_range = self.low < value <= self.high if self.above_low else self.low <= value <= self.high
        if not in_range:  # NaN and the infinities are in no range
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {self.wanted()}")
        return value

    def wanted(self) -> str:
        low, high = _shown(self.low), _shown(self.high)
        span = f"more than {low} and at most {high}" if self.above_low else f"from {low} to {high}"
        zero = f" (0: {self.zero})" if self.zero is not None else ""
        return f"a number of seconds {span}{zero}"


@dataclass(frozen=True)
class Whole:
    """A whole number in `low`..`high` (None: no bound)."""

    low: int
    high: int | None = None

    def __call__(self, text: str) -> int:
        try:
            value = int(text) if len(text) <= 30 else None
        except ValueError:
            value = None
        if value is None or value < self.low or (self.high is not None and value > self.high):
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {self.wanted()}")
        return value

    def wanted(self) -> str:
        if self.high is None:
            return f"a whole number of {self.low} or more"
        return f"a whole number from {self.low} to {self.high}"


@dataclass(frozen=True)
class Share:
    """A fraction from `low` to `high` (a share of squares, a zoom factor)."""

    low: float
    high: float
    what: str = "a number"

    def __call__(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(
                f"{text[:40]!r} is not {self.what} from {_shown(self.low)} to {_shown(self.high)}")
        return value


def _shown(number: float) -> str:
    """1000000 as ``1,000,000``, 0.5 as ``0.5``."""
    return f"{number:,.0f}" if number.is_integer() else f"{number:g}"


TIMEOUT = Seconds(0.0, MAX_SECONDS, above_low=True, zero="no limit")  # --timeout, --*-budget with 0 = none
POSITIVE_SECONDS = Seconds(0.0, MAX_SECONDS, above_low=True)  # --time per move, --baseline-budget
DELAY = Seconds(0.0, MAX_DELAY)  # --delay between clicks
POSITIVE = Whole(1)  # --rounds, --count, --games, --seeds ...
COUNT_OR_ALL = Whole(0)  # --peer-sample (0: all)
PORT = Whole(0, 65535)  # --port (0: any free port)


def add_where_arguments(
    parser: argparse.ArgumentParser, *, screen: str | None = None, image: str | None = None
) -> None:
    """--window TITLE, with --screen (helped by `screen`) and --image FILE (by `image`) where the
    command takes them, as alternatives; then --display and --desktop."""
    # here, not at the top: the two-player commands take their numbers from this module and
    # never import the screen stack
    from queens_autosolve.capture.desktop import DESKTOPS

    where = parser.add_mutually_exclusive_group()
    where.add_argument("--window", metavar="TITLE", help="the window whose title contains TITLE "
                       "(default: a browser window titled 'Queens')")
    if screen is not None:
        where.add_argument("--screen", action="store_true", help=screen)
    if image is not None:
        where.add_argument("--image", metavar="FILE", type=Path, help=image)
    parser.add_argument("--display", metavar="NAME", help="X11 display (default: $DISPLAY)")
    parser.add_argument("--desktop", choices=DESKTOPS, default="auto",
                        help="the desktop to work on (default auto: the session's own; x11, wlroots for "
                        "sway, gnome)")


def add_any_window_argument(parser: argparse.ArgumentParser) -> None:
    """--any-window: the commands that click refuse a window that is not a web browser without it."""
    parser.add_argument("--any-window", action="store_true",
                        help="allow clicking a window that is not a web browser (on purpose only)")
