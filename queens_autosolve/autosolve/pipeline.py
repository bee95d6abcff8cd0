"""The main job: capture -> read -> solve -> plan -> click -> check, round after round.

Each stage is a function that can be called on its own (the tests do, to stop between stages);
`run` calls them in order and times each one. It clicks only when the reading is certain, the
solution unique, the window a web browser, where it was when it was read and not covered, and
only on the X screen it read. After the clicks it reads the board again at once: while the board
differs from the solution it plans again from what the board now shows and clicks again, more
slowly, for at most `Options.rounds` rounds, every safety check passing again each round. A page
that covers or replaces its board right after the last click, every cell still in view being
right, is showing its win screen: that is solved.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from queens_autosolve.actuator.clicker import Pace, click_plan
from queens_autosolve.actuator.errors import CellChanged, ClickAborted, UnsafeToClick
from queens_autosolve.actuator.guard import BoardGuard
from queens_autosolve.actuator.plan import ClickPlan, plan_clicks
from queens_autosolve.actuator.safety import (
    check_certain,
    check_not_covered,
    check_unique,
    check_window_unchanged,
)
from queens_autosolve.autosolve.aftercheck import (
    RESPONSE_PER_CLICK,
    AfterClicks,
    Settling,
    Shown,
    cell_differences,
)
from queens_autosolve.autosolve.onscreen import (
    after_the_pointer_left,
    blame_window_over,
    board_on_screen,
    grab,
    no_board_on_any,
    other_monitors,
    read,
    scroll_into_view,
    shown_in,
)
from queens_autosolve.autosolve.records import (
    AlreadyWon,
    Options,
    Round,
    RunOutcome,
    RunResult,
    Solved,
    Source,
    Stopwatch,
)
from queens_autosolve.capture import (
    BoardNotVisibleError,
    DesktopSession,
    Frame,
    Rect,
    WindowRecord,
    check_browser,
    load_image,
    open_desktop,
)
from queens_autosolve.capture.errors import ClickStop
from queens_autosolve.capture.models import Pointer
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.position import Position
from queens_autosolve.solver.puzzle import Solution
from queens_autosolve.solver.search import search
from queens_autosolve.vision import BoardReading
from queens_autosolve.vision.recheck import Recheck, lattice_at, recheck_board
from queens_autosolve.vision.winscreen import shows_a_won_board

COUNT_LIMIT = 100  # solutions counted to tell the user how far from unique a puzzle is
PARK_GAP = 12  # px between the board and where the pointer is parked while the board is read


# --- the stages ----------------------------------------------------------------------------


def find_window(desktop: DesktopSession, title: str | None = None, any_window: bool = False) -> WindowRecord:
    """The browser window showing the game (default: a browser window titled "Queens")."""
    return desktop.find_window(title, any_window)


def solve(reading: BoardReading) -> Solved:
    """Solve the board as read, counting answers up to 2 to know whether it is unique."""
    puzzle = reading.puzzle()
    puzzle.validate()
    result = search(puzzle, limit=2)
    return Solved(puzzle, result.solution, result.count, result.nodes)


def check_solvable(solved: Solved, *, any_solution: bool = False, offer_any: bool = False) -> None:
    """Refuse a board without exactly one solution (with `any_solution`: without any); with
    several, counted on to COUNT_LIMIT so the refusal can say how many (and, with `offer_any`,
    that --any-solution clicks one)."""
    if any_solution and solved.count >= 1:
        return
    count = search(solved.puzzle, limit=COUNT_LIMIT).count if solved.count > 1 else solved.count
    check_unique(count, COUNT_LIMIT, offer_any=offer_any)


def plan(reading: BoardReading, solved: Solved, frame: Frame) -> ClickPlan:
    """The clicks from what the board shows to the solution, at screen points."""
    if solved.solution is None:
        raise UnsafeToClick("the board as read has no solution; nothing to plan")
    return plan_clicks(reading, solved.solution, frame)


def click(
    desktop: DesktopSession,
    frame: Frame,
    reading: BoardReading,
    clicks: ClickPlan,
    *,
    pace: Pace | None = None,
    window: WindowRecord | None = None,
) -> int:
    """Make the clicks on the board's own X screen. Before each cell (and each click, when they
    are spaced out) the window must not have moved or been covered, and the board must still
    show what `reading` read in `frame` (`actuator.guard`): the clicks stop before the next one
    otherwise."""
    if not frame.on_screen:
        raise UnsafeToClick("the board came from an image file; there is nothing on screen to click")
    guard = BoardGuard(desktop, window or frame.window, frame, reading, clicks.box)
    return click_plan(clicks, desktop=desktop, pace=pace or Pace(), guard=guard)


@dataclass
class Session:
    """One live run's open display, the board as first read, and the window it is in."""

    desktop: DesktopSession
    frame: Frame  # the first grab
    reading: BoardReading  # the first reading: its geometry and regions hold for the whole run
    solved: Solved
    target: WindowRecord | None  # the browser window showing the board (None: only --any-window)
    options: Options
    watch: Stopwatch

    @property
    def solution(self) -> Solution:
        assert self.solved.solution is not None
        return self.solved.solution

    def board_rect(self) -> Rect:
        """The board's box in screen points."""
        return board_on_screen(self.frame, self.reading)

    def grab_board(self) -> Frame:
        """The board and a margin of page around it (vision wants some page beyond the border)."""
        board = self.board_rect()
        area = board.grown(max(board.width, board.height) // 10 + 4)
        return self.desktop.grab(area, source=self.frame.source, window=self.frame.window)

    def recheck(self, frame: Frame) -> Recheck:
        """Every cell of the first reading's board, judged where it is in `frame`."""
        first = self.frame
        lattice = lattice_at(self.reading, (first.left - frame.left) * first.scale,
                             (first.top - frame.top) * first.scale, frame.scale / first.scale)
        return recheck_board(frame.rgb, self.reading, lattice)

    def window_unchanged(self) -> bool:
        if self.target is None:
            return True
        try:
            check_window_unchanged(self.target, self.desktop.refresh(self.target))
            check_not_covered(self.board_rect(), self.desktop.windows_above(self.target))
        except UnsafeToClick:
            return False
        return True

    def after_clicks(self, before: Position, clicks: int) -> AfterClicks:
        """Read the board again until it shows the solution, a win screen, or has settled on
        wrong cells (see `Settling`); `before`: the states the round's `clicks` were planned from.

        The first read comes at once after the last click, before any win animation: a page that
        covers or replaces its board right after our clicks has judged it solved."""
        n = self.reading.n
        timeout = max(self.options.verify_timeout, RESPONSE_PER_CLICK * clicks)
        watch = Settling(before, time.monotonic(), timeout)
        frame = self.grab_board()
        seen, reads = self.recheck(frame), 1
        while True:
            differences = cell_differences(seen.position, self.solution.queens)
            if not differences and seen.visible == n * n:
                return AfterClicks(Shown.SOLUTION, (), reads)
            if not differences and (seen.visible == 0 or seen.looks_overlaid()) and self.window_unchanged():
                # part or all of the board hidden by the page itself, and all that shows is right
                return AfterClicks(Shown.WIN_SCREEN, (), reads)
            now = time.monotonic()
            if seen.visible == n * n:
                watch.see(seen.position, differences, now)
                if watch.settled(now):
                    return AfterClicks(Shown.DIFFERS, differences, reads)
            if watch.timed_out(now):
                if seen.visible < n * n:
                    differences += (f"{n * n - seen.visible} cell(s) covered",)
                return AfterClicks(Shown.DIFFERS, differences, reads)
            time.sleep(0.01 if now - watch.start < 1 else 0.03)
            again = self.grab_board()
            if not np.array_equal(again.raw, frame.raw):
                # judged again only once the page has repainted: a recheck takes a core for
                # 10-20 ms, which the browser needs to handle our clicks and paint them
                frame, seen, reads = again, self.recheck(again), reads + 1

    def read_again(self) -> tuple[Frame, BoardReading]:
        """A full, certain reading of the board as it is now, of the same board as the first."""
        frame = self.grab_board()
        reading = read(frame)
        check_certain(reading)
        if reading.n != self.reading.n or reading.regions != self.reading.regions:
            raise UnsafeToClick(
                "the board now reads differently from the first reading (size or regions changed: "
                "another puzzle?)"
            )
        return frame, reading


def park_point(board: Rect, window: Rect | None, screen: Rect) -> tuple[int, int]:
    """Where to hold the pointer while the board is read: beside the board, inside the window
    where possible (hover would tint a cell; outside the window it might open a menu)."""
    inside = window.intersection(screen) if window is not None else screen
    mid_x, mid_y = board.left + board.width // 2, board.top + board.height // 2
    candidates = [
        (board.left - PARK_GAP, mid_y), (board.right + PARK_GAP, mid_y),
        (mid_x, board.top - PARK_GAP), (mid_x, board.bottom + PARK_GAP),
    ]
    for x, y in candidates:
        if inside.contains(x, y) and not board.contains(x, y):
            return x, y
    for x, y in candidates:
        if screen.contains(x, y) and not board.contains(x, y):
            return x, y
    return screen.left + screen.width // 2, screen.top + 1


# --- the whole run -------------------------------------------------------------------------


def run(source: Source, options: Options | None = None) -> RunResult:
    """Capture, read, solve, plan, click and check, in rounds; the safety checks stop it
    before any click they do not pass."""
    options = options or Options()
    if not source.live:
        return _run_offline(source)
    watch = Stopwatch()
    with watch.stage("connect"):
        # the input made ready as it opens (tens of ms: not in the click stage)
        desktop = open_desktop(source.display, source.desktop, will_click=not options.dry_run)
    with desktop:
        with watch.stage("connect"):
            desktop.monitors()  # opens mss now, not inside the timed grab
        home = desktop.pointer()
        try:
            return _run_live(desktop, source, options, watch, home)
        finally:
            if not options.dry_run:
                put_pointer_back(desktop, home)


def put_pointer_back(desktop: DesktopSession, home: Pointer) -> None:
    """The user's pointer back where it was before the run moved it, unless they have taken the
    mouse since (it is no longer where the run last put it): then it stays with them."""
    placed = desktop.placed
    if home.on_screen and placed is not None and placed != home and desktop.moved_by_someone_else() is None:
        desktop.move_pointer(home.x, home.y)


def _run_live(
    desktop: DesktopSession, source: Source, options: Options, watch: Stopwatch, home: Pointer
) -> RunResult:
    window = None
    if not source.screen:
        with watch.stage("find window"):
            window = find_window(desktop, source.window, options.any_window)
    found_at = time.perf_counter()
    try:
        window, frame, reading = reading_on_a_monitor(desktop, window, home, park=not options.dry_run,
                                                      scroll=options.scroll, watch=watch)
    except BoardNotVisibleError as exc:
        try:
            now = grab(desktop, window)
        except QueensError:
            raise exc from None  # the window has gone meanwhile: the first cause stands
        refuse_if_won(now)
        raise
    if not reading.is_certain:
        refuse_if_won(frame)
    return run_from_reading(desktop, source, options, window, frame, reading, watch=watch, found_at=found_at)


def run_on_board(
    desktop: DesktopSession, source: Source, options: Options, window: WindowRecord | None,
    frame: Frame, reading: BoardReading, *, found_at: float, put_back: bool = True,
) -> RunResult:
    """`run` on an open desktop from a board already grabbed and read (`watch` has read it to
    decide that it is a fresh board): the pointer moved off the board first when it is on it,
    then solve, plan, click and check in rounds with every safety rule of `run`, and the pointer
    put back (unless not `put_back`: it stays beside the board). `found_at`
    (time.perf_counter()): when the board was seen, for `to_last_click`."""
    watch = Stopwatch()
    home = desktop.pointer()
    if not options.dry_run and home.on_screen and desktop.moved_by_someone_else() is not None:
        # the desktop stays open between runs: the user has moved the mouse since the last one,
        # so this run starts from where they left it, not from where the last run put it
        desktop.move_pointer(home.x, home.y, before=home)
    try:
        frame, reading = away_from_pointer(desktop, window, frame, reading, home, watch)
        return run_from_reading(desktop, source, options, window, frame, reading, watch=watch,
                                found_at=found_at)
    finally:
        if put_back and not options.dry_run:
            put_pointer_back(desktop, home)


def run_from_reading(
    desktop: DesktopSession, source: Source, options: Options, window: WindowRecord | None,
    frame: Frame, reading: BoardReading, *, watch: Stopwatch, found_at: float,
) -> RunResult:
    """The run from its first reading on: solve, then (unless a dry run) the checks and the
    rounds of clicks."""
    target = window
    if source.screen and not options.dry_run:
        target = _window_showing(desktop, frame, reading, options)
    if not options.dry_run and reading.is_certain:
        desktop.will_grab(board_on_screen(frame, reading))  # the guard's grabs, made ready while it solves
    with watch.stage("solve"):
        solved = solve(reading)
    if options.dry_run:
        return _dry_result(frame, reading, solved, watch)
    check_certain(reading)
    check_solvable(solved, any_solution=options.any_solution, offer_any=True)
    session = Session(desktop, frame, reading, solved, target, options, watch)
    return _click_in_rounds(session, found_at)


def refuse_if_won(frame: Frame) -> None:
    """AlreadyWon when `frame`, where no whole board could be read for sure, shows the page's
    win screen over a board it has judged solved (vision.winscreen)."""
    if shows_a_won_board(frame.rgb):
        raise AlreadyWon(shown_in(frame))


def reading_on_a_monitor(
    desktop: DesktopSession, window: WindowRecord | None, home: Pointer, *, park: bool,
    scroll: bool = False, watch: Stopwatch | None = None,
) -> tuple[WindowRecord | None, Frame, BoardReading]:
    """`first_reading` of `window`, and, where it stands for a monitor (the desktop lists no
    windows) that shows no board, of each other monitor in turn (`other_monitors`): the window
    whose reading is returned with it is where the run goes on. A board cut off is not looked
    for elsewhere: it is there."""
    try:
        return (window, *first_reading(desktop, window, home, park=park, scroll=scroll, watch=watch))
    except BoardNotVisibleError as exc:
        others = [] if exc.cut_edges else other_monitors(desktop, window)
        if not others or window is None:
            raise
    for other in others:
        try:
            return (other, *first_reading(desktop, other, home, park=park, scroll=scroll, watch=watch))
        except BoardNotVisibleError as exc:
            if exc.cut_edges:
                raise
    raise no_board_on_any([window, *others]) from None


def first_reading(
    desktop: DesktopSession,
    window: WindowRecord | None,
    home: Pointer,
    *,
    park: bool,
    scroll: bool = False,
    watch: Stopwatch | None = None,
) -> tuple[Frame, BoardReading]:
    """Grab and read; with `scroll`, scroll the board into view first; with `park` (a run that
    may click), read again with the pointer (found at `home`, or where the scroll left it) moved
    beside the board when it was over it (hover tints a cell, a pointer hides one). `watch`
    times the stages."""
    watch = watch or Stopwatch()
    with watch.stage("grab"):
        frame = grab(desktop, window)
    try:
        with watch.stage("read"):
            reading = read(frame)
    except BoardNotVisibleError as exc:
        if park and window is not None and _over(window, home):
            # the pointer's hover and tooltip over a big board can make it unreadable: read it
            # again with the pointer at the window's edge, before blaming anything else
            frame, reading = _read_with_the_pointer_away(desktop, window, frame, home, watch, scroll)
        elif not (scroll and window is not None):
            raise blame_window_over(desktop, window, exc) from None
        else:
            with watch.stage("scroll"):
                frame, reading = scroll_into_view(desktop, window)
    if window is not None and not reading.is_certain:
        # a window over the board read as part of it: name it, not the doubts it made (a certain
        # reading meets the same check just before the clicks)
        check_not_covered(board_on_screen(frame, reading), desktop.windows_above(window))
    if not park:
        return frame, reading
    pointer = desktop.placed or home  # where --scroll's wheel turns left it, else the user's
    return away_from_pointer(desktop, window, frame, reading, pointer, watch)


def away_from_pointer(
    desktop: DesktopSession, window: WindowRecord | None, frame: Frame, reading: BoardReading,
    pointer: Pointer, watch: Stopwatch,
) -> tuple[Frame, BoardReading]:
    """The board read again with the pointer moved beside it, when the pointer (at `pointer`)
    is over it: hover tints a cell, a pointer hides one. As it was otherwise."""
    if not pointer.on_screen:
        return frame, reading
    board = board_on_screen(frame, reading)
    if not board.grown(PARK_GAP).contains(pointer.x, pointer.y):
        return frame, reading
    if pointer == desktop.placed and not board.grown(PARK_GAP // 2).contains(pointer.x, pointer.y):
        # parked beside the board by an earlier run (`watch`), off the cells: no hover to wait out
        # (a board read a pixel off the last one would otherwise move it to its own park point)
        return frame, reading
    park = park_point(board, window.rect if window else None, desktop.monitors()[0].rect)
    desktop.move_pointer(*park)
    pitch = board.width / reading.n
    with watch.stage("grab"):
        frame = after_the_pointer_left(desktop, window, frame, Rect.around(
            pointer.x - 1.5 * pitch, pointer.y - 2.5 * pitch, 3 * pitch, 4 * pitch))
    with watch.stage("read"):
        reading = read(frame)
    return frame, reading


def _over(window: WindowRecord, pointer: Pointer) -> bool:
    return pointer.on_screen and window.rect.contains(pointer.x, pointer.y)


def _read_with_the_pointer_away(
    desktop: DesktopSession, window: WindowRecord, frame: Frame, pointer: Pointer, watch: Stopwatch,
    scroll: bool,
) -> tuple[Frame, BoardReading]:
    """No board could be read with the pointer over the window: read again once it rests
    at the window's left edge and the page has repainted where it was (`first_reading` then
    parks it beside the board, as ever, if the edge is on it)."""
    rect = window.rect
    desktop.move_pointer(rect.left + PARK_GAP // 2, pointer.y)
    with watch.stage("grab"):
        frame = after_the_pointer_left(desktop, window, frame, Rect.around(
            pointer.x - 60, pointer.y - 120, 120, 160))  # a cell or two of a big board, its tooltip
    try:
        with watch.stage("read"):
            return frame, read(frame)
    except BoardNotVisibleError as again:
        if not scroll:
            raise blame_window_over(desktop, window, again) from None
    with watch.stage("scroll"):
        return scroll_into_view(desktop, window)


def _window_showing(
    desktop: DesktopSession, frame: Frame, reading: BoardReading, options: Options
) -> WindowRecord | None:
    """--screen: the window the board is in, which must be a browser (or --any-window)."""
    board = board_on_screen(frame, reading)
    owner = desktop.window_at(board.left + board.width / 2, board.top + board.height / 2)
    if owner is None:
        if options.any_window:
            return None
        raise UnsafeToClick("the board is not in any window (the bare desktop?)")
    check_browser(owner, options.any_window)
    return owner


def _click_in_rounds(session: Session, found_at: float) -> RunResult:
    """Plan from the latest reading, click, check; again, slower, while the board differs.

    Every round plans from what the board shows now, never from an earlier plan; a refusal met
    after the first clicks says how many were made."""
    options, watch = session.options, session.watch
    frame, reading = session.frame, session.reading
    pace = Pace.for_desktop(options.delay, session.desktop.window_manager())
    rounds: list[Round] = []
    first_plan: ClickPlan | None = None
    total, last_click = 0, found_at

    def finish(outcome: RunOutcome) -> RunResult:
        return RunResult(frame=session.frame, reading=session.reading, solved=session.solved,
                         plan=first_plan, clicks=total, timings=dict(watch.seconds), outcome=outcome,
                         rounds=tuple(rounds), to_last_click=max(0.0, last_click - found_at))

    for number in range(1, options.rounds + 1):
        try:
            if number > 1:
                with watch.stage("read"):
                    frame, reading = session.read_again()
                pace = pace.slower()
            with watch.stage("plan"):
                clicks = plan(reading, session.solved, frame)
            if not len(clicks):
                return finish(RunOutcome.ALREADY_SOLVED if number == 1 else RunOutcome.SOLVED)
            first_plan = first_plan or clicks
            with watch.stage("click"):
                made = clicks_until_a_cell_changes(session, frame, reading, clicks, pace)
            total += made
        except ClickAborted as exc:  # the user took the mouse: say so, nothing about reading
            if total == 0:
                raise
            raise exc.after(total + exc.clicks, f"in round {number}") from None
        except QueensError as exc:
            if total == 0:
                raise
            wrong = rounds[-1].differences if rounds else ()
            raise stopped_after(exc, total, number - 1, wrong) from None
        last_click = time.perf_counter()
        park_beside_board(session)
        if not options.verify:
            rounds.append(Round(made, pace, ()))
            return finish(RunOutcome.UNVERIFIED)
        with watch.stage("verify"):
            after = session.after_clicks(reading.position(), made)
        rounds.append(Round(made, pace, after.differences))
        if after.shown is Shown.SOLUTION:
            return finish(RunOutcome.SOLVED)
        if after.shown is Shown.WIN_SCREEN:
            return finish(RunOutcome.WIN_SCREEN)
    return finish(RunOutcome.DIFFERS)


def clicks_until_a_cell_changes(
    session: Session, frame: Frame, reading: BoardReading, clicks: ClickPlan, pace: Pace
) -> int:
    """The round's clicks, made; how many. A cell that no longer shows what the round was planned
    from, the board otherwise unchanged (a page that took back its own X marks), ends the round
    early: the next round reads the board again and plans from what it shows."""
    try:
        return click(session.desktop, frame, reading, clicks, pace=pace, window=session.target)
    except CellChanged as exc:
        return exc.clicks


def stopped_after(exc: QueensError, clicks: int, rounds: int, differences: tuple[str, ...]) -> QueensError:
    """A refusal met after `clicks` clicks in `rounds` rounds: the error saying so (of the same type)."""
    wrong = f"; still wrong: {', '.join(differences[:4])}" if differences else ""
    context = (f"in {rounds} round(s): the board does not show the solution yet{wrong}; and it cannot be "
               "read again safely")
    if isinstance(exc, ClickStop):
        return exc.after(clicks, context)
    return type(exc)(f"stopped after {clicks} click(s) {context}: {exc}")


def park_beside_board(session: Session) -> None:
    """Move the pointer off the board, so the board is read again without hover."""
    if session.desktop.moved_by_someone_else() is not None:
        return  # the user has the mouse: the next round's clicks stop at once (click_plan)
    board = session.board_rect()
    window = session.target.rect if session.target else None
    session.desktop.move_pointer(*park_point(board, window, session.desktop.monitors()[0].rect))


def _dry_result(frame: Frame, reading: BoardReading, solved: Solved, watch: Stopwatch) -> RunResult:
    """What a dry run shows: the click plan, when the reading is certain and solves (an uncertain
    reading is never planned from: the report says why)."""
    clicks = None
    if solved.solution is not None and reading.is_certain:
        with watch.stage("plan"):
            clicks = plan(reading, solved, frame)
    return RunResult(frame=frame, reading=reading, solved=solved, plan=clicks, clicks=0,
                     timings=dict(watch.seconds), outcome=RunOutcome.DRY_RUN)


def _run_offline(source: Source) -> RunResult:
    """--image: read and solve a screenshot; planning shows the clicks, nothing is clicked."""
    watch = Stopwatch()
    assert source.image is not None
    with watch.stage("grab"):
        frame = load_image(source.image)
    with watch.stage("read"):
        reading = read(frame)
    with watch.stage("solve"):
        solved = solve(reading)
    return _dry_result(frame, reading, solved, watch)
