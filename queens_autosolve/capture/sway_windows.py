"""The windows of a sway session, from its IPC tree, as `WindowRecord`s; and the IPC itself, i3's
wire format spoken here (i3ipc's import, python-xlib with it, cost every run more than the rest of
connecting: docs/wayland.md).

Native Wayland windows name their app by `app_id` ("chromium", "firefox-esr"); XWayland ones
(`shell` "xwayland") by their X11 class and instance, as on X11. Floating windows are walked
apart from tiled ones (a workspace lists them in `floating_nodes`). Windows are stacked bottom to
top: the tiled ones of a workspace first, then its floating ones in their order (sway raises a
floating window by moving it to the end). Windows on workspaces no output shows are
`other_desktop`; the scratchpad's are `minimised` (sway has no other way to hide a window).
"""

from __future__ import annotations

import json
import socket
import struct
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from queens_autosolve.capture.errors import NoDisplayError
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import WindowRecord
from queens_autosolve.capture.windows import title_matches

SCRATCHPAD = "__i3_scratch"
Node = dict[str, Any]  # one container of sway's tree, as its JSON gives it


class SwayIpc:
    """One connection to sway's IPC socket: requests and their replies, in i3's wire format ("i3-ipc",
    the payload's length and the message type, both 32-bit native order, then JSON); events have
    the type's high bit set."""

    MAGIC = b"i3-ipc"
    RUN_COMMAND, GET_OUTPUTS, GET_TREE, SUBSCRIBE, GET_VERSION = 0, 3, 4, 2, 7

    def __init__(self, path: str) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.connect(path)
        except OSError:
            self.sock.close()
            raise
        self._buffer = b""

    def request(self, kind: int, payload: str = "") -> Any:
        """Send one request and return its reply, parsed (events that come first are skipped)."""
        self.send(kind, payload.encode())
        while True:
            got, reply = self.read_one(blocking=True)
            if got == kind:
                return json.loads(reply)

    def send(self, kind: int, payload: bytes) -> None:
        self.sock.sendall(self.MAGIC + struct.pack("=II", len(payload), kind) + payload)

    def read_one(self, blocking: bool) -> Any:
        """The next message as (type, payload); None when none has come and not `blocking`."""
        header = len(self.MAGIC) + 8
        while True:
            if len(self._buffer) >= header:
                length, kind = struct.unpack("=II", self._buffer[len(self.MAGIC):header])
                if len(self._buffer) >= header + length:
                    payload = self._buffer[header:header + length]
                    self._buffer = self._buffer[header + length:]
                    return kind, payload
            try:
                chunk = self.sock.recv(1 << 16)
            except BlockingIOError:
                if not blocking:
                    return None
                raise
            if not chunk:
                raise NoDisplayError("sway closed its IPC socket (did it exit?)")
            self._buffer += chunk

    def close(self) -> None:
        self.sock.close()


class SwayWindows:
    """sway's IPC: the windows, the outputs and the seat's focus."""

    def __init__(self, connection: SwayIpc, path: str) -> None:
        self.connection = connection
        self.path = path

    @classmethod
    def connect(cls, env: Mapping[str, str]) -> SwayWindows:
        path = env.get("SWAYSOCK") or env.get("I3SOCK")
        if not path:
            raise NoDisplayError("SWAYSOCK is not set: the wlroots desktop lists windows through sway's IPC, "
                                 "and other wlroots compositors are not supported yet; run inside sway")
        try:
            return cls(SwayIpc(path), path)
        except OSError as exc:
            raise NoDisplayError(f"cannot connect to sway's IPC at {path!r} ({exc}); check SWAYSOCK "
                                 "and that sway runs") from None

    def windows(self, title: str | None = None) -> list[WindowRecord]:
        records = records_of_tree(self.connection.request(SwayIpc.GET_TREE))
        return [r for r in records if title is None or title_matches(r, title)]

    def outputs(self) -> list[Any]:
        """The active outputs with their `rect` as a `Rect` (logical points)."""
        return [_Output(o["name"], _rect(o)) for o in self.connection.request(SwayIpc.GET_OUTPUTS)
                if o.get("active")]

    def close(self) -> None:
        self.connection.close()


