"""The loopback server both pages share (`autosolve/web/http.py`) under requests that used to hurt
it: a difficulty a board size cannot have, a new puzzle too big to make in time or for a page
that has gone, stalled sockets holding every slot, other methods, over-long lines and bodies
whose numbers Python cannot read. Each gets a one-line JSON answer and the server stays up."""

from __future__ import annotations

import http.client
import json
import select
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.pages.two_player import GameServer
from queens_autosolve.solver import difficulty
from queens_autosolve.solver.coach import Tier, grade
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from tests.checks import present
from tests.live import post

FOUR = Puzzle.from_rows(["ABBB", "ABCC", "DDCC", "DDDD"], name="four")
FIVE = Puzzle.from_rows(["AAAAE", "ACCAE", "ACCEE", "DDCBB", "DDBBB"], name="five")


def get(server: PracticeServer, path: str) -> tuple[int, dict]:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def raw(server: PracticeServer | GameServer, data: bytes) -> tuple[bytes, dict]:
    """Send `data` as it is; the status line and the JSON body of the answer."""
    with socket.create_connection((server.host, server.port), timeout=30) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.split(b"\r\n", 1)[0], (json.loads(body) if body else {})


# --- new puzzles: only the difficulties a size has, bounded work --------------------------------


def test_a_4x4_page_offers_easy_only_and_a_hard_one_is_a_422_with_a_message(capsys):
    with PracticeServer(FOUR) as server:
        _, puzzle = get(server, "/api/puzzle")
        status, answer = post(server, "/api/new", {"difficulty": "hard"})
        easy, _ = post(server, "/api/new", {"difficulty": "easy"})
    assert puzzle["difficulties"] == ["easy"]
    assert status == 422 and answer["error"] == "a 4x4 board has no hard puzzles: choose easy"
    assert easy == 200
    assert capsys.readouterr().err == ""  # no traceback on the server's stderr


def test_a_board_too_big_to_make_a_new_one_in_time_offers_none_and_is_a_422():
    server = PracticeServer(FIVE)
    server.new_puzzle_max_size = 4  # as a 30x30 page against the real limit (20x20), without the wait
    with server:
        _, puzzle = get(server, "/api/puzzle")
        status, answer = post(server, "/api/new", {"difficulty": "easy"})
        unchanged = server.puzzle
    assert puzzle["difficulties"] == []  # the page hides its new-puzzle choice
    assert status == 422 and answer["error"].startswith("new puzzles on request go up to 4x4")
    assert "practice --size 5" in answer["error"] and unchanged is FIVE


def test_the_difficulties_offered_grow_with_the_size():
    assert [d.value for d in difficulty.offered(5)] == ["easy", "medium"]
    assert [d.value for d in difficulty.offered(6)] == ["easy", "medium", "hard"]
    assert len(difficulty.offered(4, k=2)) == 3  # star boards: no table, the time limit bounds them


@pytest.fixture
def never_hard(monkeypatch) -> list[float]:
    """Every board the generator makes grades easy, each after 50 ms: a search for a hard one
    runs until it is stopped. Returns the times of the grades made."""
    made: list[float] = []
    board = difficulty.generate_graded(5, difficulty.Difficulty.EASY, seed=1).puzzle
    easy = grade(board)
    assert easy.tier in (Tier.SINGLES, Tier.ONE_UNIT)

    def slow_grade(puzzle: Puzzle):
        time.sleep(0.05)
        made.append(time.monotonic())
        return easy

    monkeypatch.setattr(difficulty, "grade", slow_grade)
    monkeypatch.setattr(difficulty, "generate_puzzle", lambda n, k, rng, rule: board)
    return made


def test_a_search_past_the_servers_work_time_is_a_503_and_stops(never_hard):
    server = PracticeServer(generate_puzzle(8, rng=1))
    server.work_timeout = 0.3
    with server:
        status, answer = post(server, "/api/new", {"difficulty": "hard"})
    assert status == 503 and "no hard 8x8 puzzle found within 0.3 s" in answer["error"]
    assert len(never_hard) < difficulty.MAX_TRIES


def test_no_puzzle_among_the_seeds_is_a_422_not_a_500(never_hard, monkeypatch, capsys):
    monkeypatch.setattr(difficulty, "MAX_TRIES", 3)
    monkeypatch.setattr(difficulty.generate_graded, "__kwdefaults__",
                        {**present(difficulty.generate_graded.__kwdefaults__), "max_tries": 3})
    with PracticeServer(generate_puzzle(8, rng=1)) as server:
        status, answer = post(server, "/api/new", {"difficulty": "hard"})
    assert status == 422 and answer["error"].startswith("no hard 8x8 puzzle among the seeds tried")
    assert capsys.readouterr().err == ""


