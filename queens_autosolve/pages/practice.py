"""A local copy of the LinkedIn Queens page, served on loopback, to practise on and to test against.

`PracticeServer` serves the page (``static/``) for one puzzle and records what the page reports
after every change (``POST /api/state``), so a test can click the board on screen and then ask
the server what the board holds (`state`, `wait_for`).

HTTP API (JSON):

- ``GET /`` the page, with the puzzle embedded so it draws before the ``load`` event.
- ``GET /api/puzzle`` ``{n, k, rule, name, title, regions, region_ids, colours, locked,
  initial, dark, options}``: ``regions`` are label rows as in the text format, ``region_ids`` the
  region numbers, ``colours[i]`` the colour of region i, ``locked`` the pre-placed queens as
  [r, c], ``initial`` the starting marks (N strings of ``. x Q L``), ``options`` the
  `PageOptions` (how the page behaves: win screen, dropped presses, zoom, ...).
- ``POST /api/state`` from the page: ``{session, seq, states, queens, solved, moves, elapsed_ms,
  dropped, win_shown}``. Only the page itself may write: the request must be
  ``Content-Type: application/json`` (else 415) from a loopback Origin of this server or none
  (else 403), so another web page open in the same browser cannot.
- ``GET /api/state`` the last `PageState` as JSON.
- ``POST /api/next`` (the page's "Next puzzle", with `PageOptions.start_screen`): the next
  board, without a page load: the next of the server's `next_puzzles`, else a new puzzle of the
  same size; answers the new ``GET /api/puzzle`` body. Reports carry the board's number
  (``board``): one about an earlier board, arriving late, is ignored.
- ``POST /api/hint`` ``{states}`` (the board as the page shows it): the coach's advice on it
  (`solver.coach`), ``{mistakes: [...], step: {rule, tier, cells, marks, queen, text} | null,
  solved}``; the page's Hint button shows it.
- ``POST /api/new`` ``{difficulty}`` (easy, medium or hard): a new puzzle of the same size and
  that difficulty (`solver.difficulty`) replaces this one; the page then reloads. A difficulty
  the size cannot have (``GET /api/puzzle`` lists those it can: ``difficulties``) is a 422;
  the search gives up with a 503 after the server's `work_timeout` seconds, and stops as soon
  as the page that asked has gone.

Bad requests cannot hurt the server (the loopback stack it shares with the Queens Game page,
`autosolve.web.http`): each connection has a time limit, at most
`PracticeServer.max_connections` are served at once (the rest get a 503), and a malformed
report (bad JSON, 1e999, 30,000-deep nesting, ...) is a 400, never a traceback.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING

from queens_autosolve.pages.http import HttpError, LoopbackServer, Request, Response, Routes, json_response
from queens_autosolve.pages.http import parse_json_object as parse_report
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.position import LETTERS, CellState, Position, StatesError, state_rows
from queens_autosolve.solver.puzzle import Cell, Puzzle, cell_name, is_solution

if TYPE_CHECKING:  # the generator and the coach load only when a page asks for a new puzzle
    from queens_autosolve.solver.difficulty import Difficulty

STATIC = Path(__file__).resolve().parent / "practice_static"
PAGE_TITLE = "Queens | Practice"

# The LinkedIn palette, in the order regions get them (region i gets colour i).
REGION_COLOURS: tuple[str, ...] = (
    "#BBA3E2", "#FFC992", "#96BEFF", "#B3DFA0", "#DFDFDF", "#FF7B60", "#E6F388", "#B9B29E",
    "#DFA0BF", "#A3D2D8", "#62EFEA", "#FF93F3", "#8ACC6D", "#729AEC", "#C387E0", "#FFE04B",
    "#F0B27A", "#D7BDE2",
)

_MAX_COUNT = 1 << 53  # seq, moves, ...: beyond what a page can count (a JS number's exact range)


@dataclass(frozen=True)
class PageState:
    """What the page showed at its last report.

    `states` holds one string per row, one character per cell: ``.`` empty, ``x`` X mark,
    ``Q`` player queen, ``L`` locked queen. `queens` are the Q and L cells in reading order;
    `solved` is judged here by the rules (`solver.puzzle.is_solution`), `page_solved` is what
    the page itself decided (they agree unless the page has a bug). `reports` counts the page's
    reports (0: no page has loaded yet); `updated_at` is the `time.time()` of the last one.
    `dropped` counts the presses the page ignored (``drop_gap_ms``); `win_shown` is whether
    its win screen (dialog or results card) is on.
    """

    states: tuple[str, ...]
    queens: tuple[Cell, ...]
    solved: bool
    updated_at: float
    moves: int = 0
    reports: int = 0
    page_solved: bool = False
    elapsed_ms: int = 0
    dropped: int = 0
    win_shown: bool = False
    # With the start screen: the board's number (0 first, +1 per "Next puzzle"), whether it is
    # shown, and on the page's own clock (performance.now(), ms) when it was first painted and
    # when a press solved it (None: not yet).
    board: int = 0
    started: bool = False
    shown_ms: float | None = None
    solved_ms: float | None = None
    presses: int = 0  # presses on this board, those a solved board ignores included
    first_press_ms: float | None = None  # the page's clock, as shown_ms
    # performance.timeOrigin: the page's clock at 0, in ms since the epoch (to set another
    # program's time.time() beside the page's times)
    time_origin_ms: float | None = None

    @property
    def shown_to_solved_ms(self) -> float | None:
        """The page's own time from the board first painted to the press that solved it."""
        if self.shown_ms is None or self.solved_ms is None:
            return None
        return self.solved_ms - self.shown_ms

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["queens"] = [list(cell) for cell in self.queens]
        data["states"] = list(self.states)
        return data


