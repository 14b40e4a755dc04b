"""One table per layer, checked: every profile the validator knows
(``toolstream.profiles.PROFILES``) is known to every layer that must know it,
so a wire format cannot be half-added.

Each layer is one row of :data:`LAYERS`: a name that says where to add the
format, and a check run on the profile's seed (``corpus/seeds``).  Where the
layer has a behaviour, the row checks the behaviour (import detection names
the profile of the seed's own stream, shrink locates its slots), not only a
key in a table.

And the other way round: outside the registries (:data:`REGISTRIES`, one per
layer) no module of ``toolstream`` or ``toolstream_generators`` holds a
table keyed by profile, so adding a format is one module per layer.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from toolstream.capture import Record
from toolstream.corpus import shrink
from toolstream.importer.detect import DetectionError, detect_profile
from toolstream.profiles import PROFILES
from toolstream.serve.endpoints import ENDPOINTS
from toolstream_generators._internal.model import WIRES

ROOT = Path(__file__).resolve().parents[2]
SEEDS: dict[str, dict[str, Any]] = {}
for _path in sorted((ROOT / "corpus" / "seeds").glob("*.json")):
    _seed = json.loads(_path.read_text("utf-8"))
    SEEDS.setdefault(_seed["profile"], _seed)


def _documented() -> set[str]:
    """Profiles with a section of their own in docs/validator.md: a ``###``
    heading naming them before its first colon (``### openai and mistral``,
    ``### `gemini`: Gemini API ...``)."""
    text = (ROOT / "docs" / "validator.md").read_text("utf-8")
    names: set[str] = set()
    for heading in re.findall(r"^### (.*)$", text, flags=re.MULTILINE):
        names.update(re.findall(r"[a-z][a-z-]*[a-z]", heading.split(":", 1)[0]))
    return names


DOCUMENTED = _documented()


def _detected(profile: str, seed: dict[str, Any]) -> bool:
    stream = seed[PROFILES[profile].stream_key]
    records = [
        Record(payload=item, event=None, location=f"line {i + 1}") for i, item in enumerate(stream)
    ]
    try:
        return detect_profile(records, "jsonl", seed.get("request")).profile == profile
    except DetectionError:
        return False


def _shrinkable(profile: str, seed: dict[str, Any]) -> bool:
    try:
        return bool(shrink.slots(seed))  # every seed holds tool calls
    except NotImplementedError:
        return False


LAYERS: dict[str, Callable[[str, dict[str, Any]], bool]] = {
    "generator WIRES (toolstream_generators/_internal/model)": lambda p, s: p in WIRES,
    "import detection (toolstream/importer/detect.py)": _detected,
    "shrink slot pieces (Profile.slot_pieces, used by toolstream/corpus/shrink.py)": _shrinkable,
    "serve ENDPOINTS (toolstream/serve/endpoints)": lambda p, s: p in ENDPOINTS,
    "a section in docs/validator.md": lambda p, s: p in DOCUMENTED,
}
"""Every layer that must know every profile, and how to ask it."""


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_layer_knows_every_profile(profile: str) -> None:
    seed = SEEDS.get(profile)
    if seed is None:
        missing = [(profile, "a seed in corpus/seeds (every other layer is checked on it)")]
    else:
        missing = [(profile, layer) for layer, knows in LAYERS.items() if not knows(profile, seed)]
    assert not missing, "missing (profile, layer) pairs:\n" + "\n".join(
        f"  ({p!r}, {layer})" for p, layer in missing
    )


def test_no_layer_has_a_row_for_a_profile_the_validator_does_not_know() -> None:
    tables = {"generator WIRES": set(WIRES), "serve ENDPOINTS": set(ENDPOINTS)}
    extra = [(name, sorted(keys - set(PROFILES))) for name, keys in tables.items()]
    assert all(not keys for _, keys in extra), extra


# -- redaction reads argument fragments where the profile says they sit -----------------

_ARGUMENT_SEEDS: dict[str, list[dict[str, Any]]] = {}
for _path in sorted((ROOT / "corpus" / "seeds").glob("*.json")):
    _seed = json.loads(_path.read_text("utf-8"))
    _ARGUMENT_SEEDS.setdefault(_seed["profile"], []).append(_seed)

_NO_TEXT_PATH = {"bedrock-invoke"}
"""Profiles whose argument text no stream path can point at (InvokeModel
carries each event base64-encoded in ``chunk.bytes``): redaction reads the
decoded events there (``Profile.wrapped_events``)."""

# Mistral's seeds send whole calls; it also reads OpenAI's indexed fragments,
# so the openai seeds' chunks are a mistral stream split across fragments.
_ARGUMENT_SEEDS["mistral"] = [
    {**seed, "profile": "mistral"} for seed in _ARGUMENT_SEEDS.get("openai", [])
]


def _text_sites(profile: str, stream: list[Any]) -> dict[Any, list[tuple[Any, ...]]]:
    """The argument-text paths of every slot, in stream order."""
    sites: dict[Any, list[tuple[Any, ...]]] = {}
    for piece in PROFILES[profile].slot_pieces(stream):
        if piece.text is None:
            continue
        node: Any = stream
        for token in piece.text:
            node = node[token] if isinstance(node, (dict, list)) else None  # type: ignore[index]
        if isinstance(node, str):
            sites.setdefault(repr(piece.slot), []).append(tuple(piece.text))
    return sites


def _place(stream: list[Any], tokens: tuple[Any, ...], text: str) -> None:
    node: Any = stream
    for token in tokens[:-1]:
        node = node[token]
    node[tokens[-1]] = text


@pytest.mark.parametrize("profile", sorted(set(PROFILES) - _NO_TEXT_PATH))
def test_redaction_finds_a_key_split_across_argument_fragments(profile: str) -> None:
    import copy

    from toolstream.importer.redaction import scan_fixture

    key = PROFILES[profile].stream_key
    for seed in _ARGUMENT_SEEDS.get(profile, []):
        fixture = copy.deepcopy(seed)
        groups = [s for s in _text_sites(profile, fixture[key]).values() if len(s) >= 2]
        if groups:
            break
    else:
        pytest.fail(f"no {profile} seed has a call with 2 argument fragments")
    first, second, *rest = groups[0]
    _place(fixture[key], first, _SECRET_ARGUMENTS[:19])  # cut inside the key itself
    _place(fixture[key], second, _SECRET_ARGUMENTS[19:])
    for tokens in rest:
        _place(fixture[key], tokens, "")
    secrets = [s for s in scan_fixture(fixture, profile, key) if s.kind == "api-key"]
    assert secrets, f"{profile}: the split key was not found"
    assert secrets[0].fragments, f"{profile}: found, but not as a split across fragments"


_SECRET_ARGUMENTS = '{"api_key": "sk9fQ2xLmN4pR7tV"}'


def _frame(event: Any) -> dict[str, Any]:
    data = json.dumps(event).encode("utf-8")
    return {"chunk": {"bytes": base64.b64encode(data).decode("ascii")}}


def _unframe(item: Any) -> Any:
    return json.loads(base64.b64decode(item["chunk"]["bytes"]))


def test_redaction_finds_a_key_split_across_invoke_model_frames() -> None:
    # InvokeModel's argument fragments are Anthropic input_json_delta events
    # inside base64 frames: the key is split across two frames' bytes.
    import copy

    from toolstream.importer.redaction import redact_fixture, scan_fixture

    fixture = copy.deepcopy(SEEDS["bedrock-invoke"])
    stream = fixture["events"]
    events = [_unframe(item) for item in stream]
    by_block: dict[int, list[int]] = {}
    for pos, event in enumerate(events):
        if event.get("type") == "content_block_delta":
            if event["delta"].get("type") == "input_json_delta":
                by_block.setdefault(event["index"], []).append(pos)
    frames = next(p for p in by_block.values() if len(p) >= 2)
    texts = [_SECRET_ARGUMENTS[:19], _SECRET_ARGUMENTS[19:]] + [""] * (len(frames) - 2)
    for pos, text in zip(frames, texts, strict=True):
        events[pos]["delta"]["partial_json"] = text
        stream[pos] = _frame(events[pos])

    secrets = [s for s in scan_fixture(fixture, "bedrock-invoke", "events") if s.kind == "api-key"]
    assert [(s.path, s.fragments) for s in secrets] == [
        (f"/events/{frames[0]}/chunk/bytes", (f"/events/{frames[1]}/chunk/bytes",))
    ]
    cleaned, _ = redact_fixture(fixture, "bedrock-invoke", "events")
    redacted = [_unframe(cleaned["events"][pos])["delta"]["partial_json"] for pos in frames]
    assert json.loads("".join(redacted)) == {"api_key": "[REDACTED:api-key]"}
    untouched = [pos for pos in range(len(stream)) if pos not in frames]
    assert [cleaned["events"][pos] for pos in untouched] == [stream[pos] for pos in untouched]


def test_only_invoke_model_has_argument_text_without_a_path() -> None:
    # bedrock-invoke's arguments sit inside base64 frames, where no path can
    # point: redaction reads them decoded (the frames test above).
    seeds = {p: SEEDS[p] for p in PROFILES if p in SEEDS}
    pathless = {p for p, s in seeds.items() if not _text_sites(p, s[PROFILES[p].stream_key])}
    assert pathless == _NO_TEXT_PATH


# -- no side table keyed by profile ---------------------------------------------

REGISTRIES = {
    "toolstream.profiles.PROFILES": "the validator's profiles",
    "toolstream_generators._internal.model.WIRES": "the generator's Wire rows",
    "toolstream.serve.endpoints.ENDPOINTS": "serve's endpoint modules",
    "toolstream.gateway.downstream.DOWNSTREAMS": "the gateway's request builders",
}
"""The one table per layer that names a format's module there."""

COVERAGE = {
    "toolstream.adapters.langchain_core.INTEGRATIONS": "the LangChain integration of a profile",
    "toolstream.gateway.litellm.ROUTES": "the LiteLLM route that serves a profile",
}
"""Tables of what one third-party library covers: a new format adds a row
only when that library reads it, so they are not knowledge of the format."""


def _keyed_by_profile(table: object) -> bool:
    """A mapping with three or more profile names as keys, most of its keys."""
    if not isinstance(table, Mapping):
        return False
    named = [key for key in table if isinstance(key, str) and key in PROFILES]
    return len(named) >= 3 and 2 * len(named) > len(table)


def _module_tables() -> dict[int, set[str]]:
    """Every module-level table keyed by profile in ``toolstream`` and
    ``toolstream_generators``, by identity (a re-exported table is one
    table), with every name it has."""
    import importlib
    import pkgutil

    import toolstream
    import toolstream_generators

    tables: dict[int, set[str]] = {}
    for package in (toolstream, toolstream_generators):
        prefix = package.__name__ + "."
        for info in pkgutil.walk_packages(package.__path__, prefix):
            module = importlib.import_module(info.name)
            for attr, value in vars(module).items():
                if _keyed_by_profile(value):
                    tables.setdefault(id(value), set()).add(f"{info.name}.{attr}")
    return tables


def test_no_side_table_is_keyed_by_profile() -> None:
    # Every layer's knowledge of a format sits in that format's module: a
    # table keyed by profile anywhere else (noise, builders, recognisers,
    # turn boundaries...) is one more place a new format must be added.
    allowed = set(REGISTRIES) | set(COVERAGE)
    tables = _module_tables()
    side = sorted(min(names) for names in tables.values() if not names & allowed)
    assert not side, f"tables keyed by profile outside the per-format modules: {side}"
    seen = set().union(*tables.values())
    assert allowed <= seen, f"gone, strike from REGISTRIES/COVERAGE: {sorted(allowed - seen)}"


def test_scratch_call_ids_use_the_wire_rows_prefix() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from toolstream_generators._internal import scratch
    from toolstream_generators._internal.model import parse as parse_turn

    schemas = {"lookup": {"type": "object", "properties": {"q": {"type": "string"}}}}
    fixtures = st.sampled_from(sorted(WIRES)).flatmap(lambda p: scratch.valid_turns(p, schemas))

    @settings(max_examples=40, database=None, deadline=None)
    @given(fixtures)
    def check(fixture: dict[str, Any]) -> None:
        prefix = WIRES[fixture["profile"]].id_prefix
        ids = [c.id for c in parse_turn(fixture).calls if isinstance(c.id, str)]
        assert all(i.startswith(prefix) for i in ids), (fixture["profile"], ids)

    check()
