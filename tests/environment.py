"""Where the project and the shared data set are, and which desktop tools this machine has: what
the live fixtures (conftest.py), the test modules and the scripts ask before they start anything.
A missing tool skips a live test, except in CI, where it is a failure."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

from queens_autosolve.pages.browser import CHROMIUM_NAMES
from tests.desktops import FIREFOX_NAMES

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
GAMES = ROOT / "games"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
DESKTOP = (1920, 1200)  # room for the 1200x1040 window below a title bar at OFFSET
OFFSET = (300, 120)  # where a decorated browser window is moved, as on a real desktop


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data; the calling test is skipped (with the reason) when absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared data set lives beside the project, see README)")
    return path


def shared_screen_names() -> list[str]:
    """The labelled screenshots of ../shared/data/screens, to parametrize a test by (one name
    saying the data is absent, where shared_path then skips the test)."""
    labels = SHARED_DATA / "screens" / "labels.json"
    return sorted(json.loads(labels.read_text())) if labels.exists() else ["(shared data absent)"]


def require_tool(ok: bool, what: str) -> None:
    """Skip a live test when `what` is missing, except in CI, where a missing tool is a failure."""
    require(ok, f"{what} is not installed (make system-deps installs it)")


def require(ok: bool, why: str) -> None:
    """Skip a live test that cannot run on this machine (`why`), except in CI, where it is a failure."""
    if ok:
        return
    if IN_CI:
        pytest.fail(f"required in CI (CI=true): {why}")
    pytest.skip(why)


def require_root(why: str) -> None:
    """Skip a live test that only root can run (`why`), except in CI, where it is a failure."""
    require(os.geteuid() == 0, f"needs root: {why}")


def have_tkinter() -> bool:
    """Whether this Python has Tk (tests/viewer.py): Debian's own Python needs python3-tk."""
    return importlib.util.find_spec("tkinter") is not None


def have_xvfb() -> bool:
    return shutil.which("Xvfb") is not None


def have_chromium() -> bool:
    return any(shutil.which(name) for name in CHROMIUM_NAMES)


def have_openbox() -> bool:
    return shutil.which("openbox") is not None and shutil.which("xdotool") is not None


def have_firefox() -> bool:
    return any(shutil.which(name) for name in FIREFOX_NAMES)
