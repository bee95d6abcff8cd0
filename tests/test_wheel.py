"""The wheel a user installs (pip, pipx), built from this checkout, installed into a fresh venv and
run from a directory outside the checkout: it holds the project's own import name only (no tests,
no developer benchmarks, no generic names such as `solver`), and every command that needs no
desktop works from it, its samples and pages included."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from queens_autosolve.solver.formats import read_puzzles
from tests.environment import require_tool

ROOT = Path(__file__).resolve().parents[1]
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
pytestmark = pytest.mark.wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out),
                    str(ROOT)], check=True, capture_output=True, timeout=300)
    (built,) = out.glob("queens_autosolve-*.whl")
    return built


@pytest.fixture(scope="module")
def command(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The installed `queens-autosolve` of a fresh venv (its dependencies from pip's cache). The
    venv gets no pip of its own: this pip installs into it (`--python`), half the time of a venv
    with pip, where only what the wheel brings is under test; for the same reason pip compiles
    nothing (`--no-compile`: 2.6 against 5.7 CPU-s; the commands compile what they import)."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    subprocess.run([*pip, "install", "--quiet", "--disable-pip-version-check", "--no-compile", str(wheel)],
                   check=True, capture_output=True, timeout=600)
    return venv / "bin" / "queens-autosolve"


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working directory outside the checkout, with folders named like our old top-level
    packages: the installed command must not pick them up."""
    for name in ("solver", "vision", "capture", "benchmarks"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("raise ImportError('not ours')\n")
    return tmp_path


def run(command: Path, cwd: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(command), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_the_wheel_holds_the_product_under_its_own_name_only(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    stem = "-".join(wheel.name.split("-")[:2])
    assert tops == {"queens_autosolve", f"{stem}.dist-info", f"{stem}.data"}
    # beside the package, only the shell completion scripts (installed under the prefix's share/)
    assert sorted(n for n in names if n.startswith(f"{stem}.data/")) == [
        f"{stem}.data/data/share/bash-completion/completions/queens-autosolve",
        f"{stem}.data/data/share/fish/vendor_completions.d/queens-autosolve.fish",
    ]
    assert not [n for n in names if "/tests/" in n or "benchmarks" in n or n.endswith("conftest.py")]
    # the pages' files and the samples ship
    assert "queens_autosolve/pages/practice_static/app.js" in names
    assert "queens_autosolve/pages/two_player_static/game.js" in names
    assert "queens_autosolve/samples/queens-09.txt" in names
    assert "queens_autosolve/samples/screenshot-9x9.png" in names


def test_version_solve_and_generate_run_from_another_directory(command: Path, elsewhere: Path) -> None:
    version = run(command, elsewhere, "--version")
    assert version.returncode == 0 and re.fullmatch(r"queens-autosolve \S+\n", version.stdout)
    solved = run(command, elsewhere, "solve", "--sample", "queens-09")
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.count("Q") == 3 * 9  # three 9x9 puzzles, nine queens each
    made = run(command, elsewhere, "generate", "--size", "9", "--seed", "1")
    assert made.returncode == 0, made.stderr
    assert len([row for row in made.stdout.splitlines() if re.fullmatch(r"\S{9}", row)]) == 9
    unknown = run(command, elsewhere, "solve", "--sample", "nope")
    assert unknown.returncode == 2 and "queens-09" in unknown.stderr and "Traceback" not in unknown.stderr


def test_detect_reads_the_shipped_screenshot(command: Path, elsewhere: Path) -> None:
    python = command.with_name("python")
    code = "from queens_autosolve.autosolve.samples import sample_folder; print(sample_folder())"
    folder = subprocess.run([str(python), "-c", code], cwd=elsewhere, capture_output=True, text=True,
                            check=True)
    picture = Path(folder.stdout.strip()) / "screenshot-9x9.png"
    assert ROOT not in picture.parents  # the installed copy, not the checkout's
    detected = run(command, elsewhere, "detect", str(picture))
    assert detected.returncode == 0, detected.stderr
    assert detected.stdout.startswith("# screenshot-9x9 n=9")


def test_bench_runs_bare_on_the_shipped_samples(command: Path, elsewhere: Path) -> None:
    done = run(command, elsewhere, "bench", "--no-peers", "--no-baseline", "--no-grade", timeout=300)
    assert done.returncode == 0, done.stderr
    shipped = sum(len(read_puzzles(str(path))) for path in (ROOT / "games").glob("*.txt"))
    assert f"all {shipped} puzzles solved and checked" in done.stdout


def served(command: Path, cwd: Path, *args: str) -> Iterator[str]:
    """Start a page command, yield the address it printed, stop it."""
    process = subprocess.Popen([str(command), *args, "--no-open"], cwd=cwd, stdout=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            found = re.search(r"http://127\.0\.0\.1:\d+/\S*", line)
            if found:
                yield found.group(0)
                return
        pytest.fail(f"{args} printed no address")
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("args", [("practice", "--size", "6"), ("play", "queens", "--web")])
def test_the_pages_answer_from_the_installed_copy(command: Path, elsewhere: Path,
                                                  args: tuple[str, ...]) -> None:
    for address in served(command, elsewhere, *args):
        with urllib.request.urlopen(address, timeout=10) as page:
            assert page.status == 200
            assert b"<html" in page.read().lower()


def test_the_completion_scripts_install_where_bash_completion_and_fish_find_them(command: Path) -> None:
    """`pip install --user` puts share/ in ~/.local/share, the XDG data home both shells search:
    here the venv's share/ stands for it. The installed files are what the command prints."""
    require_tool(Path(BASH_COMPLETION).exists(), "bash-completion")
    require_tool(shutil.which("fish") is not None, "fish")
    share = command.parent.parent / "share"
    for shell, path in (("bash", "bash-completion/completions/queens-autosolve"),
                        ("fish", "fish/vendor_completions.d/queens-autosolve.fish")):
        printed = subprocess.run([str(command), "completion", shell], capture_output=True, text=True,
                                 timeout=60)
        assert (share / path).read_text() == printed.stdout
    env = {**os.environ, "XDG_DATA_HOME": str(share), "PATH": f"{command.parent}:{os.environ['PATH']}"}
    load = f"source {BASH_COMPLETION}; __load_completion queens-autosolve && complete -p queens-autosolve"
    bash = subprocess.run(["bash", "-c", load], env=env, capture_output=True, text=True, timeout=60)
    assert bash.returncode == 0 and "queens-autosolve" in bash.stdout, bash.stderr
    env["XDG_CONFIG_HOME"] = str(share / "no-config")  # no user config; fish's own still loads
    fish = subprocess.run(["fish", "-c", "complete -C 'queens-autosolve wat'"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert fish.stdout.startswith("watch"), (fish.stdout, fish.stderr)
