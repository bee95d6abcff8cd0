"""The desktop seam: `open_desktop` picks X11 unless told otherwise or on a Wayland session (a
compositor offering wlroots' screen copy and virtual pointer: the wlroots desktop, which
tests/test_e2e_sway.py drives live, with sway's IPC and without), and a desktop not implemented
yet is one line that names it and what works today."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from queens_autosolve.capture import DesktopSession, UnsupportedDesktopError, X11Desktop, open_desktop
from queens_autosolve.capture.desktop import choose_desktop

X11_SESSION = {"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"}
SWAY = {"WAYLAND_DISPLAY": "wayland-1", "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway",
        "DISPLAY": ":0"}
GNOME = {"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"}
KDE = {"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE"}


def test_auto_is_x11_on_an_x11_session():
    assert choose_desktop(None, "auto", X11_SESSION) == "x11"


def test_auto_is_x11_where_an_x11_display_is_named_even_in_a_wayland_session():
    assert choose_desktop(":5", "auto", SWAY) == "x11"


def test_x11_can_be_forced():
    assert choose_desktop(None, "x11", SWAY) == "x11"


def test_auto_is_gnome_on_a_gnome_wayland_session():
    assert choose_desktop(None, "auto", GNOME) == "gnome"
    assert choose_desktop(None, "gnome", X11_SESSION) == "gnome"  # forced


@pytest.mark.parametrize(("env", "named", "lacking"), [
    (SWAY, "sway, a wlroots compositor", True),  # no compositor answers on wayland-1 here
    (KDE, "KDE", False),
])
def test_auto_on_a_wayland_session_names_the_compositor_and_what_works(env, named, lacking):
    with pytest.raises(UnsupportedDesktopError) as raised:
        choose_desktop(None, "auto", env)
    message = str(raised.value)
    assert f"Wayland session ({named}" in message and "X11 session" in message and "sway" in message
    assert ("offers no wlroots screen copy or virtual pointer" in message) == lacking
    assert "\n" not in message


def test_open_desktop_gives_the_x11_desktop_by_default(xvfb):
    with open_desktop(xvfb.display) as desktop:
        assert isinstance(desktop, X11Desktop)
        session: DesktopSession = desktop  # the X11 desktop is a DesktopSession (mypy checks the product)
        assert session.pointer().on_screen


def test_wlroots_can_be_forced_in_a_wayland_session_with_or_without_sway_ipc():
    assert choose_desktop(None, "wlroots", {**SWAY, "SWAYSOCK": "/run/sway-ipc.sock"}) == "wlroots"
    assert choose_desktop(None, "wlroots", SWAY) == "wlroots"


def test_wlroots_forced_where_there_is_no_wayland_session_says_what_to_do():
    with pytest.raises(UnsupportedDesktopError) as raised:
        choose_desktop(None, "wlroots", X11_SESSION)
    message = str(raised.value)
    assert "needs a Wayland session" in message and "demo --desktop sway" in message
    assert "\n" not in message


def test_cli_with_wlroots_outside_sway_exits_2_with_one_line():
    env = {k: v for k, v in os.environ.items() if k not in ("SWAYSOCK", "WAYLAND_DISPLAY")}
    done = subprocess.run([sys.executable, "-m", "queens_autosolve", "run", "--desktop", "wlroots"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "needs a Wayland session" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_cli_with_an_unknown_desktop_exits_2_with_one_line():
    done = subprocess.run([sys.executable, "-m", "queens_autosolve", "run", "--desktop", "kwin"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--desktop" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["run", "--desktop", "gnome"], ["hint", "--desktop", "gnome"]])
def test_cli_on_gnome_without_a_session_bus_exits_2_with_one_line(command):
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    done = subprocess.run([sys.executable, "-m", "queens_autosolve", *command], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no D-Bus session bus" in done.stderr and "demo --desktop gnome" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
