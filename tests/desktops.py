"""Test desktops beyond the demo's (autosolve/browser.py): Firefox (a second browser) and the
openbox window manager, for the live tests and scripts/click_loss.py. Conditions the tool meets
on users' desktops, not part of the product (the demo runs Chromium on a bare Xvfb)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from autosolve.browser import Browser, MissingTool, StageError, stop_process

FIREFOX_NAMES = ("firefox", "firefox-esr")
APT_FIREFOX = "sudo apt-get update && sudo apt-get install -y firefox-esr"

# A quiet, repeatable Firefox: no first-run or what's-new pages, no telemetry, no updates, no
# default-browser question, no session restore after we kill it, nothing fetched from the net.
FIREFOX_PREFS: dict[str, object] = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.page": 0,
    "browser.startup.homepage_override.mstone": "ignore",
    "startup.homepage_welcome_url": "",
    "startup.homepage_welcome_url.additional": "",
    "browser.aboutwelcome.enabled": False,
    "trailhead.firstrun.didSeeAboutWelcome": True,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.policy.firstRunURL": "",
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.auto": False,
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "browser.sessionstore.resume_from_crash": False,
    "browser.sessionstore.max_resumed_crashes": 0,
    "toolkit.startup.max_resumed_crashes": -1,
    "browser.tabs.warnOnClose": False,
    "browser.warnOnQuit": False,
    "browser.newtabpage.enabled": False,
    "browser.uitour.enabled": False,
    "browser.discovery.enabled": False,
    "browser.translations.enable": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "browser.tabs.unloadOnLowMemory": False,
    "toolkit.cosmeticAnimations.enabled": False,
}


def find_firefox() -> str:
    """The Firefox executable, or MissingTool with the apt command."""
    for name in FIREFOX_NAMES:
        path = shutil.which(name)
        if path:
            return path
    raise MissingTool(f"Firefox is not installed; install it with: {APT_FIREFOX}")


@dataclass
class Firefox(Browser):
    """A real Firefox window showing one URL. Firefox has no switch-page endpoint like
    Chromium's, so `open` restarts it on the same profile (about two seconds). Its window title
    ends in "Mozilla Firefox"."""

    log: Path | None = field(default=None, init=False)

    def start(self, url: str) -> Firefox:
        binary = find_firefox()
        if self.profile is None:
            self.profile = Path(tempfile.mkdtemp(prefix="queens-firefox-"))
            self._write_profile()
        self.log = self.profile / "stderr.log"
        args = [binary, "--no-remote", "--new-instance", "--profile", str(self.profile),
                "--width", str(self.size[0]), "--height", str(self.size[1]), url]
        env = dict(os.environ, DISPLAY=self.display, MOZ_CRASHREPORTER_DISABLE="1",
                   MOZ_DISABLE_AUTO_SAFE_MODE="1")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=log,
                                            start_new_session=True)
        return self

    def _write_profile(self) -> None:
        assert self.profile is not None
        lines = [f"user_pref({json.dumps(name)}, {json.dumps(value)});"
                 for name, value in FIREFOX_PREFS.items()]
        (self.profile / "user.js").write_text("\n".join(lines) + "\n")
        # The window's size on its first start: Firefox reads it from xulstore.json.
        width, height = self.size
        window = {"width": str(width), "height": str(height), "screenX": "0", "screenY": "0",
                  "sizemode": "normal"}
        store = {"chrome://browser/content/browser.xhtml": {"main-window": window}}
        (self.profile / "xulstore.json").write_text(json.dumps(store))

    def open(self, url: str) -> None:
        """Show `url`: restart Firefox on the same profile."""
        stop_process(self.process)
        self.process = None
        self.start(url)

    def check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            status = self.process.returncode
            tail = self.log.read_text(errors="replace")[-600:] if self.log and self.log.exists() else ""
            raise StageError(f"Firefox exited with status {status} (display {self.display}): {tail}")


@dataclass
class Openbox:
    """The openbox window manager on `display`: decorated windows, click-to-focus, placement.

    `start` returns once openbox manages the screen (it has set _NET_SUPPORTING_WM_CHECK on
    the root window), so a window opened afterwards is already framed.
    """

    display: str
    timeout: float = 10.0
    config: Path | None = None  # an rc.xml instead of the system's (/etc/xdg/openbox/rc.xml)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    def start(self) -> Openbox:
        binary = shutil.which("openbox")
        if binary is None:
            raise MissingTool("openbox is not installed; install it with: sudo apt-get install -y openbox")
        env = dict(os.environ, DISPLAY=self.display)
        args = [binary, "--sm-disable"]
        if self.config is not None:
            args += ["--config-file", str(self.config)]
        self.process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        self._wait_until_managing()
        return self

    def _wait_until_managing(self) -> None:
        from Xlib.display import Display

        deadline = time.monotonic() + self.timeout
        connection = Display(self.display)
        try:
            atom = connection.intern_atom("_NET_SUPPORTING_WM_CHECK")
            root = connection.screen().root
            while time.monotonic() < deadline:
                if root.get_full_property(atom, 0) is not None:
                    return
                if self.process is not None and self.process.poll() is not None:
                    raise StageError(f"openbox exited with status {self.process.returncode}")
                time.sleep(0.05)
        finally:
            connection.close()
        self.stop()
        raise StageError(f"openbox did not manage display {self.display} within {self.timeout:g}s")

    def stop(self) -> None:
        stop_process(self.process)
        self.process = None

    def __enter__(self) -> Openbox:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
