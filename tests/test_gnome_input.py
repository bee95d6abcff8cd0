"""The GNOME desktop's input events as D-Bus calls (capture.gnome.CastSession.input_call): mutter's
RemoteDesktop session and the xdg portal take the same events with different first arguments. The
live tests (test_e2e_gnome) send mutter's; the portal's cannot be sent here (it asks a person), so
their shape is checked against the portal's specification."""

from __future__ import annotations

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.gnome import BTN_LEFT, CastSession

MUTTER = CastSession("/org/gnome/Mutter/RemoteDesktop/Session/u1", "/org/gnome/Mutter/ScreenCast/Stream/u1",
                     36, Rect(0, 0, 1920, 1080), "Meta-0")
PORTAL = CastSession("/org/freedesktop/portal/desktop/session/1_5/queens1", "", 52, Rect(0, 0, 1920, 1080),
                     "portal monitor", portal=True, pipewire_fd=7)
MOVE = "NotifyPointerMotionAbsolute"


def test_mutter_moves_name_the_stream_path_and_press_with_a_boolean():
    service, path, interface, method, signature, body = MUTTER.input_call(MOVE, 10.0, 20.0)
    assert (service, path, interface) == ("org.gnome.Mutter.RemoteDesktop", MUTTER.remote,
                                          "org.gnome.Mutter.RemoteDesktop.Session")
    assert (method, signature, body) == (MOVE, "sdd", (MUTTER.stream, 10.0, 20.0))
    assert MUTTER.input_call("NotifyPointerButton", BTN_LEFT, True)[4:] == ("ib", (0x110, True))
    assert MUTTER.input_call("NotifyPointerAxisDiscrete", 0, 3)[4:] == ("ui", (0, 3))


def test_portal_events_go_to_the_portal_with_the_session_options_and_the_stream_node():
    service, path, interface, _method, signature, body = PORTAL.input_call(MOVE, 10.0, 20.0)
    assert (service, path, interface) == ("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                          "org.freedesktop.portal.RemoteDesktop")
    assert (signature, body) == ("oa{sv}udd", (PORTAL.remote, {}, 52, 10.0, 20.0))
    release = PORTAL.input_call("NotifyPointerButton", BTN_LEFT, False)
    assert release[4:] == ("oa{sv}iu", (PORTAL.remote, {}, 0x110, 0))
    wheel = PORTAL.input_call("NotifyPointerAxisDiscrete", 1, -2)
    assert wheel[4:] == ("oa{sv}ui", (PORTAL.remote, {}, 1, -2))


def test_a_portal_stream_without_a_position_starts_at_the_origin():
    """KDE's portal (Plasma 5.27) sends a monitor stream's size only; that was a KeyError."""
    from queens_autosolve.capture.gnome_portal import stream_rect

    assert stream_rect({"size": ("(ii)", (1280, 900)), "source_type": ("u", 1)}) == Rect(0, 0, 1280, 900)
    second = {"position": ("(ii)", (1920, 0)), "size": ("(ii)", (1280, 1024))}
    assert stream_rect(second) == Rect(1920, 0, 1280, 1024)
