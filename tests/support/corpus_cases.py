"""Shared helpers for the corpus tests: hand-built cases and planted failures.

(No tests here; the name keeps it with the corpus test files.)
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolstream.adapters.base import Adapter, AdapterCall, AdapterResult
from toolstream.api import validate_bytes
from toolstream.caseio import dump_json, fixture_digest, write_manifest
from toolstream.corpus.label import label_of
from toolstream.profiles import PROFILES

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "corpus" / "seeds").glob("*.json"))


def seed(name: str) -> dict[str, Any]:
    """A seed fixture without its description."""
    fixture: dict[str, Any] = json.loads(
        (ROOT / "corpus" / "seeds" / f"{name}.json").read_text("utf-8")
    )
    fixture.pop("meta", None)
    return fixture


def verdict(fixture: dict[str, Any]) -> dict[str, Any]:
    """The validator's label for a fixture, judged from its written bytes."""
    return label_of(validate_bytes(dump_json(fixture).encode("ascii")))


def write_case(
    folder: Path,
    fixture: dict[str, Any],
    expect: dict[str, Any] | None = None,
    *,
    operator: str = "hand",
) -> Path:
    """Write a case as ``folder/<operator>/<hash>.json``; the label defaults
    to the validator's own verdict."""
    case = dict(fixture)
    case["meta"] = {"operators": [operator], "seed": "hand"}
    case["expect"] = verdict(fixture) if expect is None else expect
    path = folder / operator / f"{fixture_digest(fixture)}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_json(case), encoding="ascii")
    return path


def variants(fixture: dict[str, Any]) -> list[dict[str, Any]]:
    """The fixture with each stream item dropped in turn (a mix of verdicts)."""
    key = PROFILES[fixture["profile"]].stream_key
    out = []
    for i in range(len(fixture[key])):
        mutant = copy.deepcopy(fixture)
        del mutant[key][i]
        out.append(mutant)
    return out


def hand_corpus(folder: Path) -> list[Path]:
    """Every seed and its drop-one variants, labelled by the validator, with
    a manifest."""
    paths = []
    for path in SEEDS:
        fixture = seed(path.stem)
        paths.append(write_case(folder, fixture, operator="seed"))
        paths.extend(write_case(folder, v, operator="drop_item") for v in variants(fixture))
    write_manifest(folder)
    return paths


def planted_openai() -> dict[str, Any]:
    """The OpenAI seed with a raw control character planted in an argument
    fragment: the validator says malformed_json, the seed's label says pass."""
    fixture = seed("openai-parallel")
    entry = fixture["chunks"][3]["choices"][0]["delta"]["tool_calls"][0]
    entry["function"]["arguments"] = 'ty": "S\u00e3o\u0001 Pau'
    return fixture


def planted_anthropic() -> dict[str, Any]:
    """The Anthropic seed ending with max_tokens: wrong_terminal_reason."""
    fixture = seed("anthropic-text-and-tools")
    for event in fixture["events"]:
        if event["type"] == "message_delta":
            event["delta"]["stop_reason"] = "max_tokens"
    return fixture


def planted_mistral() -> dict[str, Any]:
    """The Mistral seed with a duplicated key in its arguments."""
    fixture = seed("mistral-whole-call")
    call = fixture["chunks"][1]["choices"][0]["delta"]["tool_calls"][0]
    call["function"]["arguments"] = '{"query": "wool socks", "limit": 10, "limit": 11}'
    return fixture


class NaiveAdapter(Adapter):
    """Concatenates fragments per index and hands every call over, whatever
    the finish reason: it executes truncated turns."""

    name = "naive-test"
    package = "json"
    profiles = ("openai", "mistral")

    def available(self) -> bool:
        return True

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        self.check_profile(fixture)
        slots: dict[Any, dict[str, Any]] = {}
        for chunk in fixture.get("chunks") or []:
            choices = chunk.get("choices") if isinstance(chunk, dict) else None
            for choice in choices if isinstance(choices, list) else []:
                delta = choice.get("delta") if isinstance(choice, dict) else None
                entries = delta.get("tool_calls") if isinstance(delta, dict) else None
                for entry in entries if isinstance(entries, list) else []:
                    if not isinstance(entry, dict):
                        continue
                    slot = slots.setdefault(
                        entry.get("index"), {"id": None, "name": None, "args": ""}
                    )
                    function: Any = (
                        entry.get("function") if isinstance(entry.get("function"), dict) else {}
                    )
                    slot["id"] = entry.get("id") or slot["id"]
                    slot["name"] = function.get("name") or slot["name"]
                    if isinstance(function.get("arguments"), str):
                        slot["args"] += function["arguments"]
        calls = tuple(AdapterCall(s["id"], s["name"], s["args"]) for s in slots.values())
        return AdapterResult(calls=calls, rejected=False, invalid=())


class MissingLibraryAdapter(NaiveAdapter):
    name = "missing-lib-test"
    package = "no_such_library_for_toolstream"

    def available(self) -> bool:
        return False


def truncated_openai() -> dict[str, Any]:
    """The OpenAI seed cut by the length limit: the reference blocks it."""
    fixture = seed("openai-parallel")
    for chunk in fixture["chunks"]:
        for choice in chunk["choices"]:
            if choice.get("finish_reason"):
                choice["finish_reason"] = "length"
    return fixture


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "toolstream.corpus.pytest_plugin",
            "-p",
            "no:cacheprovider",
            *args,
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
