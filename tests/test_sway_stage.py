"""The sway stage's refusals (autosolve/sway.py) and `demo --desktop` for a desktop it does not
start: one line, exit status 2, before anything starts. The stage itself runs in
tests/test_e2e_sway.py."""

from __future__ import annotations

import pytest

from queens_autosolve.pages import sway
from queens_autosolve.pages.browser import StageError


def test_a_user_who_is_not_root_gets_a_stage_without_namespaces_and_an_isolated_one_is_refused(monkeypatch):
    monkeypatch.setattr("queens_autosolve.pages.sway.shutil.which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr("queens_autosolve.pages.sway.os.geteuid", lambda: 1000)
    assert sway.Sway().isolated is False
    sway.check_can_start(isolated=False)
    with pytest.raises(StageError) as raised:
        sway.check_can_start(isolated=True)
    message = str(raised.value)
    assert "needs root" in message and "namespace" in message and "\n" not in message


def test_the_runtime_directory_is_never_under_tmp_in_a_namespace_and_the_users_own_outside_one(monkeypatch):
    """The namespace mounts a private /tmp: a runtime directory there would vanish for sway."""
    assert not sway.runtime_parent().startswith("/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1000")
    assert sway.runtime_parent(isolated=False) == "/run/user/1000"