class FocusWatch:
    """sway's window events, subscribed on a socket of their own: which windows took the focus
    since the last look, read without a round trip (sway writes them as they happen; a round
    trip to sway waits on its rendering, 10-15 ms, on every cell clicked)."""

    SUBSCRIBE = SwayIpc.SUBSCRIBE
    WINDOW_EVENT = 0x80000003

    def __init__(self, path: str) -> None:
        self.ipc = SwayIpc(path)
        if not self.ipc.request(self.SUBSCRIBE, '["window"]').get("success"):
            self.ipc.close()
            raise NoDisplayError("sway refused to report its window events; is it sway?")
        self.ipc.sock.setblocking(False)

    def focused_since(self) -> list[int]:
        """The ids of the windows that took the focus since the last call, in order."""
        ids: list[int] = []
        while True:
            message = self.ipc.read_one(blocking=False)
            if message is None:
                return ids
            kind, payload = message
            if kind == self.WINDOW_EVENT:
                event = json.loads(payload)
                if event.get("change") == "focus":
                    ids.append(int(event.get("container", {}).get("id", 0)))

    def close(self) -> None:
        self.ipc.close()


class _Output:
    def __init__(self, name: str, rect: Rect) -> None:
        self.name, self.rect = name, rect


def records_of_tree(tree: Node) -> list[WindowRecord]:
    """Every window of sway's tree (GET_TREE's reply), bottom (stacking 0) to top."""
    records: list[WindowRecord] = []
    for output in tree.get("nodes", []):
        scratchpad = output.get("name") == "__i3"  # sway keeps its scratchpad in this pseudo-output
        current = _visible_workspace(output)
        for workspace in output.get("nodes", []):
            shown = workspace.get("id") == current and not scratchpad
            for con in _windows_of(workspace):
                records.append(_record(con, len(records), shown=shown, minimised=scratchpad))
    return records


def _visible_workspace(output: Node) -> int:
    """The id of the workspace `output` shows (sway names it in `current_workspace`)."""
    name = output.get("current_workspace")
    return next((w["id"] for w in output.get("nodes", []) if w.get("name") == name), 0)


def _descendants(node: Node) -> Iterator[Node]:
    """Every container below `node`, tiled and floating, breadth first."""
    queue = deque([*node.get("nodes", []), *node.get("floating_nodes", [])])
    while queue:
        con = queue.popleft()
        yield con
        queue.extend([*con.get("nodes", []), *con.get("floating_nodes", [])])


def _windows_of(workspace: Node) -> list[Node]:
    """A workspace's windows: the tiled ones first, then the floating ones in stacking order."""
    tiled = [con for con in _descendants(workspace) if _is_window(con) and con.get("type") != "floating_con"]
    floating = [con for node in workspace.get("floating_nodes", []) for con in [node, *_descendants(node)]
                if _is_window(con)]
    seen = {con["id"] for con in floating}
    return [con for con in tiled if con["id"] not in seen] + floating


def _is_window(con: Node) -> bool:
    return con.get("pid") is not None and not con.get("nodes") and con.get("shell") is not None


def _rect(node: Node) -> Rect:
    rect = node.get("rect", {})
    return Rect(rect.get("x", 0), rect.get("y", 0), rect.get("width", 0), rect.get("height", 0))


def _record(con: Node, stacking: int, *, shown: bool, minimised: bool) -> WindowRecord:
    if con.get("shell") == "xwayland":
        props = con.get("window_properties") or {}
        wm_class = tuple(str(p) for p in (props.get("instance"), props.get("class")) if p)
        role = str(props.get("window_role") or "")
    else:
        wm_class = (str(con["app_id"]),) if con.get("app_id") else ()
        role = ""
    return WindowRecord(
        wid=int(con["id"]), title=str(con.get("name") or ""), rect=_rect(con), wm_class=wm_class, role=role,
        stacking=stacking, viewable=shown and bool(con.get("visible", True)), minimised=minimised,
        other_desktop=not shown and not minimised,
    )
