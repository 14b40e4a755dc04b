"""The fixtures of the release check (tests/test_release_*.py), per profile.

Standard library only, and so is everything this imports: the release check
runs under a bare ``python3`` with nothing installed.  Each valid fixture is a
tool call fragmented across several stream pieces, with the exact id, name
and arguments its report must give; each text-only fixture is a turn with no
tool activity at all.  The fail-closed fixtures are the catalogue's minimal
ones (one per finding code and profile, ``support/catalogue.py``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support import builders as b
from tests.support import builders_gemini_cohere_invoke as g
from tests.support.catalogue import CATALOGUE

PROFILES = (
    "openai",
    "mistral",
    "anthropic",
    "openai-responses",
    "bedrock",
    "gemini",
    "gemini-interactions",
    "cohere",
    "bedrock-invoke",
)
"""The nine wire formats (toolstream/profiles/, corpus/seeds/)."""


@dataclass(frozen=True)
class ExpectedCall:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Valid:
    profile: str
    fixture: dict[str, Any]
    calls: tuple[ExpectedCall, ...]


def _chat(profile: str) -> Valid:
    chunks = [
        b.chunk(b.call(0, "call_7", "weather", '{"ci', type_="function")),
        b.chunk(b.call(0, args='ty": "Par')),
        b.chunk(b.call(0, args='is"}')),
        b.chunk(finish="tool_calls"),
    ]
    return Valid(
        profile,
        b.openai(chunks, profile=profile),
        (ExpectedCall("call_7", "weather", '{"city": "Paris"}'),),
    )


def _valid() -> dict[str, Valid]:
    paris = ('{"ci', 'ty": "Pa', 'ris"}')
    out = {p: _chat(p) for p in ("openai", "mistral")}
    out["anthropic"] = Valid(
        "anthropic",
        b.anthropic(b.anthropic_turn(b.tool_block(0, "toolu_7", paris))),
        (ExpectedCall("toolu_7", "weather", '{"city": "Paris"}'),),
    )
    out["openai-responses"] = Valid(
        "openai-responses",
        b.responses(b.responses_turn(b.responses_call(0, "fc_7", "call_7", "weather", paris))),
        (ExpectedCall("call_7", "weather", '{"city": "Paris"}'),),
    )
    out["bedrock"] = Valid(
        "bedrock",
        b.bedrock(b.bedrock_turn(b.bedrock_tool(0, "tooluse_7", paris))),
        (ExpectedCall("tooluse_7", "weather", '{"city": "Paris"}'),),
    )
    gemini_chunks = [
        g.gem_chunk(g.gem_open("weather", id="fc_7")),
        g.gem_chunk(g.gem_more(g.pa("$.city", "Pa", more=True))),
        g.gem_chunk(g.gem_more(g.pa("$.city", "ris"))),
        g.gem_chunk(g.gem_more(more=False)),
        g.gem_finish(),
    ]
    out["gemini"] = Valid(
        "gemini",
        g.gemini(gemini_chunks),
        (ExpectedCall("fc_7", "weather", '{"city":"Paris"}'),),
    )
    out["gemini-interactions"] = Valid(
        "gemini-interactions",
        g.interactions(g.gi_turn(g.gi_call(0, "fc_7", paris))),
        (ExpectedCall("fc_7", "weather", '{"city": "Paris"}'),),
    )
    out["cohere"] = Valid(
        "cohere",
        g.cohere(g.co_turn(g.co_call(0, "weather_7", paris))),
        (ExpectedCall("weather_7", "weather", '{"city": "Paris"}'),),
    )
    out["bedrock-invoke"] = Valid(
        "bedrock-invoke",
        g.bedrock_invoke(g.invoke_turn(g.invoke_tool(paris))),
        (ExpectedCall("toolu_1", "weather", '{"city": "Paris"}'),),
    )
    return out


VALID: dict[str, Valid] = _valid()
"""One valid fragmented call per profile."""


def _text_only() -> dict[str, dict[str, Any]]:
    chat = [b.text_chunk("Par"), b.text_chunk("is.", finish="stop")]
    anthropic_events = [
        b.message_start(),
        b.text_start(0),
        b.text_delta(0, "Par"),
        b.text_delta(0, "is."),
        b.block_stop(0),
        *b.message_end("end_turn"),
    ]
    return {
        "openai": b.openai(chat),
        "mistral": b.openai(chat, profile="mistral"),
        "anthropic": b.anthropic(anthropic_events),
        "openai-responses": b.responses(b.responses_turn(b.message_item(0, "Paris."))),
        "bedrock": b.bedrock(
            [
                b.br_message_start(),
                b.br_text(0, "Par"),
                b.br_text(0, "is."),
                b.br_stop(0),
                b.br_message_stop("end_turn"),
                b.br_metadata(),
            ]
        ),
        "gemini": g.gemini(
            [g.gem_chunk({"text": "Par"}), g.gem_chunk({"text": "is."}, finish="STOP")]
        ),
        "gemini-interactions": g.interactions(
            [
                g.gi_created(),
                g.gi_start(0, "model_output"),
                g.gi_delta(0, "Par", "text"),
                g.gi_delta(0, "is.", "text"),
                g.gi_stop(0),
                g.gi_completed("completed"),
            ]
        ),
        "cohere": g.cohere(
            [
                g.co_message_start(),
                {
                    "type": "content-start",
                    "index": 0,
                    "delta": {"message": {"content": {"type": "text", "text": ""}}},
                },
                {
                    "type": "content-delta",
                    "index": 0,
                    "delta": {"message": {"content": {"text": "Paris."}}},
                },
                {"type": "content-end", "index": 0},
                g.co_message_end("COMPLETE"),
            ]
        ),
        "bedrock-invoke": g.bedrock_invoke([g.wrap(e) for e in anthropic_events]),
    }


TEXT_ONLY: dict[str, dict[str, Any]] = _text_only()
"""One turn per profile with text and no tool activity."""

FAIL_CLOSED_CODES = (
    "malformed_json",
    "missing_terminal",
    "duplicate_terminal",
    "non_finite_number",
    "unknown_tool",
    "unsupported_schema_keyword",
    "invalid_schema",
    "schema_violation",
)
"""Malformed, truncated, duplicate-terminal, non-finite, unknown-tool,
unsupported-schema and schema-invalid (a tool schema that is not a schema,
arguments the schema rejects): each must block the turn."""


def catalogue_fixtures(code: str) -> list[tuple[str, str, dict[str, Any]]]:
    """``(profile, title, fixture)`` for every catalogue entry of ``code``."""
    return [(e.profile, e.title, e.fixture) for e in CATALOGUE if e.code == code]


# -- running the standard-library runner ----------------------------------------------

REPO = Path(__file__).resolve().parents[2]
"""The repository root: ``python3 -S -m toolstream.reference`` runs from here."""


@dataclass(frozen=True)
class Run:
    """One run of the runner: its exit status and its report."""

    exit_code: int
    report: dict[str, Any]
    stdout: str


def write_fixture(folder: str, name: str, fixture: dict[str, Any]) -> str:
    path = os.path.join(folder, name + ".json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(fixture, handle, ensure_ascii=False)
    return path


def run_in_process(path: str, report: str = "json") -> Run:
    """``toolstream.reference.main`` in this interpreter, its stdout captured."""
    from toolstream import reference

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = reference.main([path, "--report", report])
    text = out.getvalue()
    return Run(code, json.loads(text) if report == "json" else {}, text)


def run_subprocess(path: str, report: str = "json") -> Run:
    """``python3 -S -m toolstream.reference PATH`` in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-S", "-m", "toolstream.reference", path, "--report", report],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        check=False,
    )
    if done.stderr:
        raise AssertionError(f"runner wrote to stderr: {done.stderr.strip()}")
    return Run(done.returncode, json.loads(done.stdout) if report == "json" else {}, done.stdout)


