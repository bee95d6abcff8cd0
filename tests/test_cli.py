"""The CLI's wiring: every subcommand exists, help works, user errors exit 2 without a traceback."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

from queens_autosolve.autosolve.cli import COMMANDS, build_parser, main


@pytest.mark.parametrize("name", COMMANDS)
def test_every_subcommand_is_written_and_registers(name):
    module = importlib.import_module(f"queens_autosolve.autosolve.commands.{name}")
    args = build_parser().parse_args([name, *_minimal_args(name)])
    # the parsed command runs a function its own module defines, not another command's
    assert args.func.__module__ == module.__name__, f"{name} runs {args.func.__module__}.{args.func.__name__}"


def test_the_commands_listed_are_the_modules_written_and_the_parser_offers_them_all():
    import argparse
    import pkgutil

    from queens_autosolve.autosolve import commands

    written = {module.name for module in pkgutil.iter_modules(commands.__path__)}
    assert written == set(COMMANDS)
    subparsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert list(subparsers.choices) == list(COMMANDS)


def _minimal_args(name: str) -> list[str]:
    minimal = {"solve": ["x.txt"], "detect": ["x.png"], "generate": ["--size", "5"], "play": ["corner"],
               "arena": ["amazons"], "completion": ["bash"]}
    return minimal.get(name, [])


@pytest.mark.parametrize("name", COMMANDS)
def test_help_of_each_subcommand_exits_zero(name, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([name, "--help"])
    assert exit_info.value.code == 0
    assert name in capsys.readouterr().out


def test_unknown_subcommand_is_one_line_and_status_2(capsys):
    assert main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "frobnicate" in err and "--help" in err and "usage" not in err


def test_missing_puzzle_file_is_one_line_and_status_2(capsys, tmp_path):
    status = main(["solve", str(tmp_path / "nope.txt")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "no such file" in err and "Traceback" not in err


def test_console_script_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "queens_autosolve",
                           "--version"], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout.startswith("queens-autosolve ")


def test_a_subcommand_imports_only_its_own_stage():
    """Solving a text puzzle loads neither the vision stack (numpy, OpenCV) nor the coach: their
    imports were most of the command's start-up."""
    code = (
        "import sys; from queens_autosolve.autosolve.cli import main; main(['solve', '--count', "
        "'https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk']); "
        "print(*(name in sys.modules for name in ('cv2', 'numpy', 'queens_autosolve.twoplayer', "
        "'queens_autosolve.solver.coach')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False False False False"


def test_the_demo_refuses_a_size_the_screen_reader_cannot_read_before_numpy_loads():
    code = (
        "import sys; from queens_autosolve.autosolve.cli import main; "
        "status = main(['demo', '--size', '31']); print(status, 'numpy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "2 False", done.stderr
    assert "4x4 to 30x30" in done.stderr


@pytest.mark.parametrize(("given", "seen"), [(None, "1"), ("3", "3")])
def test_the_command_asks_openblas_for_one_thread_unless_the_user_chose(given, seen):
    """The setting only works if numpy is imported after it: importing the CLI must not import
    numpy, and the installed command sets it before main runs (the user's own value wins)."""
    code = (
        "import os, sys; from queens_autosolve.autosolve import cli; assert 'numpy' not in sys.modules; "
        "cli.main = lambda: print(os.environ.get('OPENBLAS_NUM_THREADS')) or 0; cli.entry()"
    )
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == seen
