"""A small hardened HTTP server for pages served on loopback: routes per method and path, JSON
in and out, and the limits that keep a bad client from hurting it.

`LoopbackServer` serves a `Routes` table in a background thread. Every answer it writes itself
is JSON with a one-line ``{"error": ...}`` body:

- a POST must be ``Content-Type: application/json`` (else 415) from a loopback Origin of this
  server or none (else 403), so another web page open in the same browser cannot write; its
  body must be present and at most `LoopbackServer.max_body` bytes (else 400);
- a handler's `ValueError` is a 400 and an `HttpError` its own status (404 for an unknown
  game, ...); a path nobody registered is a 404;
- each connection has a deadline for its whole request (`request_timeout`: a client trickling
  a header line now and then is cut off at it), at most `max_connections` are served at once,
  and when all are taken a new client that has sent its whole request head takes the slot of
  the one that has been sending its request the longest (a normal request takes milliseconds),
  so stalled sockets cannot lock out the page; any other gets a 503. A handler's long work
  (`Request.cancelled`) stops at the deadline `work_timeout` or when its client hangs up,
  and a client that hangs up leaves no traceback;
- other methods (HEAD is GET without the body) get a 405, and http.server's own refusals (an
  unknown method, an over-long URL or header, a malformed request line) are JSON too.

>>> routes = Routes()
>>> routes.get("/api/hello", lambda request: json_response({"hello": "world"}))
>>> from urllib.request import urlopen
>>> with LoopbackServer(routes) as server:
...     print(urlopen(server.url + "api/hello").read().decode())
{"hello": "world"}
"""

from __future__ import annotations

import io
import ipaddress
import json
import select
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from email.message import Message
from functools import partial
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from socketserver import BaseServer
from types import TracebackType
from typing import TYPE_CHECKING, ClassVar
from urllib.parse import parse_qs

from queens_autosolve.solver.errors import QueensError

if TYPE_CHECKING:  # typing.Self is Python 3.11+; the checker's own typing_extensions has it
    from typing_extensions import Self

MAX_BODY = 1 << 16
# How often the serving thread looks for a stop request (socketserver's default, 0.5 s, made every
# `with PracticeServer(...)` end up to half a second late: about 150 times in a test run).
STOP_POLL = 0.02
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
JSON_TYPE = "application/json"
ALLOWED_METHODS = "GET, HEAD, POST"  # any other is a 405 (or http.server's 501), said in JSON
# Request headers: http.server's `Message` (names match in any case), or a plain mapping for a
# request built by hand.
Headers = Message | Mapping[str, str]
# What socketserver hands a server for one request: a TCP server's is always its socket.
_SocketRequest = socket.socket | tuple[bytes, socket.socket]


