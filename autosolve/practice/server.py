"""A local copy of the LinkedIn Queens page, served on loopback, to practise on and to test against.

`PracticeServer` serves the page (``static/``) for one puzzle and records what the page reports
after every change (``POST /api/state``), so a test can click the board on screen and then ask
the server what the board holds (`state`, `wait_for`).

HTTP API (JSON):

- ``GET /`` the page, with the puzzle embedded so it draws before the ``load`` event.
- ``GET /api/puzzle`` ``{n, k, rule, name, title, regions, region_ids, colours, locked,
  initial, dark}``: ``regions`` are label rows as in the text format, ``region_ids`` the region
  numbers, ``colours[i]`` the colour of region i, ``locked`` the pre-placed queens as [r, c],
  ``initial`` the starting marks (N strings of ``. x Q L``).
- ``POST /api/state`` from the page: ``{session, seq, states, queens, solved, moves, elapsed_ms}``.
- ``GET /api/state`` the last `PageState` as JSON.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

from solver.errors import QueensError
from solver.puzzle import Cell, Puzzle, is_solution

STATIC = Path(__file__).resolve().parent / "static"
PAGE_TITLE = "Queens | Practice"

# The LinkedIn palette, in the order regions get them (region i gets colour i).
REGION_COLOURS: tuple[str, ...] = (
    "#BBA3E2", "#FFC992", "#96BEFF", "#B3DFA0", "#DFDFDF", "#FF7B60", "#E6F388", "#B9B29E",
    "#DFA0BF", "#A3D2D8", "#62EFEA", "#FF93F3", "#8ACC6D", "#729AEC", "#C387E0", "#FFE04B",
    "#F0B27A", "#D7BDE2",
)

# Cell states as the page writes them: empty, X mark, player queen, locked (pre-placed) queen.
EMPTY, MARK, QUEEN, LOCKED = ".", "x", "Q", "L"
STATE_CHARS = frozenset(EMPTY + MARK + QUEEN + LOCKED)
_MAX_BODY = 1 << 16
_CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


@dataclass(frozen=True)
class PageState:
    """What the page showed at its last report.

    `states` holds one string per row, one character per cell: ``.`` empty, ``x`` X mark,
    ``Q`` player queen, ``L`` locked queen. `queens` are the Q and L cells in reading order;
    `solved` is judged here by the rules (`solver.puzzle.is_solution`), `page_solved` is what
    the page itself decided (they agree unless the page has a bug). `reports` counts the page's
    reports (0: no page has loaded yet); `updated_at` is the `time.time()` of the last one.
    """

    states: tuple[str, ...]
    queens: tuple[Cell, ...]
    solved: bool
    updated_at: float
    moves: int = 0
    reports: int = 0
    page_solved: bool = False
    elapsed_ms: int = 0

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["queens"] = [list(cell) for cell in self.queens]
        data["states"] = list(self.states)
        return data


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
    rows = list(initial) if initial is not None else [EMPTY * n] * n
    if len(rows) != n or any(len(row) != n for row in rows):
        raise QueensError(f"initial marks must be {n} strings of {n} characters")
    locked_set = set(locked)
    out = []
    for r, row in enumerate(rows):
        chars = []
        for c, ch in enumerate(row):
            ch = {"X": MARK, "q": QUEEN}.get(ch, ch)
            if ch not in STATE_CHARS:
                raise QueensError(f"initial mark {ch!r} at row {r + 1}, column {c + 1}: use . x Q")
            if ch == LOCKED and (r, c) not in locked_set:
                raise QueensError(f"initial mark L at row {r + 1}, column {c + 1} is not a locked cell")
            chars.append(LOCKED if (r, c) in locked_set else ch)
        out.append("".join(chars))
    return tuple(out)


def queens_in(states: Sequence[str]) -> tuple[Cell, ...]:
    """The queen cells (player or locked) of a board in reading order."""
    return tuple((r, c) for r, row in enumerate(states) for c, ch in enumerate(row) if ch in (QUEEN, LOCKED))


class PracticeServer:
    """Serve the practice page for `puzzle` on loopback and record the page's reports.

    >>> with PracticeServer(Puzzle.from_rows(["AAB", "ACB", "CCB"])) as server:  # doctest: +SKIP
    ...     print(server.url)        # open it in a browser, click the board
    ...     server.wait_for(solved=True, timeout=60)
    """

    def __init__(
        self,
        puzzle: Puzzle,
        *,
        port: int = 0,
        dark: bool = False,
        locked: Sequence[Cell] | None = None,
        initial: Sequence[str] | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        self.puzzle = puzzle
        self.dark = dark
        self.locked: tuple[Cell, ...] = tuple(sorted(set(puzzle.given if locked is None else locked)))
        for r, c in self.locked:
            if not (0 <= r < puzzle.n and 0 <= c < puzzle.n):
                raise QueensError(f"locked queen {r},{c} is outside the {puzzle.n}x{puzzle.n} board")
        self.initial = initial_states(puzzle, self.locked, initial)
        self.host, self.port = host, port
        self.colours = region_colours(puzzle)
        self._changed = threading.Condition()
        self._state = self._judge(self.initial, updated_at=0.0)
        self._page: tuple[str, int] = ("", -1)  # (session, seq) of the newest report taken
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> PracticeServer:
        """Bind and serve in a background thread. Raises QueensError when the port is taken."""
        if self._httpd is not None:
            return self
        try:
            httpd = ThreadingHTTPServer((self.host, self.port), _handler_for(self))
        except OSError as exc:
            raise QueensError(f"cannot serve on {self.host}:{self.port}: {exc.strerror or exc}") from None
        httpd.daemon_threads = True
        self._httpd = httpd
        self.port = httpd.server_address[1]
        self._thread = threading.Thread(target=httpd.serve_forever, name="practice-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and free the port."""
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> PracticeServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8123/``."""
        return f"http://{self.host}:{self.port}/"

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
        }

    def record(self, report: dict[str, object]) -> PageState:
        """Take a page report (the body of ``POST /api/state``); ValueError when malformed.

        Reports carry the page's (session, seq): an older report of the same page load,
        arriving late, is ignored; a new session (page reloaded) always wins.
        """
        states = _parse_states(report.get("states"), self.puzzle.n)
        locked = {(r, c) for r, row in enumerate(states) for c, ch in enumerate(row) if ch == LOCKED}
        if locked != set(self.locked):
            raise ValueError("the locked queens must be reported as L, and only they")
        session = str(report.get("session", ""))
        seq = _int_field(report, "seq")
        with self._changed:
            last_session, last_seq = self._page
            if session == last_session and seq <= last_seq:
                return self._state
            self._page = (session, seq)
            self._state = replace(
                self._judge(states, updated_at=time.time()),
                moves=_int_field(report, "moves"),
                reports=self._state.reports + 1,
                page_solved=bool(report.get("solved", False)),
                elapsed_ms=_int_field(report, "elapsed_ms"),
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


def _parse_states(value: object, n: int) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"states must be a list of {n} strings")
    for row in value:
        if not isinstance(row, str) or len(row) != n or not set(row) <= STATE_CHARS:
            raise ValueError(f"each state row must be {n} characters of . x Q L")
    return tuple(value)


def _int_field(report: dict[str, object], key: str) -> int:
    value = report.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{key} must be a number")
    return int(value)


def _static_files() -> dict[str, Path]:
    """Files the server may send, by URL path: only what ships in ``static/``."""
    return {
        f"/{path.name}": path
        for path in STATIC.iterdir()
        if path.is_file() and path.suffix in _CONTENT_TYPES
    }


def _handler_for(server: PracticeServer) -> type[BaseHTTPRequestHandler]:
    files = _static_files()

    class Handler(BaseHTTPRequestHandler):
        server_version = "QueensPractice/1"

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                self._send(HTTPStatus.OK, server.render_index(), _CONTENT_TYPES[".html"])
            elif path == "/api/puzzle":
                self._send_json(server.puzzle_json())
            elif path == "/api/state":
                self._send_json(server.state().to_json())
            elif path in files:
                body = files[path].read_bytes()
                self._send(HTTPStatus.OK, body, _CONTENT_TYPES[files[path].suffix])
            else:
                self._send_json({"error": f"no such page: {path}"}, HTTPStatus.NOT_FOUND)

        def do_POST(self) -> None:  # noqa: N802
            if self.path.split("?", 1)[0] != "/api/state":
                self._send_json({"error": "not found"}, HTTPStatus.NOT_FOUND)
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
                if not 0 < length <= _MAX_BODY:
                    raise ValueError("body missing or too large")
                report = json.loads(self.rfile.read(length))
                if not isinstance(report, dict):
                    raise ValueError("body must be a JSON object")
                state = server.record(report)
            except ValueError as exc:  # json.JSONDecodeError is a ValueError
                self._send_json({"error": str(exc)}, HTTPStatus.BAD_REQUEST)
                return
            self._send_json({"ok": True, "solved": state.solved})

        def _send_json(self, data: object, status: HTTPStatus = HTTPStatus.OK) -> None:
            self._send(status, json.dumps(data).encode("utf-8"), "application/json")

        def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass  # a request log on every click would drown the CLI's output

    return Handler