def test_the_search_stops_when_the_page_that_asked_hangs_up(never_hard):
    with PracticeServer(generate_puzzle(8, rng=1)) as server:
        body = json.dumps({"difficulty": "hard"}).encode()
        client = socket.create_connection((server.host, server.port), timeout=30)
        client.sendall(b"POST /api/new HTTP/1.0\r\nContent-Type: application/json\r\n"
                       + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        deadline = time.monotonic() + 30
        while not never_hard and time.monotonic() < deadline:  # the search has begun
            time.sleep(0.01)
        client.close()
        while time.monotonic() < deadline:  # until no grade has been made for a second
            last = never_hard[-1]
            time.sleep(1.0)
            if never_hard[-1] == last:
                break
        stopped_at = len(never_hard)
        time.sleep(0.3)
        assert len(never_hard) == stopped_at  # nothing more after
    # 200 tries of 50 ms would have taken 10 s: it stopped soon after the hang-up
    assert stopped_at < difficulty.MAX_TRIES


# --- stalled sockets -------------------------------------------------------------------------------


class Trickler:
    """`count` clients that each send a request line, then one header line every `gap` seconds,
    never the end of the headers; a client the server cuts off connects again."""

    def __init__(self, server: PracticeServer, count: int, gap: float) -> None:
        self.server, self.gap = server, gap
        self.stop = threading.Event()
        self.open = 0  # connections open now
        self.cut_off = 0  # connections the server closed or refused
        self.busy = 0  # of those, refused with a 503
        self._lock = threading.Lock()
        self.threads = [threading.Thread(target=self._client, daemon=True) for _ in range(count)]

    def __enter__(self) -> Trickler:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=10)

    def _client(self) -> None:
        while not self.stop.is_set():
            try:
                with socket.create_connection((self.server.host, self.server.port), timeout=5) as sock:
                    self._opened(1)
                    try:
                        self._trickle(sock)
                    finally:
                        self._opened(-1)
            except OSError:
                self._count(b"")

    def _trickle(self, sock: socket.socket) -> None:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
        while not self.stop.is_set():
            if select.select([sock], [], [], self.gap)[0]:  # an answer, or the close
                self._count(sock.recv(100))
                return
            sock.sendall(b"X-Slow: 1\r\n")

    def _opened(self, change: int) -> None:
        with self._lock:
            self.open += change

    def _count(self, answer: bytes) -> None:
        with self._lock:
            self.cut_off += 1
            self.busy += answer.startswith(b"HTTP/1.0 503")


def test_normal_requests_are_answered_while_stalled_sockets_hold_the_slots():
    server = PracticeServer(FIVE)
    server.max_connections, server.request_timeout = 6, 30.0
    with server, Trickler(server, count=6, gap=0.2) as trickler:
        deadline = time.monotonic() + 20
        while trickler.open < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        held = (trickler.open, trickler.cut_off)  # every slot held by a client sending headers
        with socket.create_connection((server.host, server.port), timeout=30) as another:
            another.sendall(b"GET /api/state HTTP/1.1\r\n")  # one more stalled client: no slot
            turned_away = another.recv(100)
        statuses = [get(server, "/api/state")[0] for _ in range(5)]
    assert held == (6, 0)
    assert turned_away.startswith(b"HTTP/1.0 503")  # stalled clients do not evict each other
    assert statuses == [200] * 5  # before: 503 for as long as the stalled clients stayed
    assert trickler.cut_off >= 1  # the normal clients took the slots of stalled ones


def test_a_connection_trickling_its_headers_is_cut_off_at_its_whole_request_deadline():
    server = PracticeServer(FIVE)
    server.request_timeout = 1.0
    with server, socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
        start = time.monotonic()
        closed = False
        while time.monotonic() - start < 20 and not closed:  # each read alone would never time out
            time.sleep(0.2)
            try:
                sock.sendall(b"X-Slow: 1\r\n")
                sock.settimeout(0.001)
                closed = sock.recv(100) == b""
            except TimeoutError:
                sock.settimeout(5)
            except OSError:
                closed = True
        took = time.monotonic() - start
    assert closed and took < 20


# --- methods, long lines, numbers -----------------------------------------------------------------


@pytest.fixture(scope="module", params=["practice", "game"])
def any_server(request) -> Iterator[PracticeServer | GameServer]:
    server = PracticeServer(FIVE) if request.param == "practice" else GameServer()
    with server:
        yield server


@pytest.mark.parametrize(("request_line", "status", "words"), [
    (b"PUT /api/state HTTP/1.0", b"405", "PUT is not used here"),
    (b"DELETE /api/state HTTP/1.0", b"405", "DELETE is not used here"),
    (b"OPTIONS / HTTP/1.0", b"405", "OPTIONS is not used here"),
    (b"FROB / HTTP/1.0", b"501", "FROB is not used here"),
    (b"GET /" + b"a" * 70_000 + b" HTTP/1.0", b"414", "the request line is too long"),
    (b"GET / HTTP/1.0\r\nX-Long: " + b"a" * 70_000, b"431", "Line too long"),
])
def test_other_methods_and_over_long_lines_are_answered_in_json(any_server, request_line, status, words):
    line, body = raw(any_server, request_line + b"\r\n\r\n")
    assert line.split(b" ")[1] == status and words in body["error"]


def test_head_is_get_without_the_body(any_server):
    line, body = raw(any_server, b"HEAD / HTTP/1.0\r\n\r\n")
    assert line.split(b" ")[1] == b"200" and body == {}


@pytest.mark.parametrize(("headers", "body", "words"), [
    (b"Content-Length: abc\r\n", b"", "Content-Length must be the body's size in bytes"),
    (b"Content-Length: " + b"9" * 5000 + b"\r\n", b"", "Content-Length must be the body's size in bytes"),
    (b"Content-Length: 5009\r\n", b'{"seq": ' + b"1" * 5000 + b"}", "a number with thousands of digits"),
    (b"Content-Length: 9\r\n", b'{"seq": }', "body is not JSON"),
])
def test_bad_bodies_say_what_is_wrong_without_pythons_words(headers, body, words):
    with PracticeServer(FIVE) as server:
        line, answer = raw(server, b"POST /api/state HTTP/1.0\r\nContent-Type: application/json\r\n" + headers
                           + b"\r\n" + body)
    assert line.split(b" ")[1] == b"400" and words in answer["error"]
    for internal in ("int()", "4300", "sys.set_int_max_str_digits", "literal"):
        assert internal not in answer["error"]