class HttpError(Exception):
    """An answer other than 200 that a handler chooses: `status` with ``{"error": message}``."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Request:
    """One request as a handler sees it: the path without its query, the query's fields (the
    last value of each), the headers and the body (empty for a GET)."""

    method: str
    path: str
    query: Mapping[str, str] = field(default_factory=dict)
    headers: Headers = field(default_factory=dict)
    body: bytes = b""
    # True once the request's work should stop: its client hung up or its time is over. A
    # handler that works for long (making a puzzle) asks between steps.
    cancelled: Callable[[], bool] = field(default=lambda: False, compare=False)

    def json(self) -> dict[str, object]:
        """The body as a JSON object; ValueError (a 400) when it is not one."""
        return parse_json_object(self.body)


@dataclass(frozen=True)
class Response:
    """What a handler answers: status, body bytes and their content type."""

    body: bytes
    content_type: str = JSON_TYPE
    status: HTTPStatus = HTTPStatus.OK


Handler = Callable[[Request], Response]


def json_response(data: object, status: HTTPStatus = HTTPStatus.OK) -> Response:
    return Response(json.dumps(data).encode("utf-8"), JSON_TYPE, status)


def error_response(message: str, status: HTTPStatus) -> Response:
    """A one-line ``{"error": message}``: newlines in a message would break that promise."""
    return json_response({"error": " ".join(message.split())}, status)


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number a page reports")


def parse_json_object(body: bytes) -> dict[str, object]:
    """The JSON object in a request's body; ValueError when it is not one (bad JSON, NaN or
    Infinity, nesting too deep for the parser)."""
    try:
        data = json.loads(body, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError("body nests too deeply") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"body is not JSON: {exc.msg} at character {exc.pos}") from None
    except UnicodeDecodeError:
        raise ValueError("body is not UTF-8 text") from None
    except ValueError as exc:  # int() past its digit limit: "Exceeds the limit (4300 digits) ..."
        if "digits" in str(exc):
            raise ValueError("body holds a number with thousands of digits") from None
        raise
    if not isinstance(data, dict):
        raise ValueError("body must be a JSON object")
    return data


class Routes:
    """Handlers by (method, path): GET and POST, exact paths, plus a folder of static files."""

    def __init__(self) -> None:
        self._handlers: dict[tuple[str, str], Handler] = {}

    def get(self, path: str, handler: Handler) -> None:
        self._handlers["GET", path] = handler

    def post(self, path: str, handler: Handler) -> None:
        self._handlers["POST", path] = handler

    def static(self, folder: Path) -> None:
        """Serve the files of `folder` (not its subfolders) at ``/NAME``, read on each request so
        an edited page shows on reload; only the types in `CONTENT_TYPES`."""
        for path in folder.iterdir():
            if path.is_file() and path.suffix in CONTENT_TYPES:
                self.get(f"/{path.name}", _file_handler(path))

    def page(self, folder: Path, render_index: Callable[[], bytes]) -> None:
        """Serve a web page: the files of `folder` (as `static` does), and at ``/`` and
        ``/index.html`` the HTML that `render_index` makes (its template filled in) on each request."""
        self.static(folder)

        def send_index(request: Request) -> Response:
            return Response(render_index(), CONTENT_TYPES[".html"])

        for path in ("/", "/index.html"):
            self.get(path, send_index)

    def find(self, method: str, path: str) -> Handler | None:
        return self._handlers.get((method, path))


def _file_handler(path: Path) -> Handler:
    def send_file(request: Request) -> Response:
        return Response(path.read_bytes(), CONTENT_TYPES[path.suffix])

    return send_file


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class LoopbackServer:
    """Serve `routes` on loopback in a background thread.

    `noun` names what clients POST in refusals (``reports come from ... only``);
    `request_timeout` (seconds a connection may take to send its request), `work_timeout`
    (seconds a handler may work on one: see `Request.cancelled`), `max_connections` (served at
    once) and `max_body` (bytes a POST may carry) may be set on an instance before `start`.
    """

    request_timeout: float = 5.0
    work_timeout: float = 20.0
    max_connections: int = 32
    max_body: int = MAX_BODY

    def __init__(
        self,
        routes: Routes,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        name: str = "loopback-server",
        server_version: str = "Queens/1",
        noun: str = "request",
    ) -> None:
        if not is_loopback(host):
            raise QueensError(f"host {host!r} is not a loopback address: these pages serve this machine only")
        self.routes = routes
        self.host, self.port = host, port
        self.name, self.server_version, self.noun = name, server_version, noun
        self._httpd: _BoundedHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        """Bind and serve in a background thread. Raises QueensError when the port is taken."""
        if self._httpd is not None:
            return self
        try:
            httpd = _BoundedHTTPServer((self.host, self.port), _handler_for(self), self.max_connections)
        except OSError as exc:
            raise QueensError(f"cannot serve on {self.host}:{self.port}: {exc.strerror or exc}") from None
        self._httpd = httpd
        self.port = httpd.server_address[1]
        serve = partial(httpd.serve_forever, poll_interval=STOP_POLL)
        self._thread = threading.Thread(target=serve, name=self.name, daemon=True)
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

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8123/``."""
        return f"http://{self.host}:{self.port}/"

    def allowed_origins(self) -> frozenset[str]:
        """The Origin headers a POST may carry: this server's own loopback addresses."""
        hosts = {self.host, "127.0.0.1", "localhost"}
        return frozenset(f"http://{host}:{self.port}" for host in hosts)

    def refusal(self, headers: Headers) -> Response | None:
        """Why a POST may not be taken: not from this server's page, or not JSON."""
        origin = headers.get("Origin")
        if origin is not None and origin not in self.allowed_origins():
            return error_response(f"{self.noun}s come from {self.url} only, not {origin[:100]}",
                                  HTTPStatus.FORBIDDEN)
        content_type = headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if content_type != JSON_TYPE:
            return error_response(f"send the {self.noun} as application/json",
                                  HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
        return None

    def answer(self, request: Request) -> Response:
        """Run the handler for `request`, turning its refusals into one-line JSON errors."""
        handler = self.routes.find(request.method, request.path)
        if handler is None:
            message = f"no such page: {request.path}" if request.method == "GET" else "not found"
            return error_response(message, HTTPStatus.NOT_FOUND)
        try:
            return handler(request)
        except HttpError as exc:
            return error_response(str(exc), exc.status)
        except ValueError as exc:  # json.JSONDecodeError is a ValueError
            return error_response(str(exc), HTTPStatus.BAD_REQUEST)
        except Exception as exc:  # a bug of ours: say so in one line, keep the trace for the log
            traceback.print_exc()
            return error_response(f"internal error: {type(exc).__name__}", HTTPStatus.INTERNAL_SERVER_ERROR)


_BUSY_BODY = json.dumps({"error": "the server is busy: try again soon"}).encode()
_BUSY_RESPONSE = (
    b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    + f"Content-Length: {len(_BUSY_BODY)}\r\n".encode() + b"Connection: close\r\n\r\n" + _BUSY_BODY
)
# How long a new connection waits for the slot of the connection it evicted to be given back.
_EVICTION_WAIT = 1.0
# How long a new connection, when every slot is taken, has to show its whole request head (a
# client that means it sends the head at once; the accepting thread waits this long at most).
_HEAD_WAIT = 0.05


class _BoundedHTTPServer(ThreadingHTTPServer):
    """A thread per connection, but at most `limit` at once. When all are taken, a new connection
    that has sent its whole request head (within `_HEAD_WAIT`) evicts the one that has been
    sending its request the longest: a normal request takes milliseconds, a stalled one holds
    its slot for nothing. Any other new connection gets a 503 and is closed: stalled clients
    cannot evict each other (when they could, 40 of them reconnecting at once on 32 slots made
    11,247 connections in 14 s, 10 s of CPU). Dropped connections are silent."""

    daemon_threads = True
    block_on_close = False  # stop() must not wait for a stalled client's time limit
    request_queue_size = 128  # a burst of connections past a short backlog waits 1 s to retry

    def __init__(
        self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], limit: int
    ) -> None:
        super().__init__(address, handler)
        self._slots = threading.BoundedSemaphore(limit)
        self._sending: dict[socket.socket, float] = {}  # connections still sending their request
        self._sending_lock = threading.Lock()

    # A TCP server's request is its socket: typeshed's type for it also covers a UDP server's.
    def process_request(self, request: socket.socket, client_address: object) -> None:  # type: ignore[override]
        if not self._slots.acquire(blocking=False) and not (
            _sent_whole_head(request) and self._evict_oldest_sender()
            and self._slots.acquire(timeout=_EVICTION_WAIT)
        ):
            _refuse_busy(request)
            self.shutdown_request(request)
            return
        with self._sending_lock:
            self._sending[request] = time.monotonic()
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.request_sent(request)
            self._slots.release()  # the thread did not start: its slot is free again
            raise

    def request_sent(self, request: socket.socket) -> None:
        """The connection has sent its whole request: it can no longer be evicted."""
        with self._sending_lock:
            self._sending.pop(request, None)

    def _evict_oldest_sender(self) -> bool:
        """Cut off the connection that has been sending its request the longest: its handler
        meets the end of the stream and frees its slot."""
        with self._sending_lock:
            if not self._sending:
                return False
            oldest = min(self._sending, key=self._sending.__getitem__)
            del self._sending[oldest]
        with suppress(OSError):
            oldest.shutdown(socket.SHUT_RDWR)
        return True

    def process_request_thread(self, request: _SocketRequest, client_address: object) -> None:
        """socketserver's, with the slot freed before the connection is closed: a client that
        connects again as soon as it sees the close finds its slot free (freed after the close,
        it got a 503 on a busy machine)."""
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            if isinstance(request, socket.socket):
                self.request_sent(request)
            self._slots.release()
            self.shutdown_request(request)

    def handle_error(self, request: _SocketRequest, client_address: object) -> None:
        """A client that hung up or stalled past its time limit is no error of ours: stay quiet."""
        if isinstance(sys.exc_info()[1], OSError):  # ConnectionResetError, BrokenPipe, timeouts
            return
        BaseServer.handle_error(self, request, client_address)