WIN_SCREENS = ("dialog", "card", "replace", "none")
INPUT_MODES = ("pointer", "click")
ZOOM_RANGE = (0.5, 2.0)
_MAX_DELAY_MS = 60_000


@dataclass(frozen=True)
class PageOptions:
    """How the practice page behaves, to show conditions the real Queens page shows.

    - `win_screen`: what a solve brings up, as on the real page: ``"dialog"`` a results card
      over the board (dimmed backdrop, a close button brings the solved board back),
      ``"card"`` LinkedIn's win dialog over a big board: a results card over the middle of the
      board with no backdrop, its edges through rows and columns (the cells they cut are partly
      covered, the rest of the board shows as it is),
      ``"replace"`` a results card in place of the board, ``"none"`` only the banner. It comes
      when a press solves the board, `win_delay_ms` after it (the real page animates first; 0:
      in the same paint as the solving press, so the solved board never shows without it),
      not when the page loads with a solved board.
    - `drop_gap_ms`: a busy page: a press less than this many ms after the last accepted one is
      ignored (and counted in `PageState.dropped`).
    - `busy_ms`: a slow page: each press keeps the page's main thread busy this long (a heavy
      page on a slow machine); presses that come meanwhile wait, and so does the repaint.
    - `thin_borders`: region borders 1 px, a darker cell line (the real page at 67% zoom).
    - `zoom`: the whole page zoomed as by the browser's own zoom (0.5 .. 2.0).
    - `buttons`: five round cell-sized buttons right under the board (the clone's controls).
    - `input_mode`: act on ``"pointer"`` down, or on ``"click"`` (a React onClick page).
    - `tooltip_ms`: a pointer resting this long on a cell brings up a tooltip over the cells
      above it saying what a press makes of it ("Queen", "X", "Clear"), as the real page's
      does; 0: none. (The hovered cell is darkened on every page, as on the real one.)
    - `letters`: each empty cell shows its region's letter (A, B, ...) in its middle, as the real
      page's accessibility option does; a mark takes its place.
    - `strict_clicks`: a press acts at its pointerup, and only when its cell still shows the state
      its pointerdown saw: the second press of a pair whose pointerdown comes before the first's
      pointerup is dropped (counted in `PageState.dropped`), as the real page seems to do.
    - `start_screen`: LinkedIn's flow: the board hidden behind a Start button until it is
      pressed, the timer running from when the board shows, and a "Next puzzle" button that
      shows another board without a page load (``POST /api/next``).
    """

    win_screen: str = "dialog"
    win_delay_ms: int = 0
    drop_gap_ms: int = 0
    busy_ms: int = 0
    thin_borders: bool = False
    zoom: float = 1.0
    buttons: bool = False
    input_mode: str = "pointer"
    tooltip_ms: int = 0
    letters: bool = False
    strict_clicks: bool = False
    start_screen: bool = False

    def __post_init__(self) -> None:
        if self.win_screen not in WIN_SCREENS:
            raise QueensError(f"win screen {self.win_screen!r}: use one of {', '.join(WIN_SCREENS)}")
        if self.input_mode not in INPUT_MODES:
            raise QueensError(f"input mode {self.input_mode!r}: use one of {', '.join(INPUT_MODES)}")
        _check_ms("win delay", self.win_delay_ms)
        _check_ms("drop gap", self.drop_gap_ms)
        _check_ms("busy time", self.busy_ms)
        _check_ms("tooltip delay", self.tooltip_ms)
        low, high = ZOOM_RANGE
        zoom = self.zoom
        if isinstance(zoom, bool) or not isinstance(zoom, (int, float)) or not low <= zoom <= high:
            raise QueensError(f"zoom {zoom!r}: use a number from {low:g} to {high:g} (1 is 100%)")
        for name in ("thin_borders", "buttons", "letters", "strict_clicks", "start_screen"):
            if not isinstance(getattr(self, name), bool):
                raise QueensError(f"{name} {getattr(self, name)!r}: use True or False")

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def _check_ms(what: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MAX_DELAY_MS:
        raise QueensError(f"{what} {value!r}: use whole milliseconds from 0 to {_MAX_DELAY_MS}")


class PracticeTimeout(TimeoutError):
    """`wait_for` ran out of time; `state` is the last state the page reported."""

    def __init__(self, message: str, state: PageState) -> None:
        super().__init__(message)
        self.state = state


def region_colours(puzzle: Puzzle) -> list[str]:
    """The colour of each region: region i gets palette colour i.

    Beyond the palette's 18 colours, a region takes the least-used colour that none of its
    neighbouring regions has yet (deterministic: regions in number order).
    """
    count = puzzle.region_count
    if count <= len(REGION_COLOURS):
        return list(REGION_COLOURS[:count])
    adjacent = _adjacent_regions(puzzle)
    chosen: list[int] = []
    used = [0] * len(REGION_COLOURS)
    for region in range(count):
        taken = {chosen[other] for other in adjacent[region] if other < region}
        free = [i for i in range(len(REGION_COLOURS)) if i not in taken] or list(range(len(REGION_COLOURS)))
        pick = min(free, key=lambda i: (used[i], i))
        chosen.append(pick)
        used[pick] += 1
    return [REGION_COLOURS[i] for i in chosen]


def _adjacent_regions(puzzle: Puzzle) -> list[set[int]]:
    n, grid = puzzle.n, puzzle.regions
    adjacent: list[set[int]] = [set() for _ in range(puzzle.region_count)]
    for r in range(n):
        for c in range(n):
            for rr, cc in ((r + 1, c), (r, c + 1)):
                if rr < n and cc < n and grid[rr][cc] != grid[r][c]:
                    adjacent[grid[r][c]].add(grid[rr][cc])
                    adjacent[grid[rr][cc]].add(grid[r][c])
    return adjacent


def initial_states(puzzle: Puzzle, locked: Sequence[Cell], initial: Sequence[str] | None) -> tuple[str, ...]:
    """The starting board: `initial` marks (``.``, ``x``, ``Q``; ``X``/``q`` accepted) with the
    locked cells as ``L``. Raises QueensError when `initial` does not fit the board."""
    n = puzzle.n
    try:
        shown = Position.empty(n) if initial is None else Position.from_rows(initial, n)
    except StatesError as exc:
        raise QueensError(f"initial marks: {exc}") from None
    stray = sorted(cell for cell in shown.queens - set(locked) if shown.state_at(cell) is CellState.LOCKED)
    if stray:
        raise QueensError(f"initial mark L at {cell_name(stray[0])} is not a locked cell")
    grid = [list(row) for row in shown.states]
    for r, c in locked:
        grid[r][c] = CellState.LOCKED
    return tuple(state_rows(grid))


def queens_in(states: Sequence[str]) -> tuple[Cell, ...]:
    """The queen cells (player or locked) of a board in reading order."""
    return tuple(sorted(Position.from_rows(states).queens))


class PracticeServer(LoopbackServer):
    """Serve the practice page for `puzzle` on loopback and record the page's reports.

    >>> with PracticeServer(Puzzle.from_rows(["AAB", "ACB", "CCB"])) as server:  # doctest: +SKIP
    ...     print(server.url)        # open it in a browser, click the board
    ...     server.wait_for(solved=True, timeout=60)

    The keywords from `win_screen` on are the `PageOptions` (QueensError when out of range).
    `request_timeout` (seconds a connection may take), `work_timeout` (seconds a new puzzle may
    take), `max_connections` (served at once) and `new_puzzle_max_size` may be set on an
    instance before `start` (see `LoopbackServer`).
    """

    # The largest board the page makes a new puzzle for on request: larger ones take too long to
    # grade (docs/notes.md).
    new_puzzle_max_size: int = 20

    def __init__(
        self,
        puzzle: Puzzle,
        *,
        port: int = 0,
        dark: bool = False,
        locked: Sequence[Cell] | None = None,
        initial: Sequence[str] | None = None,
        host: str = "127.0.0.1",
        win_screen: str = "dialog",
        win_delay_ms: int = 0,
        drop_gap_ms: int = 0,
        busy_ms: int = 0,
        thin_borders: bool = False,
        zoom: float = 1.0,
        buttons: bool = False,
        input_mode: str = "pointer",
        tooltip_ms: int = 0,
        letters: bool = False,
        strict_clicks: bool = False,
        start_screen: bool = False,
        next_puzzles: Sequence[Puzzle] = (),
    ) -> None:
        self.puzzle = puzzle
        self.board = 0  # which board the page shows: +1 per "Next puzzle" (start_screen)
        self.next_puzzles = list(next_puzzles)
        self.dark = dark
        self.options = PageOptions(
            win_screen=win_screen, win_delay_ms=win_delay_ms, drop_gap_ms=drop_gap_ms, busy_ms=busy_ms,
            thin_borders=thin_borders, zoom=zoom, buttons=buttons, input_mode=input_mode,
            tooltip_ms=tooltip_ms, letters=letters, strict_clicks=strict_clicks, start_screen=start_screen,
        )
        self.locked: tuple[Cell, ...] = tuple(sorted(set(puzzle.given if locked is None else locked)))
        for r, c in self.locked:
            if not (0 <= r < puzzle.n and 0 <= c < puzzle.n):
                raise QueensError(f"locked queen {r},{c} is outside the {puzzle.n}x{puzzle.n} board")
        self.initial = initial_states(puzzle, self.locked, initial)
        self.colours = region_colours(puzzle)
        self._changed = threading.Condition()
        self._state = self._judge(self.initial, updated_at=0.0)
        self._page: tuple[str, int] = ("", -1)  # (session, seq) of the newest report taken
        super().__init__(self._routes(), host=host, port=port, name="practice-server",
                         server_version="QueensPractice/1", noun="report")

    def _routes(self) -> Routes:
        routes = Routes()
        routes.page(STATIC, self.render_index)
        routes.get("/api/puzzle", lambda request: json_response(self.puzzle_json()))
        routes.get("/api/state", lambda request: json_response(self.state().to_json()))
        routes.post("/api/state", self._take_report)
        routes.post("/api/hint", self._hint)
        routes.post("/api/new", self._new_puzzle)
        routes.post("/api/next", lambda request: json_response(self.next_board()))
        return routes

    def _hint(self, request: Request) -> Response:
        from queens_autosolve.solver.coach import CoachError, advise  # the page's Hint button only
        from queens_autosolve.vision.colour_names import hex_rgb, region_colour_names

        shown_position = _parse_position(parse_report(request.body).get("states"), self.puzzle.n)
        # The page shows regions in colours, not letters: the hint names them so.
        names = region_colour_names([hex_rgb(c) for c in self.colours])
        shown = self.puzzle if names is None else self.puzzle.with_colour_names(names)
        try:
            advice = advise(shown, shown_position)
        except CoachError as exc:
            raise ValueError(str(exc)) from None
        return json_response(advice.to_json())

    def _new_puzzle(self, request: Request) -> Response:
        """A new puzzle of the difficulty asked for: refused (422) when this size has none, given
        up (503) at the server's `work_timeout`, and dropped when the page goes away."""
        from queens_autosolve.solver.difficulty import (
            Difficulty,
            GradingStopped,
            generate_graded,
            random_seed,
        )

        n, choices = self.puzzle.n, self.difficulties()
        names = " or ".join(d.value for d in choices)
        value = parse_report(request.body).get("difficulty")
        try:
            difficulty = Difficulty(value)
        except ValueError:
            raise ValueError("difficulty must be easy, medium or hard") from None
        if n > self.new_puzzle_max_size:
            raise HttpError(HTTPStatus.UNPROCESSABLE_ENTITY,
                            f"new puzzles on request go up to {self.new_puzzle_max_size}x"
                            f"{self.new_puzzle_max_size} (a {n}x{n} one takes a minute or more): "
                            f"start `queens-autosolve practice --size {n}` again for another")
        if difficulty not in choices:
            raise HttpError(HTTPStatus.UNPROCESSABLE_ENTITY,
                            f"a {n}x{n} board has no {difficulty.value} puzzles: choose {names}")
        try:
            graded = generate_graded(n, difficulty, k=self.puzzle.k, seed=random_seed(),
                                     rule=self.puzzle.rule, stop=request.cancelled)
        except GradingStopped:
            raise HttpError(HTTPStatus.SERVICE_UNAVAILABLE,
                            f"no {difficulty.value} {n}x{n} puzzle found within {self.work_timeout:g} s: "
                            "try again, or another difficulty") from None
        except QueensError:
            raise HttpError(HTTPStatus.UNPROCESSABLE_ENTITY,
                            f"no {difficulty.value} {n}x{n} puzzle among the seeds tried: choose another "
                            "difficulty") from None
        self.replace_puzzle(graded.puzzle)
        return json_response({"ok": True, "name": graded.puzzle.name, "grade": graded.grade.to_json()})

    def difficulties(self) -> tuple[Difficulty, ...]:
        """The difficulties the page offers for a new puzzle: those its size can have, none above
        `new_puzzle_max_size`."""
        from queens_autosolve.solver.difficulty import (
            offered,  # the generator and the coach: only once a page asks
        )

        return offered(self.puzzle.n, self.puzzle.k) if self.puzzle.n <= self.new_puzzle_max_size else ()

    def replace_puzzle(self, puzzle: Puzzle) -> None:
        """Serve `puzzle` from now on, from an empty board (the page reloads to show it)."""
        with self._changed:
            self.puzzle = puzzle
            self.locked = tuple(sorted(set(puzzle.given)))
            self.initial = initial_states(puzzle, self.locked, None)
            self.colours = region_colours(puzzle)
            self._state = self._judge(self.initial, updated_at=0.0)
            self._page = ("", -1)
            self._changed.notify_all()

    def next_board(self) -> dict[str, object]:
        """The page's "Next puzzle": the next of `next_puzzles`, else a new one of this size
        (a second or less up to 20x20); the page draws it in place. Returns its puzzle JSON."""
        if self.next_puzzles:
            puzzle = self.next_puzzles.pop(0)
        else:
            from queens_autosolve.solver.difficulty import random_seed
            from queens_autosolve.solver.generator import generate_puzzle

            puzzle = generate_puzzle(self.puzzle.n, self.puzzle.k, rng=random_seed(), rule=self.puzzle.rule)
        with self._changed:
            self.replace_puzzle(puzzle)
            self.board += 1
            self._state = replace(self._state, board=self.board, started=True)
            return self.puzzle_json()

    def _take_report(self, request: Request) -> Response:
        state = self.record(parse_report(request.body))
        return json_response({"ok": True, "solved": state.solved})

    # --- what the page reported ------------------------------------------------------------

    def state(self) -> PageState:
        """The board as the page last reported it (the initial board before any report)."""
        with self._changed:
            return self._state

    def wait_for(
        self,
        predicate: Callable[[PageState], bool] | None = None,
        *,
        solved: bool = True,
        timeout: float = 10.0,
    ) -> PageState:
        """Block until `predicate(state)` holds (default: until ``state.solved == solved``).

        Returns the first state that satisfies it; raises `PracticeTimeout` (a TimeoutError
        carrying the last state) after `timeout` seconds.
        """
        test = predicate or (lambda s: s.solved == solved)
        deadline = time.monotonic() + timeout
        with self._changed:
            while not test(self._state):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise PracticeTimeout(f"page state did not match within {timeout:g}s", self._state)
                self._changed.wait(left)
            return self._state

    def wait_for_page(self, timeout: float = 20.0) -> PageState:
        """Block until a page has loaded and reported its board (after this, clicks count)."""
        return self.wait_for(lambda s: s.reports > 0, timeout=timeout)

    def puzzle_json(self) -> dict[str, object]:
        """The body of ``GET /api/puzzle``."""
        p = self.puzzle
        tokens = any(len(label) != 1 for label in p.labels)
        rows = [" ".join(row) if tokens else "".join(row) for row in p.label_rows()]
        return {
            "n": p.n,
            "k": p.k,
            "rule": p.rule,
            "name": p.name,
            "title": PAGE_TITLE,
            "regions": rows,
            "region_ids": [list(row) for row in p.regions],
            "colours": self.colours,
            "locked": [list(cell) for cell in self.locked],
            "initial": list(self.initial),
            "dark": self.dark,
            "options": self.options.to_json(),
            "difficulties": [d.value for d in self.difficulties()],
            "grade": self.grade_json(),
            "board": self.board,
            "letters": LETTERS,
        }

    def grade_json(self) -> dict[str, str] | None:
        """A puzzle made on request: its difficulty and its hardest step (from its header), for
        the page to show; None for others."""
        difficulty, short = self.puzzle.meta.get("difficulty"), self.puzzle.meta.get("grade")
        if not difficulty or not short:
            return None
        from queens_autosolve.solver.coach import Tier

        tier = next((t for t in Tier if t.short == short), None)
        return {"difficulty": difficulty, "tier": short, "tier_name": tier.title if tier else short}

    def record(self, report: dict[str, object]) -> PageState:
        """Take a page report (the body of ``POST /api/state``); ValueError when malformed.

        Reports carry the page's (session, seq): an older report of the same page load,
        arriving late, is ignored; a new session (page reloaded) always wins.
        """
        position = _parse_position(report.get("states"), self.puzzle.n)
        states = tuple(position.rows())
        locked = {cell for cell in position.queens if position.state_at(cell) is CellState.LOCKED}
        if locked != set(self.locked):
            raise ValueError("the locked queens must be reported as L, and only they")
        session = str(report.get("session", ""))
        seq = _int_field(report, "seq")
        with self._changed:
            if "board" in report and _int_field(report, "board") != self.board:
                return self._state  # about a board the page has since replaced
            last_session, last_seq = self._page
            if session == last_session and seq <= last_seq:
                return self._state
            self._page = (session, seq)
            self._state = replace(
                self._judge(states, updated_at=time.time()),
                moves=_int_field(report, "moves"),
                reports=self._state.reports + 1,
                page_solved=report.get("solved", False) is True,
                elapsed_ms=_int_field(report, "elapsed_ms"),
                dropped=_int_field(report, "dropped"),
                win_shown=report.get("win_shown", False) is True,
                board=self.board,
                started=report.get("started", True) is not False,
                shown_ms=_ms_field(report, "shown_ms"),
                solved_ms=_ms_field(report, "solved_ms"),
                presses=_int_field(report, "presses"),
                first_press_ms=_ms_field(report, "first_press_ms"),
                time_origin_ms=_ms_field(report, "time_origin_ms"),
            )
            self._changed.notify_all()
            return self._state

    def _judge(self, states: tuple[str, ...], *, updated_at: float) -> PageState:
        queens = queens_in(states)
        return PageState(states, queens, is_solution(self.puzzle, queens), updated_at)

    def render_index(self) -> bytes:
        """The page with the puzzle embedded (so it draws without waiting for a fetch)."""
        page = (STATIC / "index.html").read_text(encoding="utf-8")
        # "</" inside a <script> block would end it early; JSON allows the escaped form.
        data = json.dumps(self.puzzle_json()).replace("</", "<\\/")
        page = page.replace("__PUZZLE_JSON__", data).replace("__TITLE__", PAGE_TITLE)
        if self.dark:
            page = page.replace('<html lang="en">', '<html lang="en" class="dark">', 1)
        return page.encode("utf-8")


def _parse_position(value: object, n: int) -> Position:
    if not isinstance(value, list) or len(value) != n or not all(isinstance(row, str) for row in value):
        raise ValueError(f"states must be a list of {n} strings")
    try:
        return Position.from_rows(value, n)
    except StatesError as exc:
        raise ValueError(str(exc)) from None


def _int_field(report: dict[str, object], key: str) -> int:
    value = report.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{key} must be a number")
    # 1e999 parses as inf (int() would raise OverflowError); 10**400 is an int too big to mean anything.
    if (isinstance(value, float) and not math.isfinite(value)) or abs(value) > _MAX_COUNT:
        raise ValueError(f"{key} must be a number below 2**53")
    return int(value)


def _ms_field(report: dict[str, object], key: str) -> float | None:
    """A time on the page's clock (ms), or None when the page has none yet."""
    value = report.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= _MAX_COUNT:
        raise ValueError(f"{key} must be a time in ms from 0 to 2**53, or null")
    return float(value)
