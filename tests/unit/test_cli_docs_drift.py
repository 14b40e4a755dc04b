"""The docs say what the code does: the default profile list of a user
adapter, where the pytest plugin resolves a relative corpus path, the
plugin's opt-out flag, and every command's ``--format`` and its options
named in the README or the docs (the lists come from the code)."""

from __future__ import annotations

import re

import click

from tests.support.corpus_cases import ROOT
from toolstream.adapters.user import all_profiles
from toolstream.cli import cli
from toolstream.corpus import pytest_plugin

DOCS = ROOT / "docs"


def test_adapters_doc_lists_the_default_profiles_of_the_code() -> None:
    text = " ".join((DOCS / "adapters.md").read_text("utf-8").split())
    match = re.search(r"by default \*\*every profile the validator knows\*\* \(([^)]*)\)", text)
    assert match, "docs/adapters.md no longer states the default profiles"
    assert re.findall(r"`([^`]+)`", match[1]) == list(all_profiles())


def test_corpus_doc_resolves_plugin_paths_as_the_code_does() -> None:
    text = (DOCS / "corpus.md").read_text("utf-8")
    assert "relative to pytest's rootdir" not in text
    assert "relative to the current directory" not in text
    assert text.count("relative to this test file's folder") == 2
    assert pytest_plugin.ALLOW_UNCHECKED in text


def test_every_option_the_docs_name_for_a_command_exists() -> None:
    """``toolstream CMD ... --option`` in a README or docs code line names
    an option CMD has."""
    options: dict[str, set[str]] = {}
    for name, command in cli.commands.items():
        commands = dict(command.commands) if isinstance(command, click.Group) else {"": command}
        for sub in commands.values():
            for param in sub.params:
                options.setdefault(name, set()).update(getattr(param, "opts", []))
                options[name].update(getattr(param, "secondary_opts", []))
    wrong = []
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for line in path.read_text("utf-8").splitlines():
            match = re.match(r"\s*(?:\$ )?toolstream ([a-z-]+)\b(.*)", line)
            if not match or match[1] not in options:
                continue
            command_part = match[2].split("#", 1)[0].split("|", 1)[0]
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", command_part):
                if option not in options[match[1]] and option not in ("--help", "--version"):
                    wrong.append(f"{path.name}: toolstream {match[1]} {option}")
    assert not wrong, "\n".join(sorted(set(wrong)))
