"""From recordings to a verifiable corpus: ``generate`` taking a capture or a
bundled seed's name, ``label`` writing the reference's verdict into imported
fixtures, and ``seeds`` listing and copying the bundled seeds.

Every capture here is written by the project (see
``tests/support/cassettes.py`` for the builders).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

import toolstream
from tests.support.builders import (
    anthropic_turn,
    json_delta,
    message_delta,
    message_start,
    tool_block,
    tool_start,
)
from tests.support.cassettes import (
    ANTHROPIC,
    ANTHROPIC_TOOLS,
    OPENAI_KEY,
    WEATHER,
    sse,
    vcr_interaction,
    vcr_yaml,
)
from toolstream.cli import cli

ROOT = Path(__file__).resolve().parents[2]
ENV = {"NO_COLOR": "1", "COLUMNS": "250"}


def invoke(*args: Any, input: str | None = None) -> Result:
    return CliRunner(env=ENV).invoke(cli, [str(a) for a in args], input=input)


def cassette(tmp_path: Path, *bodies: bytes, name: str = "agent.cassette.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(
        vcr_yaml(*(vcr_interaction({"tools": ANTHROPIC_TOOLS}, body) for body in bodies))
    )
    return path


def manifest(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "MANIFEST.jsonl").read_text().splitlines()]


CUT = [message_start(), tool_start(0), json_delta(0, '{"city": "Par'), message_delta(None)]
"""A turn cut off inside the arguments: not a valid seed."""


# -- generate CAPTURE ----------------------------------------------------------------------


def test_generate_from_a_cassette(tmp_path: Path) -> None:
    capture = cassette(tmp_path, sse(ANTHROPIC))
    out = tmp_path / "corpus"
    result = invoke("generate", capture, "-o", out, "--count", 3, "--seed", 2)
    assert result.exit_code == 0, result.output
    cases = [json.loads((out / m["case"]).read_bytes()) for m in manifest(out)]
    assert cases
    assert {c["meta"]["seed"] for c in cases} == {"agent.json"}
    assert all(c["tool_schemas"] == {"weather": WEATHER} for c in cases)
    verified = invoke("verify", out)
    assert verified.exit_code == 0, verified.output
    again = tmp_path / "again"
    assert invoke("generate", capture, "-o", again, "--count", 3, "--seed", 2).exit_code == 0
    assert [(again / m["case"]).read_bytes() for m in manifest(again)] == [
        (out / m["case"]).read_bytes() for m in manifest(out)
    ]


def test_generate_skips_turns_that_are_not_seeds(tmp_path: Path) -> None:
    capture = cassette(tmp_path, sse(CUT), sse(anthropic_turn(tool_block(0, "toolu_2"))))
    out = tmp_path / "corpus"
    result = invoke("generate", capture, "-o", out, "--count", 2)
    assert result.exit_code == 0, result.output
    assert "skipped: agent.cassette.yaml turn 1: not a valid seed: blocked (" in result.stderr
    assert {m["seed"] for m in manifest(out)} == {"agent.turn2.json"}


def test_generate_with_no_usable_turn_fails(tmp_path: Path) -> None:
    result = invoke("generate", cassette(tmp_path, sse(CUT)), "-o", tmp_path / "c")
    assert result.exit_code == 64
    assert "no usable seed" in result.stderr
    assert not (tmp_path / "c").exists()


def test_generate_from_a_bare_capture_says_how_to_give_schemas(tmp_path: Path) -> None:
    capture = tmp_path / "turn.sse"
    capture.write_bytes(sse(ANTHROPIC))
    result = invoke("generate", capture, "-o", tmp_path / "c")
    assert result.exit_code == 64
    assert "unknown_tool" in result.stderr and "--schemas FILE" in result.stderr
    schemas = tmp_path / "tools.json"
    schemas.write_text(json.dumps(ANTHROPIC_TOOLS))
    given = invoke("generate", capture, "--schemas", schemas, "-o", tmp_path / "c", "--count", 2)
    assert given.exit_code == 0, given.output


def test_generate_applies_the_credential_gate(tmp_path: Path) -> None:
    events = anthropic_turn(tool_block())
    # In a member the profile knows and ignores (a ping's are closed: only type).
    events[0]["message"]["model"] = OPENAI_KEY
    capture = cassette(tmp_path, sse(events))
    refused = invoke("generate", capture, "-o", tmp_path / "c")
    assert refused.exit_code == 1
    assert "--redact" in refused.stderr and OPENAI_KEY not in refused.output
    assert not (tmp_path / "c").exists()
    redacted = invoke("generate", capture, "--redact", "-o", tmp_path / "c", "--count", 2)
    assert redacted.exit_code == 0, redacted.output
    for path in (tmp_path / "c").rglob("*.json"):
        assert OPENAI_KEY not in path.read_text()


def test_seed_fixture_without_schemas_says_how_to_give_them(tmp_path: Path) -> None:
    seed = json.loads((ROOT / "corpus/seeds/anthropic-text-and-tools.json").read_bytes())
    seed["tool_schemas"] = {}
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(seed))
    result = invoke("generate", path, "-o", tmp_path / "c")
    assert result.exit_code == 64
    assert "have no schema in tool_schemas" in result.stderr
    assert "--schemas FILE" in result.stderr


def test_generate_takes_a_bundled_seed_by_name(tmp_path: Path) -> None:
    by_name = tmp_path / "a"
    by_path = tmp_path / "b"
    assert invoke("generate", "openai-parallel", "-o", by_name, "--count", 2).exit_code == 0
    path = ROOT / "corpus/seeds/openai-parallel.json"
    assert invoke("generate", path, "-o", by_path, "--count", 2).exit_code == 0
    assert [(by_name / m["case"]).read_bytes() for m in manifest(by_name)] == [
        (by_path / m["case"]).read_bytes() for m in manifest(by_path)
    ]
    unknown = invoke("generate", "no-such-seed", "-o", tmp_path / "c")
    assert unknown.exit_code == 64
    assert "toolstream seeds --list" in unknown.stderr


# -- label -----------------------------------------------------------------------------------


def _imported(tmp_path: Path) -> list[Path]:
    capture = cassette(tmp_path, sse(ANTHROPIC), sse(CUT))
    out = tmp_path / "fixtures"
    assert invoke("import", capture, "-o", f"{out}/").exit_code == 0
    return sorted(out.iterdir())


def test_label_shows_then_writes_and_verify_checks(tmp_path: Path) -> None:
    paths = _imported(tmp_path)
    before = [p.read_bytes() for p in paths]
    declined = invoke("label", *paths, input="n\n")
    assert declined.exit_code == 1
    assert "not confirmed" in declined.stderr
    assert "blocked" in declined.stderr and "pass" in declined.stderr
    assert [p.read_bytes() for p in paths] == before

    accepted = invoke("label", *paths, input="y\n")
    assert accepted.exit_code == 0, accepted.output
    passing, cut = (json.loads(p.read_bytes()) for p in paths)
    assert passing["expect"] == {
        "status": "pass",
        "codes": [],
        "calls": [{"id": "toolu_1", "name": "weather", "arguments": '{"city": "Paris"}'}],
    }
    assert cut["expect"]["status"] == "blocked"
    assert cut["expect"]["codes"] == toolstream.validate_bytes(paths[1].read_bytes()).codes
    assert passing["meta"]["interaction"] == 0  # provenance kept
    verified = invoke("verify", *paths)
    assert verified.exit_code == 0, verified.output

    unchanged = invoke("label", *paths, "--yes")
    assert unchanged.exit_code == 0 and "nothing to write" in unchanged.stderr


def test_label_never_silently_replaces_a_different_label(tmp_path: Path) -> None:
    path = _imported(tmp_path)[0]
    fixture = json.loads(path.read_bytes())
    fixture["expect"] = {"status": "blocked", "codes": ["missing_terminal"]}
    path.write_text(json.dumps(fixture))
    refused = invoke("label", path, "--yes")
    assert refused.exit_code == 1 and "--force" in refused.stderr
    assert json.loads(path.read_bytes())["expect"]["status"] == "blocked"
    forced = invoke("label", path, "--yes", "--force")
    assert forced.exit_code == 0, forced.output
    assert json.loads(path.read_bytes())["expect"]["status"] == "pass"


def test_label_misuse(tmp_path: Path) -> None:
    not_fixture = tmp_path / "x.json"
    not_fixture.write_text("[1]")
    assert invoke("label", not_fixture).exit_code == 65  # unreadable input
    assert invoke("label", tmp_path / "missing.json").exit_code == 64  # misuse


# -- seeds -----------------------------------------------------------------------------------


def test_seeds_list_and_copy(tmp_path: Path) -> None:
    shipped = sorted(p.name for p in (ROOT / "corpus" / "seeds").glob("*.json"))
    listed = invoke("seeds", "--list")
    assert listed.exit_code == 0
    for name in shipped:
        assert name.removesuffix(".json") in listed.stdout
    target = tmp_path / "seeds"
    copied = invoke("seeds", "--copy", target)
    assert copied.exit_code == 0, copied.output
    assert sorted(p.name for p in target.iterdir()) == shipped
    for name in shipped:
        assert (target / name).read_bytes() == (ROOT / "corpus" / "seeds" / name).read_bytes()
    assert invoke("seeds", "--copy", target).exit_code == 0  # identical files: fine
    (target / shipped[0]).write_text("{}")
    clash = invoke("seeds", "--copy", target)
    assert clash.exit_code == 64 and "not overwritten" in clash.stderr
    assert (target / shipped[0]).read_text() == "{}"
