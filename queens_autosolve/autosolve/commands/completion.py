"""`queens-autosolve completion bash|zsh|fish`: print the shell completion script.

    eval "$(queens-autosolve completion bash)"        # in ~/.bashrc
    eval "$(queens-autosolve completion zsh)"         # in ~/.zshrc
    queens-autosolve completion fish > ~/.config/fish/completions/queens-autosolve.fish
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from queens_autosolve.autosolve.shell_completion import SHELLS

    parser = subparsers.add_parser(
        "completion", help="print the shell completion script (bash, zsh or fish)",
        description="Print a completion script for your shell: subcommands, options and their choices "
        "complete on TAB. bash: eval \"$(queens-autosolve completion bash)\" in ~/.bashrc; zsh: the same "
        "with zsh in ~/.zshrc; fish: queens-autosolve completion fish > "
        "~/.config/fish/completions/queens-autosolve.fish",
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from queens_autosolve.autosolve.cli import PROG, build_parser
    from queens_autosolve.autosolve.shell_completion import script

    print(script(args.shell, PROG, build_parser(), default="run"), end="")
    return 0
