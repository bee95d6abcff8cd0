"""`queens-autosolve completion`: the bash script, loaded into a real bash, completes what the
CLI offers; the zsh and fish scripts are checked by those shells when they are installed."""

from __future__ import annotations

import os
import pty
import re
import select
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from queens_autosolve.autosolve.cli import COMMANDS, main
from queens_autosolve.autosolve.shell_completion import SHELLS
from tests.environment import require_tool

PROG = "queens-autosolve"


@pytest.fixture(scope="module")
def scripts() -> dict[str, str]:
    return {shell: subprocess.run([sys.executable, "-m", "queens_autosolve", "completion", shell],
                                  capture_output=True, text=True, check=True, timeout=60).stdout
            for shell in SHELLS}


def bash_complete(script: str, line: str, cwd: str = ".") -> list[str]:
    """What bash offers on TAB after `line` (its last word, possibly empty, is the one completed)."""
    words = line.split(" ")
    program = "\n".join([
        script,
        f"COMP_WORDS=({' '.join(_bash_quote(word) for word in words)})",
        f"COMP_CWORD={len(words) - 1}",
        f"COMP_LINE={_bash_quote(line)}",
        f"COMP_POINT={len(line)}",
        "_queens_autosolve",
        "printf '%s\\n' \"${COMPREPLY[@]}\"",
    ])
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True,
                          cwd=cwd, check=True, timeout=30)
    assert done.stderr == ""
    return [word for word in done.stdout.splitlines() if word]


def _bash_quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def test_bash_registers_the_completion_for_the_command(scripts):
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", f"{scripts['bash']}\ncomplete -p {PROG}"],
                          capture_output=True, text=True, check=True, timeout=30)
    assert done.stdout.strip() == f"complete -o filenames -F _queens_autosolve {PROG}"


def test_bash_completes_every_subcommand_and_the_main_jobs_options(scripts):
    assert bash_complete(scripts["bash"], f"{PROG} ") == list(COMMANDS)
    offered = bash_complete(scripts["bash"], f"{PROG} --")
    assert {"--dry-run", "--version", "--json", "--window"} <= set(offered)
    assert bash_complete(scripts["bash"], f"{PROG} ge") == ["generate"]
    assert bash_complete(scripts["bash"], f"{PROG} comp") == ["completion"]


def test_bash_completes_nested_subcommands_options_and_choices(scripts):
    bash = scripts["bash"]
    assert bash_complete(bash, f"{PROG} play ") == ["queens", "corner", "amazons", "superqueen"]
    assert "--mode" in bash_complete(bash, f"{PROG} play queens --mo")
    assert bash_complete(bash, f"{PROG} play queens --mode ") == ["hard", "easy"]
    assert bash_complete(bash, f"{PROG} generate --size 9 --rule d") == ["diagonal"]
    assert bash_complete(bash, f"{PROG} generate --size ") == []  # a number: no options offered there
    assert "--json" in bash_complete(bash, f"{PROG} generate --size 9 ")  # no subcommand, no file
    assert bash_complete(bash, f"{PROG} completion ") == list(SHELLS)
    assert "--analyse" not in bash_complete(bash, f"{PROG} arena queens --")


def test_bash_offers_file_names_where_a_file_goes(scripts, tmp_path):
    (tmp_path / "puzzles.txt").write_text("# p n=4\nABBB\nABCC\nDDCC\nDDDD\n")
    folder = str(tmp_path)
    assert bash_complete(scripts["bash"], f"{PROG} solve pu", cwd=folder) == ["puzzles.txt"]
    assert bash_complete(scripts["bash"], f"{PROG} play queens --board pu", cwd=folder) == ["puzzles.txt"]
    assert bash_complete(scripts["bash"], f"{PROG} generate pu", cwd=folder) == []


def zsh_tab(script: Path, typed: str, expected: re.Pattern[str]) -> str:
    """Type `typed` and TAB into an interactive zsh (no user config) that sourced `script`; what
    zsh drew on the terminal after the TAB (escape sequences removed), once it shows `expected`
    or after 20 s."""
    pid, terminal = pty.fork()
    if pid == 0:  # the child: zsh on the terminal's other end
        os.execvp("zsh", ["zsh", "-f", "-i"])
    try:
        os.write(terminal, f"source {script} && print SOURCED-$((6 * 7))\n".encode())
        _read_terminal(terminal, re.compile("SOURCED-42"))  # the sum: not the echo of the line typed
        os.write(terminal, f"{typed}\t".encode())
        return _read_terminal(terminal, expected)
    finally:
        os.write(terminal, b"\x15exit\n")
        os.close(terminal)
        os.waitpid(pid, 0)


def _read_terminal(terminal: int, expected: re.Pattern[str], seconds: float = 20.0) -> str:
    """What the terminal shows until `expected` appears in it (or `seconds` pass), plain text."""
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if select.select([terminal], [], [], 0.1)[0]:
            try:
                data += os.read(terminal, 65536)
            except OSError:
                break
            text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\x07\x08\r]", "", data.decode(errors="replace"))
            if expected.search(text):
                return text
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\x07\x08\r]", "", data.decode(errors="replace"))


def test_zsh_completes_through_bashcompinit_on_tab(scripts, tmp_path):
    assert scripts["zsh"].startswith(f"#compdef {PROG}\n") and scripts["bash"] in scripts["zsh"]
    require_tool(shutil.which("zsh") is not None, "zsh")
    script = tmp_path / "completion.zsh"
    script.write_text(scripts["zsh"])
    subprocess.run(["zsh", "-n", str(script)], check=True, timeout=30)
    games = re.compile(r"amazons\s+corner\s+queens\s+superqueen")
    assert games.search(zsh_tab(script, f"{PROG} play ", games))
    modes = re.compile(r"easy\s+hard")
    assert modes.search(zsh_tab(script, f"{PROG} play queens --mode ", modes))


def fish_complete(script: Path, line: str) -> list[str]:
    """What fish offers for `line` (`complete -C`), with the script sourced: the words only."""
    done = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C {shlex.quote(line)}"],
                          capture_output=True, text=True, check=True, timeout=30)
    return [row.split("\t")[0] for row in done.stdout.splitlines()]


def test_fish_completes_subcommands_with_their_help_and_choices(scripts, tmp_path):
    require_tool(shutil.which("fish") is not None, "fish")
    script = tmp_path / "queens-autosolve.fish"
    script.write_text(scripts["fish"])
    assert set(fish_complete(script, f"{PROG} ")) == set(COMMANDS)
    assert fish_complete(script, f"{PROG} play ") == ["amazons", "corner", "queens", "superqueen"]
    assert fish_complete(script, f"{PROG} play queens --mode ") == ["easy", "hard"]
    assert fish_complete(script, f"{PROG} completion ") == sorted(SHELLS)
    assert "--json" in fish_complete(script, f"{PROG} generate --")


def test_an_unknown_shell_is_a_user_error(capsys):
    assert main(["completion", "tcsh"]) == 2
    assert "tcsh" in capsys.readouterr().err


@pytest.mark.parametrize(("shell", "path"), [("bash", "completions/bash/queens-autosolve"),
                                             ("fish", "completions/fish/queens-autosolve.fish")])
def test_the_scripts_the_wheel_installs_are_what_the_command_prints(scripts, shell, path):
    """The wheel ships these files (pyproject's data-files); after a change to the CLI, make
    them again with `queens-autosolve completion SHELL > PATH`."""
    kept = (Path(__file__).resolve().parents[1] / path).read_text()
    assert kept == scripts[shell], f"{path} is stale: run queens-autosolve completion {shell} > {path}"
