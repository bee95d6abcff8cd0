"""A window that covers one X screen and writes down every button press it receives.

Run as a subprocess by the live tests (``python click_recorder.py :5.0 presses.txt``): it maps an
override-redirect window over the whole screen (no window manager may move it), prints
``ready`` once the window is on screen, then appends ``x y button`` (root coordinates) to the
file for each ButtonPress, flushed at once so a test can read it while it runs. A test that
puts this on the screen the tool must not touch asserts the file stays empty.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from Xlib import X
from Xlib.display import Display

TITLE = "click recorder"


@dataclass
class ClickRecorder:
    """A window covering one X screen that writes down every button press it gets."""

    display: str
    path: Path

    def presses(self) -> list[tuple[int, int, int]]:
        """(x, y, button) of each press so far, in root coordinates of its screen."""
        lines = self.path.read_text().split()
        return [tuple(map(int, lines[i:i + 3])) for i in range(0, len(lines), 3)]  # type: ignore[misc]


def main(display_name: str, path: str) -> int:
    display = Display(display_name)
    screen = display.screen()
    window = screen.root.create_window(
        0, 0, screen.width_in_pixels, screen.height_in_pixels, 0, screen.root_depth,
        X.InputOutput, X.CopyFromParent,
        background_pixel=screen.white_pixel,
        override_redirect=True,
        event_mask=X.ButtonPressMask | X.ButtonReleaseMask | X.ExposureMask | X.StructureNotifyMask,
    )
    window.set_wm_name(TITLE)
    window.map()
    display.sync()
    with open(path, "a", encoding="ascii") as record:
        while True:
            event = display.next_event()
            if event.type == X.MapNotify:
                print("ready", flush=True)
            elif event.type == X.ButtonPress:
                record.write(f"{event.root_x} {event.root_y} {event.detail}\n")
                record.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
