"""The xdg-desktop-portal way onto a GNOME desktop: a RemoteDesktop session with a ScreenCast of
one monitor, for a desktop where mutter's own API is not ours to call (capture.gnome uses that
one where it can: a headless mutter).

The portal asks the user once (a dialog: share the screen, allow remote control) and, with
`persist_mode` 2, gives a restore token that lets later runs in without asking; it is kept in
$XDG_STATE_HOME/queens-autosolve/portal-restore-token. Kept thin on purpose: the consent dialog
needs a real GNOME Shell and a person, so this file is not tested here (see the README); the
frames and the input it leads to are the same code as with mutter's API, and those are.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, cast

from queens_autosolve.capture.errors import CaptureError, clicked_words
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.gnome import PORTAL, PORTAL_IFACE, PORTAL_PATH, CastSession, MutterBus

POINTER = 2  # SelectDevices types: 1 keyboard, 2 pointer
MONITOR = 1  # SelectSources types: 1 monitor, 2 window
CURSOR_HIDDEN = 1  # the portal's cursor_mode bits: 1 hidden, 2 embedded, 4 metadata
PERSIST_UNTIL_REVOKED = 2
CONSENT_TIMEOUT = 120.0  # s for the person to answer the dialog


def token_file() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "queens-autosolve" / "portal-restore-token"


def start_portal_cast(bus: MutterBus) -> CastSession:
    """Create, set up and start a portal RemoteDesktop session (the pointer, one monitor, its
    cursor left out), keeping the restore token; the first stream's node, with the PipeWire
    connection the portal opens for us."""
    remote_iface, cast_iface = f"{PORTAL_IFACE}.RemoteDesktop", f"{PORTAL_IFACE}.ScreenCast"
    created = _request(bus, remote_iface, "CreateSession", "a{sv}", lambda token: (
        {"handle_token": ("s", token), "session_handle_token": ("s", "queens" + secrets.token_hex(4))},))
    session = str(created["session_handle"][1])
    devices: dict[str, tuple[str, object]] = {"types": ("u", POINTER),
                                              "persist_mode": ("u", PERSIST_UNTIL_REVOKED)}
    saved = token_file()
    if saved.exists():
        devices["restore_token"] = ("s", saved.read_text().strip())
    _request(bus, remote_iface, "SelectDevices", "oa{sv}",
             lambda token: (session, {"handle_token": ("s", token), **devices}))
    _request(bus, cast_iface, "SelectSources", "oa{sv}", lambda token: (session, {
        "handle_token": ("s", token), "types": ("u", MONITOR), "multiple": ("b", False),
        "cursor_mode": ("u", CURSOR_HIDDEN)}))
    started = _request(bus, remote_iface, "Start", "osa{sv}",
                       lambda token: (session, "", {"handle_token": ("s", token)}), timeout=CONSENT_TIMEOUT)
    if "restore_token" in started:
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_text(str(started["restore_token"][1]))
    # a(ua{sv}): each stream's PipeWire node and its properties (position, size), variants as (type, value)
    streams = cast(list[tuple[int, dict[str, tuple[str, Any]]]], started.get("streams", ("", []))[1])
    if not streams:
        raise CaptureError("the screen sharing dialog gave no monitor; run again and choose the monitor "
                           "with the game")
    node, properties = streams[0]
    (fd,) = bus.call(PORTAL, PORTAL_PATH, cast_iface, "OpenPipeWireRemote", "oa{sv}", (session, {}))
    return CastSession(session, "", int(node), stream_rect(properties), "portal monitor",
                       portal=True, pipewire_fd=fd.to_raw_fd())  # type: ignore[attr-defined]


def stream_rect(properties: dict[str, tuple[str, Any]]) -> Rect:
    """Where a portal stream's monitor lies, from the stream's properties. "position" is optional
    in the portal's specification and KDE's portal leaves it out (measured with Plasma 5.27): the
    monitor is taken to start at (0, 0) then, which is safe, as the input events are relative to
    the stream, not to the desktop.

    >>> stream_rect({"size": ("(ii)", (1280, 900)), "source_type": ("u", 1)})
    Rect(left=0, top=0, width=1280, height=900)
    """
    (left, top), (width, height) = properties.get("position", ("(ii)", (0, 0)))[1], properties["size"][1]
    return Rect(left, top, width, height)


def _request(bus: MutterBus, interface: str, method: str, signature: str, body: object,
             timeout: float = 10.0) -> dict[str, tuple[str, object]]:
    """Call a portal method that answers through a Request object, and wait for its Response;
    `body(token)` makes the arguments with the request's handle token. A refusal (the person
    said no, or closed the dialog) is a CaptureError saying so."""
    from jeepney import MatchRule, message_bus

    token = "queens" + secrets.token_hex(4)
    sender = bus.connection.unique_name.lstrip(":").replace(".", "_")
    path = f"/org/freedesktop/portal/desktop/request/{sender}/{token}"
    rule = MatchRule(type="signal", interface=f"{PORTAL_IFACE}.Request", member="Response", path=path)
    bus.connection.send_and_get_reply(message_bus.AddMatch(rule))
    with bus.connection.filter(rule) as queue:
        assert callable(body)
        bus.call(PORTAL, PORTAL_PATH, interface, method, signature, body(token))
        try:
            response = bus.connection.recv_until_filtered(queue, timeout=timeout)
        except TimeoutError:
            raise CaptureError(f"the desktop portal did not answer {method} within {timeout:g} s; "
                               f"{clicked_words(0)}") from None
    code, results = response.body
    if code != 0:
        raise CaptureError(f"screen sharing and remote control were not allowed ({method}: "
                           f"{'refused' if code == 1 else 'ended'}); run again and allow them to let "
                           "the tool see and click the board")
    return dict(results)
