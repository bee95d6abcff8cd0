"""The coach on the live board: read the board as `run` does (a browser window, or a screenshot),
say what solver/coach.py makes of it (the mistakes, else the next step), and with `apply` make
just that step: its X marks, or its one queen, with run's safety rules (a certain reading, one
solution, a browser window that has not moved and that nothing covers, the clicks checked on the
board's own X screen), then read the board again to check the page shows it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from queens_autosolve.actuator.clicker import Pace
from queens_autosolve.actuator.errors import UnsafeToClick
from queens_autosolve.actuator.plan import Click, ClickPlan, cell_steps, click_on
from queens_autosolve.actuator.safety import check_certain
from queens_autosolve.autosolve.onscreen import read
from queens_autosolve.autosolve.pipeline import (
    Session,
    check_solvable,
    click,
    find_window,
    park_beside_board,
    put_pointer_back,
    reading_on_a_monitor,
    solve,
)
from queens_autosolve.autosolve.records import Options, Source, Stopwatch
from queens_autosolve.autosolve.run_report import reading_lines
from queens_autosolve.capture import DesktopSession, Frame, load_image, open_desktop
from queens_autosolve.capture.models import Pointer
from queens_autosolve.solver.coach import Advice, Coach, CoachError, Hint, Tier
from queens_autosolve.solver.position import CellState
from queens_autosolve.solver.puzzle import Cell, cell_name
from queens_autosolve.vision import BoardReading

VERIFY_TIMEOUT = 2.0  # s the page gets to show the step's marks after the clicks


@dataclass(frozen=True)
class Applied:
    """What `apply` did: the clicks made, and the step's cells that do not show what the step
    made (empty: the board shows the step; "covered" when the page hides them, as its win screen
    does after the last queen)."""

    clicks: int
    missing: tuple[str, ...] = ()

    @property
    def shown(self) -> bool:
        return not self.missing

    def to_json(self) -> dict[str, object]:
        return {"clicks": self.clicks, "shown": self.shown, "missing": list(self.missing)}


@dataclass(frozen=True)
class HintResult:
    """The board read, what the coach said about it, and what `apply` did (None: not asked, or
    nothing to apply: mistakes to fix, a guess, or a solved board)."""

    frame: Frame
    reading: BoardReading
    advice: Advice
    applied: Applied | None = None


def advise_reading(reading: BoardReading) -> Advice:
    """The coach's advice on a reading (CoachError unless the puzzle read has one solution; from
    an uncertain reading, the error says the reading may be the cause)."""
    puzzle = reading.puzzle()
    puzzle.validate()
    try:
        return Coach(puzzle).advise(reading.position())
    except CoachError as exc:
        if reading.is_certain:
            raise
        doubt = reading.uncertain_line("it may be misread")
        raise CoachError(f"{exc}, as the board was read; {doubt}") from None


def step_plan(reading: BoardReading, step: Hint, frame: Frame) -> ClickPlan:
    """The clicks that make `step` on the board: one per X mark (empty -> X), and the queen's
    (empty -> X -> queen). Cells that already show what the step wants are not clicked."""
    box = frame.box_to_screen(reading.box)
    clicks: list[Click] = []
    wanted = [(cell, False) for cell in step.marks] + ([(step.queen, True)] if step.queen else [])
    for (r, c), queen in wanted:
        state = reading.states[r][c]
        reasons = cell_steps(state, True) if queen else (["empty -> X"] if state is CellState.EMPTY else [])
        if reasons:
            clicks += click_on((r, c), reading.centres[r][c], reasons, frame, box)
    return ClickPlan(tuple(clicks), box, (step.queen,) if step.queen else ())


def hint(source: Source, *, apply: bool = False, any_window: bool = False, delay: float = 0.0) -> HintResult:
    """Read the board, advise, and with `apply` make the step on the live board."""
    if not source.live:
        if apply:
            raise UnsafeToClick("--apply makes the step on the live board; a screenshot file cannot be "
                                "clicked", "drop --image")
        assert source.image is not None
        frame = load_image(source.image)
        reading = read(frame)
        return HintResult(frame, reading, advise_reading(reading))
    with open_desktop(source.display, source.desktop, will_click=apply) as desktop:
        home = desktop.pointer()
        try:
            return _live(desktop, source, apply, any_window, delay, home)
        finally:
            if apply:
                put_pointer_back(desktop, home)


def _live(desktop: DesktopSession, source: Source, apply: bool, any_window: bool, delay: float,
          home: Pointer) -> HintResult:
    found = find_window(desktop, source.window, any_window)
    window, frame, reading = reading_on_a_monitor(desktop, found, home, park=apply)
    if apply:
        check_certain(reading)  # before advice: a misread board would be blamed on the puzzle
    advice = advise_reading(reading)
    step = advice.step
    if not apply or step is None or not step.moves:
        return HintResult(frame, reading, advice)
    solved = solve(reading)
    check_solvable(solved)
    plan = step_plan(reading, step, frame)
    pace = Pace.for_desktop(max(0.0, delay), desktop.window_manager())
    clicks = click(desktop, frame, reading, plan, pace=pace, window=window) if len(plan) else 0
    session = Session(desktop, frame, reading, solved, window, Options(), Stopwatch())
    park_beside_board(session)
    return HintResult(frame, reading, advice, Applied(clicks, _check_shown(session, step)))


def _check_shown(session: Session, step: Hint) -> tuple[str, ...]:
    """Read the board again until the step's cells show its marks and queen (or VERIFY_TIMEOUT):
    the cells that do not, in words. A covered cell counts as shown only after a step that
    finished the board (the page's win screen may cover it)."""
    wanted: dict[Cell, CellState] = {cell: CellState.X for cell in step.marks}
    if step.queen is not None:
        wanted[step.queen] = CellState.QUEEN
    puzzle = session.solved.puzzle
    finishing = step.queen is not None and len(session.reading.queens()) + 1 == puzzle.n * puzzle.k
    deadline = time.monotonic() + VERIFY_TIMEOUT
    while True:
        seen = session.recheck(session.grab_board()).states
        missing = []
        for (r, c), state in wanted.items():
            now = seen[r][c]
            if now is None and not finishing:
                missing.append(f"{cell_name((r, c))} is covered")
            elif now is not None and now is not state:
                missing.append(f"{cell_name((r, c))} shows {now.value!r}, not {state.value!r}")
        if not missing or time.monotonic() >= deadline:
            return tuple(missing)
        time.sleep(0.05)


def report_lines(result: HintResult) -> list[str]:
    """The advice for people: what was read, the mistakes or the next step, what was applied."""
    lines = reading_lines(result.frame, result.reading, "the advice may be wrong")
    lines += result.advice.lines()
    if result.applied is not None:
        applied = result.applied
        verdict = "the board shows the step"
        if not applied.shown:
            verdict = "the board does NOT show the step: " + ", ".join(applied.missing)
        lines.append(f"applied: {applied.clicks} click(s); {verdict}")
    return lines


def nothing_to_apply(advice: Advice) -> str | None:
    """Why `apply` made no move, or None when it had a step to make."""
    if advice.mistakes:
        return "nothing applied: fix the mistakes first"
    if advice.step is None:
        return None
    if advice.step.tier is Tier.GUESS:
        return "nothing applied: the next step is a guess, which is yours to make"
    return None
