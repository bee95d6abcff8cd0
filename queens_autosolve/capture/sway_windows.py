"""The windows of a sway session, from its IPC tree (i3ipc), as `WindowRecord`s.

Native Wayland windows name their app by `app_id` ("chromium", "firefox-esr"); XWayland ones
(`shell` "xwayland") by their X11 class and instance, as on X11. Floating windows are walked
with `descendants()` (`leaves()` skips them). Windows are stacked bottom to top: the tiled ones
of a workspace first, then its floating ones in their order (sway raises a floating window by
moving it to the end). Windows on workspaces no output shows are `other_desktop`; the
scratchpad's are `minimised` (sway has no other way to hide a window).
"""

from __future__ import annotations

import json
import socket
import struct
from collections.abc import Mapping
from typing import Any

from queens_autosolve.capture.errors import NoDisplayError
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import WindowRecord
from queens_autosolve.capture.windows import title_matches

SCRATCHPAD = "__i3_scratch"


class SwayWindows:
    """sway's IPC: the windows, the outputs and the seat's focus."""

    def __init__(self, connection: Any, path: str) -> None:
        self.connection = connection
        self.path = path

    @classmethod
    def connect(cls, env: Mapping[str, str]) -> SwayWindows:
        import i3ipc

        path = env.get("SWAYSOCK") or env.get("I3SOCK")
        if not path:
            raise NoDisplayError("SWAYSOCK is not set: the wlroots desktop lists windows through sway's IPC, "
                                 "and other wlroots compositors are not supported yet; run inside sway")
        try:
            return cls(i3ipc.Connection(socket_path=path, auto_reconnect=False), path)
        except (OSError, ConnectionError) as exc:
            raise NoDisplayError(f"cannot connect to sway's IPC at {path!r} ({exc}); check SWAYSOCK "
                                 "and that sway runs") from None

    def windows(self, title: str | None = None) -> list[WindowRecord]:
        records = records_of_tree(self.connection.get_tree())
        return [r for r in records if title is None or title_matches(r, title)]

    def outputs(self) -> list[Any]:
        """The active outputs with their `rect` as a `Rect` (logical points)."""
        return [_Output(o.name, Rect(o.rect.x, o.rect.y, o.rect.width, o.rect.height), float(o.scale or 1.0))
                for o in self.connection.get_outputs() if o.active]

    def close(self) -> None:
        self.connection.main_quit()
        sock = getattr(self.connection, "_cmd_socket", None)
        if sock is not None:
            sock.close()


class FocusWatch:
    """sway's window events, subscribed on a socket of their own: which windows took the focus
    since the last look, read without a round trip (sway writes them as they happen; a round
    trip to sway waits on its rendering, 10-15 ms, on every cell clicked).

    The wire format is i3's IPC: "i3-ipc", the payload's length and the message type (both
    32-bit, native order), then the JSON payload; events have the type's high bit set."""

    MAGIC = b"i3-ipc"
    SUBSCRIBE = 2
    WINDOW_EVENT = 0x80000003

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self._buffer = b""
        self._send(self.SUBSCRIBE, b'["window"]')
        kind, reply = self._read_one(blocking=True)
        if kind != self.SUBSCRIBE or not json.loads(reply).get("success"):
            raise NoDisplayError("sway refused to report its window events; is it sway?")
        self.sock.setblocking(False)

    def focused_since(self) -> list[int]:
        """The ids of the windows that took the focus since the last call, in order."""
        ids: list[int] = []
        while True:
            message = self._read_one(blocking=False)
            if message is None:
                return ids
            kind, payload = message
            if kind == self.WINDOW_EVENT:
                event = json.loads(payload)
                if event.get("change") == "focus":
                    ids.append(int(event.get("container", {}).get("id", 0)))

    def _send(self, kind: int, payload: bytes) -> None:
        self.sock.sendall(self.MAGIC + struct.pack("=II", len(payload), kind) + payload)

    def _read_one(self, blocking: bool) -> Any:
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


class _Output:
    def __init__(self, name: str, rect: Rect, scale: float = 1.0) -> None:
        self.name, self.rect, self.scale = name, rect, scale  # rect in logical points


def records_of_tree(tree: Any) -> list[WindowRecord]:
    """Every window of sway's tree, bottom (stacking 0) to top."""
    records: list[WindowRecord] = []
    for output in tree.nodes:
        scratchpad = output.name == "__i3"  # sway keeps its scratchpad in this pseudo-output
        current = _visible_workspace(output)
        for workspace in output.nodes:
            shown = workspace.id == current and not scratchpad
            for con in _windows_of(workspace):
                records.append(_record(con, len(records), shown=shown, minimised=scratchpad))
    return records


def _visible_workspace(output: Any) -> int:
    """The id of the workspace `output` shows (sway names it in `current_workspace`)."""
    name = getattr(output, "ipc_data", {}).get("current_workspace")
    return next((w.id for w in output.nodes if w.name == name), 0)


def _windows_of(workspace: Any) -> list[Any]:
    """A workspace's windows: the tiled ones first, then the floating ones in stacking order."""
    tiled = [con for con in workspace.descendants() if _is_window(con) and con.type != "floating_con"]
    floating = [con for node in workspace.floating_nodes for con in [node, *node.descendants()]
                if _is_window(con)]
    seen = {con.id for con in floating}
    return [con for con in tiled if con.id not in seen] + floating


def _is_window(con: Any) -> bool:
    return con.pid is not None and not con.nodes and con.ipc_data.get("shell") is not None


def _record(con: Any, stacking: int, *, shown: bool, minimised: bool) -> WindowRecord:
    data = con.ipc_data
    rect = Rect(con.rect.x, con.rect.y, con.rect.width, con.rect.height)
    if data.get("shell") == "xwayland":
        props = data.get("window_properties") or {}
        wm_class = tuple(str(p) for p in (props.get("instance"), props.get("class")) if p)
        role = str(props.get("window_role") or "")
    else:
        wm_class = (str(data.get("app_id")),) if data.get("app_id") else ()
        role = ""
    return WindowRecord(
        wid=int(con.id), title=str(con.name or ""), rect=rect, wm_class=wm_class, role=role,
        stacking=stacking, viewable=shown and bool(data.get("visible", True)), minimised=minimised,
        other_desktop=not shown and not minimised,
    )

