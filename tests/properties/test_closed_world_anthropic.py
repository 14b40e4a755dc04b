"""Closed this round for anthropic (and bedrock-invoke, which reads its events).

A server tool result block's ``content``: the object or each entry of the
array it is, by its ``type`` (errors included), and every object inside
(a fetched document, its source and citation config, a code execution's
output files, a tool search's references, an MCP result's text blocks and
their citations) (``anthropic_members.RESULT_CONTENT``).  The typed entries
of the message-level objects: ``container.skills``,
``context_management.applied_edits``, ``input_transformations`` (in
``message_start.message`` and ``message_delta``) and the diagnostics'
``cache_miss_reason`` (``anthropic_members.MESSAGE_ENTRIES``).  An unknown
member at any of them blocks naming its full path; an unknown type, an entry
that is not an object, an object where an array is, block too; every listed
member of every type is accepted.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.builders import anthropic, anthropic_turn, tool_block
from tests.support.builders_gemini_cohere_invoke import bedrock_invoke
from tests.support.builders_gemini_cohere_invoke import wrap as invoke_frame
from tests.support.every_level import anthropic as cases
from tests.support.every_level.walk import Site, level_name, objects, sites, with_member
from toolstream import validate
from toolstream.profiles import anthropic_members
from toolstream.profiles.anthropic_members import MESSAGE_ENTRIES, RESULT_CONTENT, Closed

_UNKNOWN = st.from_regex(r"zz[a-zA-Z0-9_]{0,30}", fullmatch=True)
_VALUE: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=4), st.just({}), st.just([])
)

_SERVER_CASES = [
    (name, case)
    for name, case in cases.CASES
    if not name.startswith(("tool turn", "text turn", "message entries"))
]
_ENTRY_CASES = [(name, case) for name, case in cases.CASES if name.startswith("message entries")]


def _findings(case: dict[str, Any]) -> list[str]:
    report = validate(case)
    assert report.status == "blocked", report.to_json()
    assert report.dialects == (), report.to_json()
    return [f.message for f in report.findings if f.code == "unsupported_event"]


def _names(case: dict[str, Any], path: str) -> bool:
    """Blocked by the unknown-member finding naming exactly ``path`` (as the
    finding spells it: a member's name cut at 40 characters, the path at 80)."""
    head, dot, member = path.rpartition(".")
    named = f"{head}{dot}{member[:40]}"[:80] if "=" not in member else path[:80]
    return any(f"member {named} is not one" in message for message in _findings(case))


def _framed(case: dict[str, Any]) -> dict[str, Any]:
    return bedrock_invoke([invoke_frame(event) for event in case["events"]])


def _inside(case_sites: list[tuple[dict[str, Any], Site]], top: str) -> list[tuple[Any, Site]]:
    return [(case, site) for case, site in case_sites if site.level.startswith(top)]


_RESULT_SITES = _inside(
    [(case, site) for _, case in _SERVER_CASES for site in sites(case)], "content_block.content"
)
_ENTRY_SITES = [
    (case, site)
    for _, case in _ENTRY_CASES
    for site in sites(case)
    if any(site.level.endswith(path.split(".", 1)[1]) for path in MESSAGE_ENTRIES)
]


def test_the_cases_hold_every_level_and_type_closed_here() -> None:
    # Each row of the result content table (block type, content type, and
    # the typed objects inside) is held by a valid case, and so is each type
    # of each typed entry: the walk, and the tests below, reach them all.
    held: set[str] = set()
    for _, case in _SERVER_CASES:
        for event in case["events"]:
            block = event.get("content_block") if isinstance(event, dict) else None
            if isinstance(block, dict) and block["type"] in RESULT_CONTENT:
                top = f"content_block ({block['type']})"
                held.update(row for row in _rows(block, top) if row.startswith(f"{top}.content"))
    assert held == set(anthropic_members.RESULT_CONTENT_LEVELS)
    entries: set[tuple[str, str]] = set()
    for _, case in _ENTRY_CASES:
        for event in case["events"]:
            for path in MESSAGE_ENTRIES:
                entries.update((path, kind) for kind in _types_at(event, path))
    assert entries == {(path, kind) for path, own in MESSAGE_ENTRIES.items() for kind in own}
    for name, case in cases.CASES:
        assert not validate(case).findings, name


def _rows(obj: dict[str, Any], at: str) -> set[str]:
    # The RESULT_CONTENT_LEVELS rows an object of a case (at ``at``) holds,
    # itself included.
    out = {at}
    for member, value in obj.items():
        marked = [(e, "[]") for e in value] if isinstance(value, list) else [(value, "")]
        for entry, mark in marked:
            if isinstance(entry, dict):
                kind = entry.get("type")
                out |= _rows(entry, f"{at}.{member}{mark}" + (f" ({kind})" if kind else ""))
    return out


def _types_at(event: dict[str, Any], path: str) -> set[str]:
    kind, _, rest = path.partition(".")
    if event.get("type") != kind:
        return set()
    value: Any = event
    for step in rest.split("."):
        value = value.get(step.removesuffix("[]"), {}) if isinstance(value, dict) else {}
    return {e["type"] for e in (value if isinstance(value, list) else [value]) if e}


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_in_a_result_content_blocks_naming_its_path(
    data: st.DataObject,
) -> None:
    # Anywhere inside a result block's content (the object or array entry,
    # the document, its source, an output file, a tool reference, an MCP
    # text block and its citation), read directly or in Bedrock frames.
    case, site = data.draw(st.sampled_from(_RESULT_SITES), label="site")
    name = data.draw(_UNKNOWN, label="name")
    case = with_member(case, site, name, data.draw(_VALUE, label="value"))
    if data.draw(st.booleans(), label="bedrock-invoke"):
        case = _framed(case)
    assert _names(case, f"{site.level}.{name}"), site.level


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_in_a_typed_message_entry_blocks_naming_its_path(
    data: st.DataObject,
) -> None:
    # A skill, an applied edit, an input transformation (message_start and
    # message_delta), a cache miss reason: the full path from the event.
    case, site = data.draw(st.sampled_from(_ENTRY_SITES), label="site")
    name = data.draw(_UNKNOWN, label="name")
    case = with_member(case, site, name, data.draw(_VALUE, label="value"))
    event = case["events"][site.item]["type"]
    if data.draw(st.booleans(), label="bedrock-invoke"):
        case = _framed(case)
    assert _names(case, f"{event}.{site.level}.{name}"), site.level


def test_every_typed_object_of_the_cases_is_a_site() -> None:
    # The sites sampled above reach every object of the result contents and
    # of the typed entries (the walk's first occurrence per case).
    levels = {site.level for _, site in _RESULT_SITES}
    assert {
        "content_block.content",
        "content_block.content[]",
        "content_block.content.content",
        "content_block.content.content.source",
        "content_block.content.content.citations",
        "content_block.content.content[]",
        "content_block.content.tool_references[]",
        "content_block.content[].citations[]",
    } <= levels
    entry_levels = {site.level for _, site in _ENTRY_SITES}
    assert {
        "message.container.skills[]",
        "message.context_management.applied_edits[]",
        "message.input_transformations[]",
        "message.diagnostics.cache_miss_reason",
        "delta.container.skills[]",
        "context_management.applied_edits[]",
        "input_transformations[]",
    } <= entry_levels


def _object_sites(case: dict[str, Any]) -> list[tuple[int, tuple[str | int, ...]]]:
    # Every typed object inside a result block's content: (event, path).
    out = []
    for number, event in enumerate(case["events"]):
        for path in objects(event):
            inner = event
            for step in path:
                inner = inner[step]
            if level_name(path).startswith("content_block.content") and "type" in inner:
                out.append((number, path))
    return out


_TYPED = [(name, case, at) for name, case in _SERVER_CASES for at in _object_sites(case)]


@pytest.mark.parametrize(("name", "case", "at"), _TYPED, ids=[f"{t[0]}:{t[2]}" for t in _TYPED])
def test_a_result_content_object_of_an_unknown_type_blocks(
    name: str, case: dict[str, Any], at: tuple[int, tuple[str | int, ...]]
) -> None:
    # Closed by its type: another type is not read (fail closed), named by
    # its path; so is an array entry or an object that is not an object.
    number, path = at
    changed = copy.deepcopy(case)
    target = changed["events"][number]
    for step in path:
        target = target[step]
    target["type"] = "telepathy"
    assert _names(changed, f"{level_name(path)}.type='telepathy'"), name
    if isinstance(path[-1], int):
        entry = copy.deepcopy(case)
        holder = entry["events"][number]
        for step in path[:-1]:
            holder = holder[step]
        holder[path[-1]] = "telepathy"
        assert _names(entry, level_name(path)), name


@pytest.mark.parametrize(
    ("name", "swap"),
    [
        # an object where the array of entries is, and an array where the object is
        ("web search results", lambda c: c[0]),
        ("code execution result", lambda c: {**c, "content": c["content"][0]}),
        ("tool search result", lambda c: [c]),
        ("web fetch pdf", lambda c: {**c, "content": [c["content"]]}),
        ("mcp result blocks", lambda c: c[0]),
    ],
)
def test_a_result_content_of_the_wrong_kind_blocks(name: str, swap: Any) -> None:
    case = copy.deepcopy(dict(_SERVER_CASES)[name])
    result = case["events"][4]["content_block"]
    result["content"] = swap(result["content"])
    assert _findings(case), name


def test_a_result_content_of_its_own_text_passes_unread() -> None:
    # Only members are checked, never a value's text: a long output, a
    # string MCP result, text editor lines.
    case = copy.deepcopy(dict(_SERVER_CASES)["code execution result"])
    case["events"][4]["content_block"]["content"]["stdout"] = "x" * 2_000_000
    assert validate(case).status == "not_applicable"
    assert validate(dict(_SERVER_CASES)["mcp result text"]).status == "not_applicable"


def _with_entry(path: str, entry: Any) -> dict[str, Any]:
    # A valid tool turn with ``entry`` at ``path`` (MESSAGE_ENTRIES notation).
    events = anthropic_turn(tool_block())
    kind, _, rest = path.partition(".")
    target: Any = events[0] if kind == "message_start" else events[-2]
    *steps, last = rest.split(".")
    for step in steps:
        fresh = {"id": "c", "expires_at": "t"} if step == "container" else {}
        target = target.setdefault(step, fresh)
    target[last.removesuffix("[]")] = [entry] if last.endswith("[]") else entry
    return anthropic(events)


_ENTRY_TYPES = [(path, kind) for path, by_type in MESSAGE_ENTRIES.items() for kind in by_type]


@pytest.mark.parametrize(("path", "kind"), _ENTRY_TYPES)
def test_every_typed_entry_with_every_member_passes_and_another_type_blocks(
    path: str, kind: str
) -> None:
    known = MESSAGE_ENTRIES[path][kind]
    full = dict.fromkeys(known, 1) | {"type": kind}
    assert validate(_with_entry(path, full)).status == "pass", (path, kind)
    assert _names(_with_entry(path, full | {"zz": 1}), f"{path}.zz")
    assert _names(_with_entry(path, {"type": "telepathy"}), f"{path}.type='telepathy'")
    if path.endswith("[]"):
        # an entry that is not an object
        assert _names(_with_entry(path, "telepathy"), path)
        # an object where the array of entries is: not read
        events = _with_entry(path, full)
        holder: Any = events["events"][0 if path.startswith("message_start") else -2]
        *steps, last = path.split(".", 1)[1].split(".")
        for step in steps:
            holder = holder[step]
        holder[last[:-2]] = full
        assert _names(events, path[:-2])


def test_every_result_content_type_with_every_member_passes() -> None:
    # Each content type of each result block, as an object or as an array's
    # entry, holding every member its set lists (null: the objects inside
    # left out), passes.
    for block_type, shape in RESULT_CONTENT.items():
        for inside, as_array in ((shape.inner, False), (shape.entries, True)):
            for shapes in inside.values():
                assert not isinstance(shapes, Closed)
                for kind, own in shapes.items():
                    content: Any = dict.fromkeys(own.members, None) | {"type": kind}
                    block = {
                        "type": block_type,
                        "tool_use_id": "srvtoolu_e1",
                        "content": [content] if as_array else content,
                    }
                    report = validate(cases._server_turn("any", block))
                    assert report.status == "not_applicable", (block_type, kind)
