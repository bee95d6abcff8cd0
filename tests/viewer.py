"""A tiny image viewer (Tk) for the live tests: shows a PNG in a window titled as asked and writes
every click it receives to a file, so a test can prove that nothing clicked into it.

    python tests/viewer.py IMAGE CLICKS_FILE TITLE
"""

from __future__ import annotations

import sys
import tkinter


def main(image: str, clicks: str, title: str) -> None:
    root = tkinter.Tk(className="imageviewer")
    root.title(title)
    picture = tkinter.PhotoImage(file=image)
    label = tkinter.Label(root, image=picture, borderwidth=0)
    label.pack()

    def record(event: tkinter.Event) -> None:
        with open(clicks, "a", encoding="utf-8") as out:
            out.write(f"{event.x_root},{event.y_root}\n")

    root.bind_all("<Button>", record)
    root.geometry("+40+40")
    root.mainloop()


if __name__ == "__main__":
    main(*sys.argv[1:4])