RUNNERS = (("in_process", run_in_process), ("subprocess", run_subprocess))
"""Both ways the release check runs the runner."""


def codes(report: dict[str, Any]) -> list[str]:
    """Every finding code of a JSON report: the turn's and each call's."""
    found = [f["code"] for f in report["findings"]]
    for call in report["calls"]:
        found.extend(f["code"] for f in call["findings"])
    return found


# -- no network -----------------------------------------------------------------------


class SocketsBlocked(OSError):
    """What every blocked socket operation raises."""


_BLOCKED = (
    (socket.socket, "connect"),
    (socket.socket, "connect_ex"),
    (socket.socket, "bind"),
    (socket.socket, "sendto"),
    (socket, "create_connection"),
    (socket, "getaddrinfo"),
    (socket, "gethostbyname"),
)


class block_sockets(contextlib.ContextDecorator):
    """While active, every connect, bind, send-to and name lookup, loopback
    included, raises :class:`SocketsBlocked`: nothing in the release check
    needs a socket (the runner is run in-process or over pipes)."""

    def __init__(self) -> None:
        self._saved: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> block_sockets:
        for owner, name in _BLOCKED:
            self._saved.append((owner, name, getattr(owner, name)))
            setattr(owner, name, _refuse(name))
        return self

    def __exit__(self, *exc: object) -> None:
        while self._saved:
            owner, name, original = self._saved.pop()
            setattr(owner, name, original)


def _refuse(name: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise SocketsBlocked(f"release check: sockets are blocked ({name})")

    return refuse


class ReleaseCase(unittest.TestCase):
    """A test case of the release check: sockets blocked from the first test
    of its class to the last, a scratch folder for fixture files."""

    _block: block_sockets

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls._block = block_sockets()
        cls._block.__enter__()
        cls.addClassCleanup(cls._block.__exit__, None, None, None)

    def setUp(self) -> None:
        scratch = tempfile.TemporaryDirectory(prefix="toolstream-release-")
        self.addCleanup(scratch.cleanup)
        self.folder = scratch.name
