"""sway's IPC read by capture.sway_windows: the tree as WindowRecords (which windows, in which
order, shown or not, named by app_id (native) or X11 class (XWayland)), on a tree as sway 1.7 sends
it (trimmed), and the framing of its focus events. Live sway: tests/test_e2e_sway.py."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time

import i3ipc
import pytest

from queens_autosolve.capture.errors import NoDisplayError
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.sway_windows import FocusWatch, records_of_tree


def window(con_id: int, name: str, rect: tuple[int, int, int, int], *, app_id: str | None = None,
           x_class: str | None = None, kind: str = "floating_con", visible: bool = True) -> dict:
    x, y, w, h = rect
    con = {"id": con_id, "type": kind, "name": name, "pid": 100 + con_id, "visible": visible,
           "shell": "xwayland" if x_class else "xdg_shell", "app_id": app_id,
           "rect": {"x": x, "y": y, "width": w, "height": h}, "nodes": [], "floating_nodes": []}
    if x_class:  # sway sends window_properties for XWayland windows only
        con["window_properties"] = {"class": x_class, "instance": x_class.lower()}
    return con


def workspace(con_id: int, name: str, tiled: list[dict], floating: list[dict]) -> dict:
    return {"id": con_id, "type": "workspace", "name": name, "rect": {"x": 0, "y": 0, "width": 1920,
            "height": 1080}, "nodes": tiled, "floating_nodes": floating}


def tree() -> i3ipc.Con:
    shown = workspace(4, "1", [window(7, "Editor", (0, 0, 1920, 1080), app_id="org.gnome.gedit",
                                      kind="con")],
                      [window(5, "Queens | Practice - Chromium", (100, 50, 1168, 998), app_id="chromium"),
                       window(6, "Notes", (300, 300, 400, 300), x_class="Xmessage")])
    hidden = workspace(8, "2", [], [window(9, "Queens - Mozilla Firefox", (0, 0, 800, 600),
                                           app_id="firefox-esr", visible=False)])
    scratch = workspace(2147483646, "__i3_scratch", [], [window(10, "Away", (0, 0, 300, 200),
                                                                app_id="foot", visible=False)])
    data = {"id": 1, "type": "root", "name": "root", "rect": {"x": 0, "y": 0, "width": 1920, "height": 1080},
            "floating_nodes": [], "nodes": [
                {"id": 2147483647, "type": "output", "name": "__i3", "nodes": [scratch], "floating_nodes": [],
                 "rect": {"x": 0, "y": 0, "width": 1920, "height": 1080}},
                {"id": 3, "type": "output", "name": "HEADLESS-1", "current_workspace": "1",
                 "nodes": [shown, hidden], "floating_nodes": [],
                 "rect": {"x": 0, "y": 0, "width": 1920, "height": 1080}}]}
    return i3ipc.Con(data, None, None)


def test_windows_are_listed_bottom_to_top_tiled_before_floating():
    records = {r.title: r for r in records_of_tree(tree())}
    order = sorted(records.values(), key=lambda r: r.stacking)
    shown = [r.title for r in order if r.viewable]
    assert shown == ["Editor", "Queens | Practice - Chromium", "Notes"]


def test_a_native_window_is_named_by_its_app_id_and_an_xwayland_one_by_its_class():
    records = {r.title: r for r in records_of_tree(tree())}
    chromium, notes = records["Queens | Practice - Chromium"], records["Notes"]
    assert chromium.wm_class == ("chromium",) and chromium.is_browser
    assert chromium.rect == Rect(100, 50, 1168, 998)
    assert notes.wm_class == ("xmessage", "Xmessage") and not notes.is_browser


def test_windows_on_a_workspace_not_shown_are_on_another_desktop_and_the_scratchpad_is_minimised():
    records = {r.title: r for r in records_of_tree(tree())}
    firefox, away = records["Queens - Mozilla Firefox"], records["Away"]
    assert firefox.other_desktop and not firefox.viewable and not firefox.minimised
    assert away.minimised and not away.viewable and not away.other_desktop


def message(kind: int, payload: dict | list) -> bytes:
    body = json.dumps(payload).encode()
    return b"i3-ipc" + struct.pack("=II", len(body), kind) + body


def test_focus_events_are_read_as_they_come_split_anywhere(tmp_path):
    """The framing of sway's IPC as FocusWatch reads it: the subscription's reply, then window
    events (only "focus" ones count) arriving in pieces cut anywhere, read without blocking."""
    path = str(tmp_path / "sway-ipc.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    peer: list[socket.socket] = []

    def serve() -> None:
        conn, _ = listener.accept()
        conn.recv(1024)  # the subscription
        conn.sendall(message(FocusWatch.SUBSCRIBE, {"success": True}))
        peer.append(conn)

    thread = threading.Thread(target=serve)
    thread.start()
    watch = FocusWatch(path)
    thread.join()
    assert watch.focused_since() == []
    stream = (message(FocusWatch.WINDOW_EVENT, {"change": "title", "container": {"id": 5}})
              + message(FocusWatch.WINDOW_EVENT, {"change": "focus", "container": {"id": 6}})
              + message(FocusWatch.WINDOW_EVENT, {"change": "focus", "container": {"id": 5}}))
    cut = len(stream) - 30  # the last event arrives in two pieces
    peer[0].sendall(stream[:cut])
    time.sleep(0.05)
    assert watch.focused_since() == [6]
    peer[0].sendall(stream[cut:])
    time.sleep(0.05)
    assert watch.focused_since() == [5]
    watch.close()
    peer[0].close()
    listener.close()


def test_a_socket_that_refuses_the_subscription_is_not_taken_for_sway(tmp_path):
    path = str(tmp_path / "not-sway.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)

    def serve() -> None:
        conn, _ = listener.accept()
        conn.recv(1024)
        conn.sendall(message(FocusWatch.SUBSCRIBE, {"success": False}))
        conn.close()

    thread = threading.Thread(target=serve)
    thread.start()
    with pytest.raises(NoDisplayError, match="refused to report its window events"):
        FocusWatch(path)
    thread.join()
    listener.close()
