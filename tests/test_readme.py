"""Every `queens-autosolve` command the README shows is one a test runs, as written.

The README's commands are read out of its ```sh blocks. Each must be in COVERED below (a new
command in the README fails `test_every_readme_command_is_run_by_a_test` until a test here runs
it), each must parse with the CLI's own parser, and each is then run: the offline ones from a
folder outside the checkout, the live ones against the practice page in a real Chromium on
Xvfb, asserting what the page itself reports.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from queens_autosolve.autosolve.cli import build_parser
from queens_autosolve.pages.browser import CHROMIUM_FLAGS, Xvfb, find_chromium, wait_for_board
from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.solver.generator import generate_puzzle
from tests.environment import have_chromium, have_xvfb, require_tool
from tests.live import practice_page, wait_until

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PROGRAM = "queens-autosolve"
SCREENSHOT = ROOT / "games" / "screenshot-9x9.png"

# The README's commands, each run by the test named beside it (as written; file names in them
# are made to exist in the folder the offline ones run in).
COVERED = {
    "queens-autosolve --version": "test_offline_readme_command",
    "queens-autosolve solve --sample queens-09": "test_offline_readme_command",
    "queens-autosolve generate --size 9 --difficulty hard": "test_offline_readme_command",
    "queens-autosolve detect --json screenshot.png": "test_offline_readme_command",
    "queens-autosolve completion bash": "test_offline_readme_command",
    "queens-autosolve completion zsh": "test_offline_readme_command",
    "queens-autosolve completion fish": "test_offline_readme_command",
    "queens-autosolve practice": "test_first_run_practice_page_in_the_users_browser_then_run",
    "queens-autosolve": "test_first_run_practice_page_in_the_users_browser_then_run",
    "queens-autosolve demo": "test_demo_as_the_readme_runs_it",
    "queens-autosolve --dry-run": "test_live_readme_command",
    "queens-autosolve --window 'Queens | Practice' --delay 0.05 --json": "test_live_readme_command",
    "queens-autosolve --scroll": "test_live_readme_command",
    "queens-autosolve hint": "test_live_readme_command",
    "queens-autosolve hint --apply": "test_live_readme_command",
    "queens-autosolve watch": "test_watch_as_the_readme_runs_it",
}


def readme_commands(page: Path = README) -> list[str]:
    """The `queens-autosolve ...` commands in the sh blocks of `page`, without comments, shell
    redirections or the `eval "$(...)"` around them, normalised by shlex."""
    text = page.read_text(encoding="utf-8")
    commands: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = re.sub(r"(^|\s)#.*$", "", line)  # a comment
            for found in re.findall(rf"{PROGRAM}(?:\s[^>)\n]*)?", line):
                words = shlex.split(found.strip().rstrip('"'))
                commands.append(shlex.join(words))
    return commands


def argv_of(command: str) -> list[str]:
    return shlex.split(command)[1:]


def test_the_readme_shows_commands_and_they_are_found():
    commands = readme_commands()
    assert "queens-autosolve" in commands and "queens-autosolve --dry-run" in commands
    assert len(commands) >= 12


def test_every_readme_command_is_run_by_a_test():
    missing = sorted(set(readme_commands()) - set(COVERED))
    assert not missing, f"README commands no test runs (add them to COVERED and run them): {missing}"
    stale = sorted(set(COVERED) - set(readme_commands()))
    assert not stale, f"COVERED names commands the README no longer shows: {stale}"


DOCS_COMMANDS = sorted({c for page in sorted((ROOT / "docs").glob("*.md")) for c in readme_commands(page)})


@pytest.mark.parametrize("command", sorted(COVERED) + DOCS_COMMANDS)
def test_every_readme_and_docs_command_parses(command):
    """The README's commands, and those docs/ shows (run or not), are ones the CLI takes."""
    argv = argv_of(command)
    if argv in ([], ["--version"]):
        return  # the bare command is `run`; --version exits from the parser (run below)
    if argv[0].startswith("-"):
        argv = ["run", *argv]
    build_parser().parse_args(argv)  # argparse exits (status 2) on an option it does not know


def command_line(command: str) -> list[str]:
    """The command as a user's shell runs it: the installed script beside this Python."""
    script = Path(sys.executable).with_name(PROGRAM)
    start = [str(script)] if script.exists() else [sys.executable, "-m", "queens_autosolve"]
    return [*start, *argv_of(command)]


