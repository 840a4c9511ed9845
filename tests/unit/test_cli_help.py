"""Every argument of every command line has help text that shows its default."""
from __future__ import annotations

import argparse

import pytest

from compat.__main__ import main as compat_main
from tf1_pipelines.__main__ import _parser as package_parser
from tf1_pipelines.pipelines.stylegan_lod.__main__ import _parser as stylegan_parser


def arguments(parser: argparse.ArgumentParser, where: str = "") -> list[tuple[str, argparse.Action]]:
    """``(command path, action)`` for every argument of ``parser`` and its sub-commands."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += arguments(sub, f"{where} {name}")
        elif not isinstance(action, argparse._HelpAction):
            found.append((where, action))
    return found


@pytest.mark.parametrize("parser", [package_parser(), stylegan_parser()],
                         ids=["tf1_pipelines", "stylegan_lod"])
def test_every_argument_has_help_with_its_default(parser: argparse.ArgumentParser) -> None:
    found = arguments(parser)
    assert len(found) >= 8
    for where, action in found:
        name = f"{where} {action.option_strings or action.dest}"
        assert action.help and action.help != argparse.SUPPRESS, name
        if action.option_strings and action.required:  # a required option
            assert "(required)" in action.help, name
        elif action.option_strings:  # an option: its default is shown
            assert "(default: " in action.help, name
        else:  # a positional argument: there is none
            assert "(required)" in action.help, name


def test_rendered_help_shows_the_defaults() -> None:
    convert = package_parser()._subparsers._group_actions[0].choices["convert"]  # type: ignore
    text = " ".join(convert.format_help().split())
    assert "(default: 96)" in text and "(default: 10)" in text
    compare = stylegan_parser()._subparsers._group_actions[0].choices["compare"]  # type: ignore
    assert "Ignore labels (default: 1)" in compare.format_help()


def test_compat_help_describes_every_argument_with_its_default(capsys) -> None:
    assert compat_main(["--help"]) == 0
    out = capsys.readouterr().out
    lines = out[out.index("\narguments:\n"):].splitlines()
    for argument in ("SCRIPT", "ARG", "--py2", "-h, --help"):
        line = next((line for line in lines if line.startswith(f"  {argument} ")), "")
        assert "default" in line, argument
