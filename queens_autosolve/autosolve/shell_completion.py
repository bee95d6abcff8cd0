"""Shell completion scripts for bash, zsh and fish, written out of the CLI's own argparse parser.

The scripts are static: every subcommand, option and choice is written into them once, so a TAB
costs the shell a lookup and never starts Python. (argcomplete would run the command on each TAB,
and building the whole parser imports every stage, which takes most of a second: docs/notes.md.)
Run `queens-autosolve completion SHELL` again after an upgrade to pick up new options.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

SHELLS = ("bash", "zsh", "fish")
_FILE_VALUE = re.compile(r"FILE|IMAGE")  # a metavar naming a file: the shell offers file names


@dataclass(frozen=True)
class OptionSpec:
    """One option of one command, as completion sees it."""

    flags: tuple[str, ...]
    help: str
    takes_value: bool
    choices: tuple[str, ...] = ()
    files: bool = False


@dataclass(frozen=True)
class CommandSpec:
    """One (sub)command: its path of names from the top (``("play", "queens")``), its options, its
    subcommands, the choices of its positional arguments, and whether they take file names."""

    path: tuple[str, ...]
    help: str
    options: tuple[OptionSpec, ...]
    subcommands: tuple[str, ...]
    files: bool
    values: tuple[str, ...] = ()


def command_specs(parser: argparse.ArgumentParser, path: tuple[str, ...] = (),
                  help_text: str = "") -> Iterator[CommandSpec]:
    """`parser` and every parser under it, top first."""
    options: list[OptionSpec] = []
    below: list[tuple[str, argparse.ArgumentParser, str]] = []
    files = False
    values: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            below += [(name, sub, helps.get(name, "")) for name, sub in action.choices.items()]
        elif action.option_strings:
            options.append(_option_spec(action))
        elif action.choices:
            values += [str(choice) for choice in action.choices]
        else:
            files = files or bool(_FILE_VALUE.search(str(action.metavar or "")))
    subcommands = tuple(name for name, _, _ in below)
    yield CommandSpec(path, help_text, tuple(options), subcommands, files, tuple(values))
    for name, sub, text in below:
        yield from command_specs(sub, (*path, name), text)


def _option_spec(action: argparse.Action) -> OptionSpec:
    takes_value = action.nargs != 0
    choices = tuple(str(c) for c in action.choices) if action.choices else ()
    files = takes_value and not choices and bool(_FILE_VALUE.search(str(action.metavar or "")))
    help_text = "" if action.help in (None, argparse.SUPPRESS) else str(action.help)
    return OptionSpec(tuple(action.option_strings), help_text, takes_value, choices, files)


def script(shell: str, prog: str, parser: argparse.ArgumentParser, default: str | None = None) -> str:
    """The completion script for `shell`. `default` names the subcommand that runs when none is
    given (its options are offered at the top level too)."""
    specs = _with_default_options(list(command_specs(parser)), default)
    if shell == "bash":
        return bash_script(prog, specs)
    if shell == "zsh":
        return zsh_script(prog, specs)
    if shell == "fish":
        return fish_script(prog, specs)
    raise ValueError(f"no completion for shell {shell!r}: choose one of {', '.join(SHELLS)}")


def _with_default_options(specs: list[CommandSpec], default: str | None) -> list[CommandSpec]:
    """The top command with the default subcommand's options added (``prog --dry-run`` is
    ``prog run --dry-run``)."""
    top, *rest = specs
    run = next((s for s in rest if s.path == (default,)), None)
    if run is None:
        return specs
    known = {flag for option in top.options for flag in option.flags}
    extra = tuple(o for o in run.options if not known & set(o.flags))
    return [dataclasses.replace(top, options=top.options + extra), *rest]


# --- bash ----------------------------------------------------------------------------------------


def _function_name(prog: str) -> str:
    return "_" + re.sub(r"\W", "_", prog)


def bash_script(prog: str, specs: list[CommandSpec]) -> str:
    """A bash function that walks the words typed so far down the subcommands, then offers the
    choices of an option waiting for its value, or for the command reached: its options after a
    "-", else its subcommands and file names where a file goes."""
    func = _function_name(prog)
    paths = [" ".join(s.path) for s in specs if s.path]
    lines = [
        f"# bash completion for {prog}: eval \"$({prog} completion bash)\" (or save it in",
        f"# ~/.local/share/bash-completion/completions/{prog})",
        f"{func}() {{",
        '    local cur prev path word words i',
        '    cur="${COMP_WORDS[COMP_CWORD]}"',
        '    prev="${COMP_WORDS[COMP_CWORD-1]}"',
        '    path=""',
        '    for ((i = 1; i < COMP_CWORD; i++)); do',
        '        word="${COMP_WORDS[i]}"',
        '        case "${path:+$path }$word" in',
        f"            {_bash_alternatives(paths)}) path=\"${{path:+$path }}$word\" ;;",
        "        esac",
        "    done",
        '    COMPREPLY=()',
        '    case "$path|$prev" in',
    ]
    lines += _bash_value_cases(specs)
    lines += ["    esac", '    case "$path" in']
    for spec in specs:
        flags = " ".join(flag for option in spec.options for flag in option.flags)
        lines.append(f"        {shlex.quote(' '.join(spec.path))})")
        # A word starting with "-" is an option; any other is a subcommand or a file name (the
        # options are offered for it only where neither goes).
        offered = spec.subcommands + spec.values
        others = " ".join(offered) if offered or spec.files else flags
        lines.append(f"            if [[ $cur == -* ]]; then words={shlex.quote(flags)}; "
                     f"else words={shlex.quote(others)}; fi")
        lines.append('            COMPREPLY=($(compgen -W "$words" -- "$cur"))')
        if spec.files:
            lines.append('            [[ $cur != -* ]] && COMPREPLY+=($(compgen -f -- "$cur"))')
        lines.append("            ;;")
    lines += ["    esac", "}", f"complete -o filenames -F {func} {prog}", ""]
    return "\n".join(lines)


def _bash_alternatives(words: list[str]) -> str:
    return "|".join(shlex.quote(word) for word in words) or "''"


def _bash_value_cases(specs: list[CommandSpec]) -> list[str]:
    """The case arms for an option that waits for its value: its choices, file names, or nothing."""
    arms: dict[str, list[str]] = {}
    for spec in specs:
        for option in spec.options:
            if not option.takes_value:
                continue
            if option.choices:
                reply = f"COMPREPLY=($(compgen -W {shlex.quote(' '.join(option.choices))} -- \"$cur\"))"
            elif option.files:
                reply = 'COMPREPLY=($(compgen -f -- "$cur"))'
            else:
                reply = ":"  # a number or a name: nothing to offer, and not the options either
            keys = [shlex.quote(f"{' '.join(spec.path)}|{flag}") for flag in option.flags]
            arms.setdefault(reply, []).extend(keys)
    return [f"        {'|'.join(keys)}) {reply}; return ;;" for reply, keys in arms.items()]


# --- zsh -----------------------------------------------------------------------------------------


def zsh_script(prog: str, specs: list[CommandSpec]) -> str:
    """zsh runs the bash function through its bashcompinit layer (part of zsh itself)."""
    return "\n".join([
        f"#compdef {prog}",
        f"# zsh completion for {prog}: eval \"$({prog} completion zsh)\" in ~/.zshrc",
        "autoload -U +X compinit && compinit",
        "autoload -U +X bashcompinit && bashcompinit",
        bash_script(prog, specs),
    ])


# --- fish ----------------------------------------------------------------------------------------


def fish_script(prog: str, specs: list[CommandSpec]) -> str:
    """`complete` lines for fish: each option and subcommand, with its help as the description,
    offered once the words of its command's path have been typed."""
    lines = [f"# fish completion for {prog}: {prog} completion fish > ~/.config/fish/completions/{prog}.fish",
             f"complete -c {prog} -f"]
    for spec in specs:
        where = _fish_condition(spec.path, spec.subcommands)
        by_name = {s.path[-1]: s.help for s in specs if s.path[:-1] == spec.path and s.path}
        for name in spec.subcommands:
            lines.append(f"complete -c {prog} -n {shlex.quote(where)} -a {shlex.quote(name)} "
                         f"-d {shlex.quote(_summary(by_name.get(name, '')))}")
        for option in spec.options:
            lines.append(f"complete -c {prog} -n {shlex.quote(where)} {_fish_option(option)}")
        if spec.values:
            values = shlex.quote(" ".join(spec.values))
            lines.append(f"complete -c {prog} -n {shlex.quote(where)} -a {values}")
        if spec.files:
            lines.append(f"complete -c {prog} -n {shlex.quote(where)} -F")
    return "\n".join(lines) + "\n"


def _fish_condition(path: tuple[str, ...], subcommands: tuple[str, ...]) -> str:
    """True in fish once every word of `path` is typed and none of `subcommands` yet."""
    if not path:
        return "__fish_use_subcommand"
    seen = [f"__fish_seen_subcommand_from {word}" for word in path]
    if subcommands:
        seen.append(f"not __fish_seen_subcommand_from {' '.join(subcommands)}")
    return "; and ".join(seen)


def _fish_option(option: OptionSpec) -> str:
    words = []
    for flag in option.flags:
        words += ["-l", flag[2:]] if flag.startswith("--") else ["-s", flag[1:]]
    if option.choices:
        words += ["-x", "-a", shlex.quote(" ".join(option.choices))]
    elif option.files:
        words += ["-r", "-F"]
    elif option.takes_value:
        words.append("-x")
    return " ".join([*words, "-d", shlex.quote(_summary(option.help))])


def _summary(text: str) -> str:
    """A help text's first clause, short enough for a completion menu."""
    first = re.split(r"[.;(]", " ".join(text.split()), maxsplit=1)[0].strip()
    return first if len(first) <= 60 else first[:57].rstrip() + "..."
