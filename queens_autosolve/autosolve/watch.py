"""`watch`: stay ready on the browser window and solve each fresh board the moment it shows.

A resident loop over one open desktop. Every `POLL` seconds it grabs a few one-point lines
across the window (`sample_lines`: half a millisecond of CPU) and compares them with the last
ones; only when they differ (or every `RECHECK_EVERY` seconds, when the whole window differs
from its last grab) does it read the whole window. A board read with certainty is then
judged (`judge_board`): a board it has met before (same size and regions) is left, a solved
one skipped, one the user has begun left alone (unless `take_over`), and a fresh one goes
through `run`'s whole closed loop with its safety rules (`pipeline.run_on_board`). The window
moved, resized, closed and opened again, the tab switched, the page reloaded, the screen locked
(another program holding the pointer): the loop finds the window again, or waits, and says what
it is waiting for meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from enum import Enum

import numpy as np

from queens_autosolve.autosolve.onscreen import board_on_screen, grab, other_monitors, read
from queens_autosolve.autosolve.pipeline import park_point, run_on_board
from queens_autosolve.autosolve.records import Options, RunResult, Source
from queens_autosolve.capture import DesktopSession, Frame, Rect, WindowRecord
from queens_autosolve.capture.desktop import KnowsPointerHeld
from queens_autosolve.capture.models import MONITOR_ROLE, FrameSource
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.position import CellState
from queens_autosolve.solver.puzzle import is_solution
from queens_autosolve.vision import BoardReading

POLL = 0.02  # s between two looks at the window's sample lines
# Lines across the window compared between looks, as fractions of its width (columns) and
# height (rows): a board shown, replaced or gone crosses them. Each line is one grab, about
# 0.15 ms of CPU: 12 rows 50 times a second took 9-11% of a core while the page held still.
COLUMNS = (0.25, 0.5, 0.75)
ROWS = (0.5,)
FIND_EVERY = 0.5  # s between two searches for a window that is not there
PLACE_EVERY = 0.5  # s between two questions where the window is, while its lines hold still
RECHECK_EVERY = 2.0  # s: the whole window grabbed, and read if it changed, even when the lines did not
READ_GAP, READ_GAP_MAX = 0.04, 0.25  # s between full reads that find nothing to act on: see read_gap
BOARD_MARGIN = 10  # the area read first: the last board's box grown by a tenth of its side (and 4 points)
UNCERTAIN_READS = 2  # uncertain reads of one change (the first may catch a paint) before park_beside


class Verdict(Enum):
    """What `watch` makes of a board it has read; the value says it for people."""

    UNCERTAIN = "the reading is not certain yet"
    SEEN = "met before"
    SOLVED = "already solved: skipped"
    BEGUN = "begun by hand: left alone (--take-over solves it)"
    FRESH = "fresh"


@dataclass(frozen=True)
class BoardKey:
    """A board told apart from another by its size and regions (the marks on it change)."""

    n: int
    regions: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, reading: BoardReading) -> BoardKey:
        return cls(reading.n, reading.regions)


def judge_board(reading: BoardReading, seen: Collection[BoardKey], *, take_over: bool = False) -> Verdict:
    """Whether a board read off the screen is one to solve now.

    Uncertain readings are never acted on; a board met before is never clicked again (solved,
    failed or left alone: the user decides what comes next); a solved board is skipped; one with
    the player's marks or queens on it is the user's game, unless `take_over`."""
    if not reading.is_certain:
        return Verdict.UNCERTAIN
    if BoardKey.of(reading) in seen:
        return Verdict.SEEN
    queens = reading.queens()
    if queens and is_solution(reading.puzzle(), queens):
        return Verdict.SOLVED
    played = any(state in (CellState.X, CellState.QUEEN) for row in reading.states for state in row)
    if played and not take_over:
        return Verdict.BEGUN
    return Verdict.FRESH


def sample_lines(
    area: Rect, columns: tuple[float, ...] = COLUMNS, rows: tuple[float, ...] = ROWS
) -> list[Rect]:
    """One-point-wide columns and one-point-high rows across `area`, at those fractions of its
    width and height."""
    if area.empty:
        return []
    return ([Rect(area.left + int(area.width * f), area.top, 1, area.height) for f in columns]
            + [Rect(area.left, area.top + int(area.height * f), area.width, 1) for f in rows])


@dataclass(frozen=True)
class Marks:
    """When `watch` met a board, on the wall clock (time.time(), s: another program, the page
    included, can set its own times beside these): the look that first saw the window change,
    the start and the end of the full read that found the board, and how many full reads that
    change took (more than one: the first caught the page still painting)."""

    changed: float
    read: float
    read_done: float
    reads: int

    def to_json(self) -> dict[str, float | int]:
        return {"changed": self.changed, "read": self.read, "read_done": self.read_done, "reads": self.reads}


@dataclass(frozen=True)
class BoardDone:
    """One board `watch` met and what came of it: `result` when it ran, `error` when the run
    stopped with a refusal (said in one line), neither for a board it only judged."""

    number: int
    n: int
    verdict: Verdict
    result: RunResult | None = None
    error: str | None = None
    status: int = 0  # run's exit status for this board
    marks: Marks | None = None

    def line(self) -> str:
        """The line `watch` prints for it."""
        head = f"board {self.number}: {self.n}x{self.n}"
        if self.error is not None:
            return f"{head}, stopped: {self.error}"
        if self.result is None:
            return f"{head}, {self.verdict.value}"
        r = self.result
        return (f"{head}, board shown -> last click {r.to_last_click * 1000:.0f} ms, "
                f"{len(r.rounds)} round(s), {r.clicks} click(s): {r.outcome.value}")

    def to_json(self) -> dict[str, object]:
        r = self.result
        return {
            "board": self.number, "n": self.n, "verdict": self.verdict.name.lower(), "status": self.status,
            "error": self.error,
            "outcome": None if r is None else r.outcome.name.lower(),
            "ok": None if r is None else r.ok,
            "to_last_click": None if r is None else r.to_last_click,
            "rounds": None if r is None else len(r.rounds),
            "clicks": None if r is None else r.clicks,
            "timings": None if r is None else r.timings,
            "marks": None if self.marks is None else self.marks.to_json(),
        }


@dataclass
class Tally:
    """The boards met so far, by what came of them (for the summary line)."""

    boards: list[BoardDone] = field(default_factory=list)

    def count(self, verdict: Verdict, ok: bool | None = None) -> int:
        return sum(1 for b in self.boards if b.verdict is verdict
                   and (ok is None or (b.result is not None and b.result.ok) == ok))

    def summary(self) -> str:
        solved = self.count(Verdict.FRESH, ok=True)
        failed = self.count(Verdict.FRESH) - solved
        return (f"watched {len(self.boards)} board(s): {solved} solved, {failed} not solved, "
                f"{self.count(Verdict.BEGUN)} left alone, {self.count(Verdict.SOLVED)} already solved")


@dataclass
class Watcher:
    """The loop's state: the desktop, the window it watches, the boards it has met."""

    desktop: DesktopSession
    source: Source
    options: Options
    take_over: bool = False
    say: Callable[[str], None] = print  # what it is waiting for, when that changes
    seen: set[BoardKey] = field(default_factory=set)
    tally: Tally = field(default_factory=Tally)
    window: WindowRecord | None = None
    _lines: list[np.ndarray] = field(default_factory=list)
    _whole: np.ndarray | None = None  # the window's pixels at the last recheck
    _waiting: str = ""
    _last_find: float = -1e9
    _last_placed: float = -1e9  # when the window was last asked after
    _last_read: float = -1e9
    _last_idle_read: float = -1e9  # the last full read that found nothing to act on
    _idle_reads: int = 0  # such reads in a row
    _due: bool = False  # a change seen and not yet read
    _still: bool = True  # the lines held still at the last look
    _changed_at: float = 0.0  # time.time() of the look that saw the change being read
    _reads: int = 0  # full reads since that change
    _parked: bool = False  # the pointer moved beside a board that read uncertain (once a board)
    _board: Rect | None = None  # where the last board met was, with a margin (screen points)
    _empty_since: float | None = None  # when a full read last began to find no board (None: it found one)
    _switched: float = -1e9  # when the look last went on to another monitor

    def wait(self, what: str) -> None:
        """Say what it is waiting for, once each time that changes."""
        if what != self._waiting:
            self._waiting = what
            self.say(f"waiting for {what}")

    def look(self) -> BoardDone | None:
        """One look at the window: the board met and what came of it, when one was new."""
        now = time.monotonic()
        self.go_on_to_another_monitor(now)
        asked = self._due or now - self._last_placed >= PLACE_EVERY
        area = self.area(ask=asked)
        if area is None:
            return None
        changed = self.lines_changed(area)
        if changed and self._still:
            self._idle_reads = 0  # a change after a still moment: read it at once
        self._still = not changed
        if not changed and now - self._last_read > RECHECK_EVERY:
            self._last_read = now
            changed = self.window_changed()
        if changed and not self._due:
            self._changed_at, self._reads = time.time(), 0
        self._due = self._due or changed
        if not self._due or now - self._last_idle_read < self.read_gap():
            return None
        if not asked and self.area() != area:  # moved, resized, hidden or gone since last asked after
            return None
        if isinstance(self.desktop, KnowsPointerHeld) and self.desktop.pointer_held_elsewhere():
            # the change stays due: read once the pointer is free again
            self.wait("the screen to be unlocked (another program holds the mouse: a screen locker, "
                      "or a drag under way)")
            return None
        found_at, read_at = time.perf_counter(), time.time()
        self._due, self._last_read = False, now
        frame, reading = self.read_now()
        self._reads += 1
        marks = Marks(self._changed_at, read_at, time.time(), self._reads)
        done = None if reading is None else self.meet(frame, reading, found_at, marks)
        if done is None:
            self._idle_reads, self._last_idle_read = self._idle_reads + 1, now
        else:
            self._idle_reads = 0
        return done

    def go_on_to_another_monitor(self, now: float) -> None:
        """Where the window stands for a monitor (the desktop lists no windows: wlroots without
        sway's IPC) and its reads have found no board for RECHECK_EVERY s, look at the next
        monitor from now on (each in turn): the browser may be on any of them. GNOME casts one
        monitor: there is no other."""
        window = self.window
        if window is None or window.role != MONITOR_ROLE or self._empty_since is None:
            return
        if now - max(self._empty_since, self._switched) < RECHECK_EVERY:
            return
        others = other_monitors(self.desktop, window)
        self._switched = now  # asked again RECHECK_EVERY from now (GNOME: never another), not every look
        if not others:
            return
        after = [other for other in others if other.wid > window.wid]
        self.window = min(after or others, key=lambda other: other.wid)
        self._lines, self._board, self._whole = [], None, None
        self._due = True

    def read_gap(self) -> float:
        """Seconds between two full reads while they find nothing to act on: READ_GAP for the
        first few, then twice as long each time (a page animating: a read takes 20-40 ms of
        CPU), up to READ_GAP_MAX."""
        return float(min(READ_GAP * 2 ** max(0, self._idle_reads - 2), READ_GAP_MAX))

    def area(self, ask: bool = True) -> Rect | None:
        """The screen area watched: the window as it is now (found again when it has gone), or
        without `ask`, where it was when last asked after (a window moved, resized, hidden or
        closed changes the sample lines, and the window is asked after before any read)."""
        if self.source.screen:
            return self.desktop.monitors()[0].rect
        if self.window is not None and not ask:
            return self.window.rect
        self._last_placed = time.monotonic()
        if self.window is not None:
            placement = self.desktop.placement(self.window)
            if placement is None:
                self.window, self._lines, self._board = None, [], None
            elif not placement.shown:
                self.wait(f"the window {self.window.title!r} to be shown again (it is minimised or hidden)")
                return None
            elif placement.rect != self.window.rect:
                self.window, self._lines, self._board = self.desktop.refresh(self.window), [], None
        if self.window is None:
            self.window = self.find()
        return None if self.window is None else self.window.rect

    def find(self) -> WindowRecord | None:
        now = time.monotonic()
        if now - self._last_find < FIND_EVERY:
            return None
        self._last_find = now
        try:
            return self.desktop.find_window(self.source.window, self.options.any_window)
        except QueensError as exc:
            self.wait(f"a browser window to play in ({exc})")
            return None

    def lines_changed(self, area: Rect) -> bool:
        """Whether the sample lines differ from the last look's (the first look: yes)."""
        lines = self.sample(area)
        if lines is None:
            return False
        changed = len(lines) != len(self._lines) or any(
            not np.array_equal(now, before) for now, before in zip(lines, self._lines))
        self._lines = lines
        return changed

    def sample(self, area: Rect) -> list[np.ndarray] | None:
        """The pixels of the sample lines across `area` (None: they could not be grabbed)."""
        try:
            return [np.array(self.desktop.grab(line, source=FrameSource.WINDOW).raw)
                    for line in sample_lines(area)]
        except QueensError:
            return None

    def window_changed(self) -> bool:
        """Whether the whole window differs from its last recheck (a change between the lines)."""
        try:
            whole = np.array(grab(self.desktop, None if self.source.screen else self.window).raw)
        except QueensError:
            return False
        changed = self._whole is None or not np.array_equal(whole, self._whole)
        self._whole = whole
        return changed

    def read_now(self) -> tuple[Frame, BoardReading | None]:
        """The board read where the last one was met (a fifth of the window's pixels: the next
        board of a game shows there), else the window grabbed and read; no reading when it
        shows no whole board."""
        window = None if self.source.screen else self.window
        if self._board is not None:
            source = FrameSource.SCREEN if window is None else FrameSource.WINDOW
            try:
                frame = self.desktop.grab(self._board, source=source, window=window)
                reading = read(frame)
                self._empty_since = None
                return frame, reading
            except QueensError:
                pass  # no whole board there (another size, the start screen): the whole window
        frame = grab(self.desktop, window)
        try:
            reading = read(frame)
        except QueensError:
            if self._empty_since is None:
                self._empty_since = time.monotonic()
            self.wait("a board (press Start, or bring the Queens tab to the front, the whole board in view"
                      f"{self._monitors_watched(window)})")
            return frame, None
        self._empty_since = None
        return frame, reading

    def _monitors_watched(self, window: WindowRecord | None) -> str:
        """For a record that stands for a monitor (no window list): which monitors `watch` looks at."""
        if window is None or window.role != MONITOR_ROLE:
            return ""
        if other_monitors(self.desktop, window):
            return "; watch looks at each monitor in turn"
        return f"; watch looks at {window.title} only: the browser must be on it"

    def meet(self, frame: Frame, reading: BoardReading, found_at: float, marks: Marks) -> BoardDone | None:
        verdict = judge_board(reading, self.seen, take_over=self.take_over)
        if verdict is Verdict.UNCERTAIN:
            self._due = True  # the page is still painting (or a pointer hovers it): read again
            if self._reads >= UNCERTAIN_READS and not self._parked:
                self.park_beside(frame, reading)
            return None
        self._parked = False
        board = board_on_screen(frame, reading)
        self._board = board.grown(max(board.width, board.height) // BOARD_MARGIN + 4).intersection(frame.rect)
        if verdict is Verdict.SEEN:
            self.wait("a new board")
            return None
        self.seen.add(BoardKey.of(reading))
        number = len(self.tally.boards) + 1
        done = BoardDone(number, reading.n, verdict, marks=marks)
        if verdict is Verdict.FRESH:
            done = replace(self.solve(frame, reading, found_at, number), marks=marks)
        self.tally.boards.append(done)
        self.take_as_seen()
        self._waiting = ""
        return done

    def take_as_seen(self) -> None:
        """The window as it shows now (the board just met, solved or left) becomes what the next
        looks compare with: it is read again only once something changes, not once more at the
        next look (a read is 15-40 ms of CPU, which the page's next board would wait for)."""
        area = self.area()
        self._lines = [] if area is None else self.sample(area) or []
        self._whole = None
        if area is not None:
            self.window_changed()

    def park_beside(self, frame: Frame, reading: BoardReading) -> None:
        """The pointer moved beside the board, once for a board that keeps reading uncertain: left
        where Start was pressed, it hovers a cell (tinted; on Wayland the cursor is in the grab
        too), and a Wayland desktop cannot say where a pointer it did not move is."""
        self._parked = True
        window = None if self.source.screen or self.window is None else self.window.rect
        self.desktop.move_pointer(*park_point(board_on_screen(frame, reading), window,
                                              self.desktop.monitors()[0].rect))

    def solve(self, frame: Frame, reading: BoardReading, found_at: float, number: int) -> BoardDone:
        """`run`'s closed loop on the board just read; a refusal is this board's, not the end."""
        window = None if self.source.screen else self.window
        if window is not None:
            window = self.desktop.refresh(window) or window
        try:
            # the pointer stays beside the board: put back on it (where Start was), it would hover
            # a cell of the next board, which must then wait for the page to repaint it
            result = run_on_board(self.desktop, self.source, self.options, window, frame, reading,
                                  found_at=found_at, put_back=False)
        except QueensError as exc:  # the user took the mouse, the page changed, a refusal
            return BoardDone(number, reading.n, Verdict.FRESH, error=str(exc), status=2)
        return BoardDone(number, reading.n, Verdict.FRESH, result=result, status=0 if result.ok else 1)