def run_command(command: str, cwd: Path, env: dict[str, str] | None = None,
                timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command_line(command), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


OFFLINE = sorted(c for c, test in COVERED.items() if test == "test_offline_readme_command")


PACKAGE_DIRS = tuple(sorted(path.parent.name for path in (ROOT / "queens_autosolve").glob("*/__init__.py")))
NAMED_PATH = re.compile(
    r"(?<![\w/.-])((?:queens_autosolve|tests|scripts|benchmarks|games|docs|completions|"
    + "|".join(PACKAGE_DIRS) + r")/[\w/-]+\.(?:py|md|sh|txt|js|html|png))"
)


def test_every_file_the_readme_and_docs_name_exists():
    """A path named in the README, CHANGELOG or docs/ (a package's own folder counts from
    queens_autosolve/) is a file of the tree: renames leave no stale or mangled names behind."""
    missing = []
    for doc in [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for name in NAMED_PATH.findall(doc.read_text()):
            top = name.split("/")[0]
            path = ROOT / "queens_autosolve" / name if top in PACKAGE_DIRS else ROOT / name
            if not path.exists():
                missing.append(f"{doc.name}: {name}")
    assert not missing, missing


@pytest.mark.parametrize("command", OFFLINE)
def test_offline_readme_command(command, tmp_path):
    shutil.copy(SCREENSHOT, tmp_path / "screenshot.png")
    done = run_command(command, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    if "--version" in command:
        assert re.fullmatch(r"queens-autosolve \d+\.\d+\.\d+\n", out)
    elif "solve --sample" in command:
        rows = [line for line in out.splitlines() if set(line) <= {".", "Q"} and len(line) == 9]
        assert rows and len(rows) % 9 == 0 and all(row.count("Q") == 1 for row in rows)
    elif "generate" in command:
        assert "# " in out and len([line for line in out.splitlines() if len(line) == 9]) >= 9
    elif "detect" in command:
        reading = json.loads(out)
        assert reading["n"] == 9 and reading["certain"] is True
    elif "completion" in command:
        assert "queens-autosolve" in out and "watch" in out


# --- live: the practice page in a real Chromium -------------------------------------------------


def fresh_env(display: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "SWAYSOCK")}
    env["DISPLAY"] = display
    return env


@pytest.fixture
def own_display() -> Iterator[Xvfb]:
    """A display of this test's own: the user's browser is started on it by the practice command."""
    require_tool(have_xvfb(), "Xvfb")
    require_tool(have_chromium(), "Chromium")
    with Xvfb() as server:
        yield server


def users_browser(folder: Path) -> Path:
    """A BROWSER for Python's webbrowser, as a user's desktop has one: it starts a Chromium of
    its own (in the background, as a desktop's browser launcher does) and notes its pid."""
    script = folder / "browser.sh"
    flags = " ".join(shlex.quote(flag) for flag in CHROMIUM_FLAGS)
    no_sandbox = "--no-sandbox" if os.geteuid() == 0 else ""
    script.write_text(
        "#!/bin/sh\n"
        f"{shlex.quote(find_chromium())} {flags} {no_sandbox} --user-data-dir={folder / 'profile'} "
        f"--window-position=0,0 --window-size=1200,1040 \"$1\" >/dev/null 2>&1 &\n"
        f"echo $! > {folder / 'browser.pid'}\n")
    script.chmod(0o755)
    return script


def stop(pid_file: Path) -> None:
    if pid_file.exists():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid_file.read_text()), signal.SIGTERM)


@pytest.mark.e2e
def test_first_run_practice_page_in_the_users_browser_then_run(own_display, tmp_path):
    """README, First run: `queens-autosolve practice` opens the page in the user's browser, then
    `queens-autosolve` in another terminal solves it; the practice command says it was solved."""
    env = fresh_env(own_display.display)
    env["BROWSER"] = f"{users_browser(tmp_path)} %s"
    practice = subprocess.Popen(command_line("queens-autosolve practice"), cwd=tmp_path, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = practice.stdout.readline() if practice.stdout else ""
        assert "Queens practice" in first and "http://127.0.0.1:" in first, first
        n = int(re.search(r"(\d+)x\1", first).group(1))  # type: ignore[union-attr]
        wait_for_board(own_display.display, n)
        done = run_command("queens-autosolve", cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        assert "solved" in done.stdout and "timings:" in done.stdout
        said = [practice.stdout.readline() for _ in range(2)] if practice.stdout else []
        assert said[0].startswith("Press Ctrl-C") and said[1].startswith("solved in "), said
    finally:
        practice.send_signal(signal.SIGINT)
        practice.wait(timeout=20)
        stop(tmp_path / "browser.pid")
    assert practice.returncode == 0


@pytest.mark.e2e
def test_demo_as_the_readme_runs_it(tmp_path):
    require_tool(have_xvfb() and have_chromium(), "Xvfb and Chromium")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK")}
    done = run_command("queens-autosolve demo", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert "the practice page reports: solved (9x9)" in done.stdout
    assert "next, try:" in done.stdout and "practice" in done.stdout.split("next, try:")[1]


LIVE = sorted(c for c, test in COVERED.items() if test == "test_live_readme_command")


@pytest.mark.parametrize("command", LIVE)
def test_live_readme_command(command, browser, xvfb, tmp_path):
    puzzle = generate_puzzle(9, rng=901)
    with practice_page(browser, puzzle) as server:
        assert isinstance(server, PracticeServer)
        done = run_command(command, cwd=tmp_path, env=fresh_env(xvfb.display))
        assert done.returncode == 0, done.stderr
        state = server.state()
        if command.endswith("--dry-run"):
            assert state.moves == 0 and "(dry run: nothing clicked)" in done.stdout
        elif command.endswith("hint"):
            assert state.moves == 0 and "next step" in done.stdout
        elif command.endswith("hint --apply"):
            wait_until(lambda: server.state().moves > 0, what="the hint's step on the page")
        else:
            state = server.wait_for(solved=True, timeout=5)
            assert state.solved
            if "--json" in command:
                assert json.loads(done.stdout)["ok"] is True


def test_watch_as_the_readme_runs_it(browser, xvfb, tmp_path):
    """`queens-autosolve watch`: stays up, solves the board it sees, ends with Ctrl-C (130)."""
    puzzle = generate_puzzle(9, rng=902)
    with practice_page(browser, puzzle, win_screen="none") as server:
        watch = subprocess.Popen(command_line("queens-autosolve watch"), cwd=tmp_path,
                                 env=fresh_env(xvfb.display), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        try:
            assert server.wait_for(solved=True, timeout=20).solved
            time.sleep(0.3)
        finally:
            watch.send_signal(signal.SIGINT)
            out, err = watch.communicate(timeout=20)
    assert watch.returncode == 130, err
    assert "board 1: 9x9" in out and "watched 1 board(s): 1 solved" in out, (out, err)
