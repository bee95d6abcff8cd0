"""Shared test fixtures: where ../shared/data is, and whether live (X11/Chromium) tests may skip."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
GAMES = ROOT / "games"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data; the calling test is skipped (with the reason) when absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared data set lives beside the project, see README)")
    return path


def require_tool(ok: bool, what: str) -> None:
    """Skip a live test when `what` is missing, except in CI, where a missing tool is a failure."""
    if ok:
        return
    if IN_CI:
        pytest.fail(f"{what} is required in CI (CI=true); install it: make system-deps")
    pytest.skip(f"{what} is not installed (make system-deps installs it)")
