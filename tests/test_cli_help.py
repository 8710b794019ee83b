"""Issue 25, finding 6: every option of every subcommand says what it does in ``--help``."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from e1prep.cli import _parser, main


def parsers(parser: argparse.ArgumentParser, name: str = "e1prep") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """The parser and every subcommand's, depth first, with the command line that reaches it."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from parsers(sub, f"{name} {sub_name}")


def test_every_option_and_argument_has_help_text() -> None:
    missing = [
        f"{name} {'/'.join(action.option_strings) or action.dest}"
        for name, parser in parsers(_parser())
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction)
        and action.help is not argparse.SUPPRESS
        and not (action.help or "").strip()
    ]
    assert missing == []


def test_every_subcommand_says_what_it_does_in_the_listing() -> None:
    """``e1prep --help`` lists each subcommand with a line of its own (its ``help=``), not a bare name."""
    missing = [
        f"{name} {choice.dest}"
        for name, parser in parsers(_parser())
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for choice in action._choices_actions
        if not (choice.help or "").strip()
    ]
    assert missing == []
    listed = {
        choice.dest
        for a in _parser()._actions
        if isinstance(a, argparse._SubParsersAction)
        for choice in a._choices_actions
    }
    assert listed == {"draft", "verify", "lint", "schema", "eval", "review"}


def test_the_walk_sees_every_subcommand() -> None:
    assert {name for name, _ in parsers(_parser())} == {
        "e1prep",
        "e1prep draft",
        "e1prep verify",
        "e1prep review",
        "e1prep lint",
        "e1prep schema",
        "e1prep eval",
    }


def test_draft_help_says_what_dash_means(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--backend {rules,llm} who reads the materials" in text
    assert "- for stdout (the default, unless --json is -" in text
    assert "--json - with --out - is refused" in text
