"""pyautogui on the board's own X connection: `load_pyautogui` lets it share the connection the
run already has open (opening one more costs a round trip per X extension, on every run), and
gives it a live one again once that connection is closed."""

from __future__ import annotations

import subprocess
import sys

from queens_autosolve.capture import Desktop
from queens_autosolve.capture.x11 import load_pyautogui

SHARED_AT_IMPORT = """
import Xlib.display
from queens_autosolve.capture.x11 import load_pyautogui
from queens_autosolve.capture import Desktop
real = Xlib.display.Display
with Desktop({display!r}) as desktop:
    gui = load_pyautogui(desktop.name, desktop.display)
    assert gui._pyautogui_x11._display is desktop.display, "pyautogui opened a connection of its own"
    assert Xlib.display.Display is real, "Xlib's Display was not put back"
    desktop.move_pointer(40, 30)
    assert tuple(gui.position()) == (40, 30)
print("ok")
"""


def test_pyautogui_imported_for_a_run_shares_its_connection(xvfb):
    """In a fresh process (pyautogui not imported yet), as in every `run`."""
    done = subprocess.run([sys.executable, "-c", SHARED_AT_IMPORT.format(display=xvfb.display)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_pyautogui_gets_a_live_connection_after_the_shared_one_closed(xvfb):
    with Desktop(xvfb.display) as desktop:
        gui = load_pyautogui(desktop.name, desktop.display)
        assert gui._pyautogui_x11._display is desktop.display  # type: ignore[attr-defined]
    gui = load_pyautogui(xvfb.display)  # the run's connection is closed now
    with Desktop(xvfb.display) as desktop:
        desktop.move_pointer(25, 35)
        assert tuple(gui.position()) == (25, 35)  # type: ignore[attr-defined]
