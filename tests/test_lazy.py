"""The one lazy loader of package names (queens_autosolve/lazy.py), as capture/ and vision/ use it."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_a_name_loads_from_its_module_on_first_use_and_stays():
    code = ("import sys, queens_autosolve.capture as capture\n"
            "assert 'queens_autosolve.capture.geometry' not in sys.modules\n"
            "rect = capture.Rect\n"
            "assert rect.__module__ == 'queens_autosolve.capture.geometry'\n"
            "assert vars(capture)['Rect'] is rect\n"
            "assert 'Xlib' not in sys.modules and 'cv2' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_unknown_name_is_an_attribute_error_naming_the_package():
    import queens_autosolve.vision as vision

    with pytest.raises(AttributeError, match=r"'queens_autosolve.vision' has no attribute 'CellState'"):
        vision.CellState  # noqa: B018 - the lookup is the test
