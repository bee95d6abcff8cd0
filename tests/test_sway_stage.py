"""The sway stage's refusals (autosolve/sway.py) and `demo --desktop` for a desktop it does not
start: one line, exit status 2, before anything starts. The stage itself runs in
tests/test_e2e_sway.py."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from autosolve import sway
from autosolve.browser import StageError


def test_a_headless_sway_is_refused_to_a_user_who_is_not_root(monkeypatch):
    monkeypatch.setattr(sway.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(sway.os, "geteuid", lambda: 1000)
    with pytest.raises(StageError) as raised:
        sway.check_can_start()
    message = str(raised.value)
    assert "needs root" in message and "inside your sway session" in message and "\n" not in message


def test_the_runtime_directory_is_never_under_tmp():
    """The namespace mounts a private /tmp: a runtime directory there would vanish for sway."""
    assert not sway.runtime_parent().startswith("/tmp")


def test_demo_on_a_desktop_it_cannot_start_yet_exits_2_with_one_line():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK")}
    done = subprocess.run([sys.executable, "-m", "autosolve", "demo", "--desktop", "gnome", "--size", "5"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "--desktop gnome is not supported yet" in done.stderr and "sway" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
