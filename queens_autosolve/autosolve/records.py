"""The records a run passes between its stages and hands back: where the board comes from,
how to run, how it ended, the solver's answer, the rounds of clicks, and the stage timings."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from queens_autosolve.actuator.clicker import Pace
from queens_autosolve.actuator.plan import ClickPlan
from queens_autosolve.capture import Frame
from queens_autosolve.capture.errors import clicked_words
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Puzzle, Solution
from queens_autosolve.vision import BoardReading

# Stages in the order they run; the timing breakdown is printed in this order.
STAGES = ("connect", "find window", "scroll", "grab", "read", "solve", "plan", "click", "verify")


@dataclass(frozen=True)
class Source:
    """Where the board comes from: a window by title (default: a browser window titled
    "Queens"), the whole screen, or a file; one of them, never two. `display`: the X11 display
    of a window or the screen (default: $DISPLAY); `desktop`: which desktop it is on, one of
    `capture.desktop.DESKTOPS` ("auto": from the session)."""

    window: str | None = None
    screen: bool = False
    image: Path | None = None
    display: str | None = None
    desktop: str = "auto"

    def __post_init__(self) -> None:
        given = {"window": self.window is not None, "screen": self.screen, "image": self.image is not None}
        chosen = [name for name, is_given in given.items() if is_given]
        if len(chosen) > 1:
            raise ValueError(f"a board comes from one place, not from the {' and the '.join(chosen)}")

    @property
    def live(self) -> bool:
        return self.image is None


@dataclass(frozen=True)
class Options:
    """How to run.

    `delay`: seconds between clicks in the first round (later rounds slow down by themselves);
    `rounds`: how many read-plan-click rounds at most; `verify_timeout`: how long the page gets
    to repaint after a round; `any_window`: click a window that is not a web browser;
    `scroll`: scroll the page with the mouse wheel until the whole board is in view;
    `any_solution`: click one valid placement of a puzzle that has several (for pages that take
    any), instead of refusing.
    """

    dry_run: bool = False
    delay: float = 0.0
    verify: bool = True
    verify_timeout: float = 2.0
    rounds: int = 3
    any_window: bool = False
    scroll: bool = False
    any_solution: bool = False

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ValueError(f"rounds must be 1 or more, not {self.rounds}")


class RunOutcome(Enum):
    """How a run ended; the value is what the report says."""

    SOLVED = "solved: the board shows the solution"
    WIN_SCREEN = "solved (the page shows its win screen)"
    ALREADY_SOLVED = "already solved: the board shows the solution, nothing to click"
    DIFFERS = "NOT solved: the board differs from the solution"
    UNVERIFIED = "clicked, not verified (--no-verify)"
    DRY_RUN = "dry run: nothing clicked"

    @property
    def solved(self) -> bool:
        return self in (RunOutcome.SOLVED, RunOutcome.WIN_SCREEN, RunOutcome.ALREADY_SOLVED)


class AlreadyWon(QueensError):
    """The page shows its win screen over a board it has judged solved (gold crowns placed by the
    rules), where no whole board can be read: nothing to click, exit status 0."""

    def __init__(self, where: str) -> None:
        super().__init__(
            f"already solved: {where} shows its win screen over the solved board; {clicked_words(0)}"
        )


@dataclass(frozen=True)
class Solved:
    """The puzzle read off the board and what the solver made of it (count stops at 2)."""

    puzzle: Puzzle
    solution: Solution | None
    count: int
    nodes: int

    @property
    def unique(self) -> bool:
        return self.count == 1


@dataclass(frozen=True)
class Round:
    """One round of clicks, the pace it went at, and what was still wrong after it."""

    clicks: int
    pace: Pace
    differences: tuple[str, ...]


@dataclass
class Stopwatch:
    """Seconds per stage, in the order the stages first ran (later rounds add to them)."""

    seconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start


@dataclass(frozen=True, kw_only=True)
class RunResult:
    """Everything one run found and did. `plan` is the first round's; `clicks` counts all rounds."""

    frame: Frame
    reading: BoardReading
    solved: Solved
    plan: ClickPlan | None
    clicks: int
    timings: dict[str, float]
    outcome: RunOutcome
    rounds: tuple[Round, ...] = ()
    to_last_click: float = 0.0  # seconds from the window found to the last click

    @property
    def dry_run(self) -> bool:
        return self.outcome is RunOutcome.DRY_RUN

    @property
    def differences(self) -> tuple[str, ...]:
        return self.rounds[-1].differences if self.rounds else ()

    @property
    def ok(self) -> bool:
        """Dry run: a unique solution was found from a certain reading. Live: the page shows it
        (or was not checked)."""
        if self.dry_run:
            return self.solved.unique and self.reading.is_certain
        return self.outcome.solved or self.outcome is RunOutcome.UNVERIFIED