def _sent_whole_head(request: socket.socket, wait: float = _HEAD_WAIT) -> bool:
    """Whether the client has sent its request line and headers (up to the blank line), looked
    at without reading them, within `wait` seconds."""
    deadline = time.monotonic() + wait
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([request], [], [], left)[0]:
                return False
            head = request.recv(65536, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            if b"\r\n\r\n" in head:
                return True
            if not head:
                return False  # the client has already hung up
            time.sleep(min(0.005, max(0.0, deadline - time.monotonic())))
    except OSError:
        return False


def _refuse_busy(request: socket.socket) -> None:
    try:
        request.setblocking(False)  # never let a full send buffer stall the accepting thread
        request.send(_BUSY_RESPONSE)
    except OSError:
        pass


class _DeadlineReader(io.RawIOBase):
    """The connection's incoming bytes, each read given only the time left until `deadline`
    (socket timeouts count per read: a client sending a byte every few seconds kept a handler
    forever). Past the deadline a read raises TimeoutError."""

    def __init__(self, connection: socket.socket, deadline: float) -> None:
        super().__init__()
        self._connection = connection
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took longer than its time limit")
        self._connection.settimeout(left)
        return self._connection.recv_into(buffer)


def client_gone(connection: socket.socket) -> bool:
    """True when the client has closed its end: the connection reads as ended (or broken)
    without waiting. A client that sent its whole request has nothing more to send."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and connection.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


class _Handler(BaseHTTPRequestHandler):
    """Answers one connection for `loopback` (set by `_handler_for`, a subclass per server)."""

    loopback: ClassVar[LoopbackServer]
    default_request_version = "HTTP/1.0"  # a refusal of a garbled request line has a status line too

    def setup(self) -> None:
        super().setup()
        deadline = time.monotonic() + self.loopback.request_timeout
        self.rfile = io.BufferedReader(_DeadlineReader(self.connection, deadline))

    def do_GET(self) -> None:
        self._request_sent()
        path, query = self._split_path()
        self._send(self.loopback.answer(Request("GET", path, query, self.headers)))

    def do_HEAD(self) -> None:
        self._request_sent()
        path, query = self._split_path()
        self._send(self.loopback.answer(Request("GET", path, query, self.headers)), body=False)

    def do_POST(self) -> None:
        path, query = self._split_path()
        if self.loopback.routes.find("POST", path) is None:
            self._request_sent()
            self._send(self.loopback.answer(Request("POST", path)))
            return
        refusal = self.loopback.refusal(self.headers)
        if refusal is not None:
            self._request_sent()
            self._send(refusal)
            return
        try:
            body = self._read_body()
        except ValueError as exc:
            self._send(error_response(str(exc), HTTPStatus.BAD_REQUEST))
            return
        finally:
            self._request_sent()
        work_deadline = time.monotonic() + self.loopback.work_timeout
        connection = self.connection

        def cancelled() -> bool:
            return time.monotonic() > work_deadline or client_gone(connection)

        self._send(self.loopback.answer(Request("POST", path, query, self.headers, body, cancelled)))

    def _not_allowed(self) -> None:
        self._request_sent()
        response = error_response(f"{self.command} is not used here: use {ALLOWED_METHODS}",
                                  HTTPStatus.METHOD_NOT_ALLOWED)
        self._send(response, extra={"Allow": ALLOWED_METHODS})

    do_PUT = do_DELETE = do_OPTIONS = do_PATCH = do_TRACE = do_CONNECT = _not_allowed

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (501 unknown method, 414 URL too long, 431 header too
        long, 400 bad request line...) as JSON like every other answer."""
        status = HTTPStatus(code)
        self.close_connection = True
        if status == HTTPStatus.NOT_IMPLEMENTED:
            message = f"{str(self.command)[:20]} is not used here: use {ALLOWED_METHODS}"
        elif status == HTTPStatus.REQUEST_URI_TOO_LONG:  # the phrase itself differs by Python version
            message = "the request line is too long (over 65,536 bytes)"
        self._send(error_response(message or status.phrase, status),
                   body=self.command != "HEAD" and code >= 200 and code not in (204, 304))

    def _request_sent(self) -> None:
        if isinstance(self.server, _BoundedHTTPServer):
            self.server.request_sent(self.connection)

    def _split_path(self) -> tuple[str, dict[str, str]]:
        path, _, query = self.path.partition("?")
        fields = {key: values[-1] for key, values in parse_qs(query).items()}
        return path, fields

    def _read_body(self) -> bytes:
        length_text = self.headers.get("Content-Length", "0").strip()
        if not (length_text.isascii() and length_text.isdigit()) or len(length_text) > 12:
            raise ValueError("Content-Length must be the body's size in bytes")
        if not 0 < int(length_text) <= self.loopback.max_body:
            raise ValueError(f"body missing or too large (at most {self.loopback.max_body} bytes)")
        return self.rfile.read(int(length_text))

    def _send(
        self, response: Response, *, body: bool = True, extra: Mapping[str, str] | None = None
    ) -> None:
        self.connection.settimeout(self.loopback.request_timeout)  # reads left it at their time left
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(response.body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # a request log on every click would drown the CLI's output


def _handler_for(server: LoopbackServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        loopback = server
        server_version = server.server_version
        timeout = server.request_timeout  # each write on the connection; reads: the whole request

    return Handler
