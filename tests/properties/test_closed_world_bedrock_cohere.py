"""Closed this round for bedrock and cohere: a Bedrock union-shaped object
(an event, ``contentBlockStart.start``, ``contentBlockDelta.delta``) with an
extra key blocks naming that key; an unknown member of a Cohere citation
source blocks naming it; every listed source member is accepted
(``cohere_members.SOURCE_LEVELS``)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.every_level import bedrock as br
from tests.support.every_level import cohere as co
from toolstream import validate
from toolstream.profiles import cohere_members as members

_UNKNOWN = st.from_regex(r"zz[a-zA-Z0-9_]{0,30}", fullmatch=True)


def _blocked(case: dict[str, Any], text: str) -> bool:
    report = validate(case)
    return report.status == "blocked" and any(
        f.code == "unsupported_event" and text in f.message for f in report.findings
    )


@settings(max_examples=100, deadline=None, database=None)
@given(data=st.data())
def test_a_bedrock_union_with_an_extra_key_names_it(data: st.DataObject) -> None:
    case = copy.deepcopy(dict(br.CASES)["tool turn"])
    events = case["events"]
    name = data.draw(_UNKNOWN, label="name")
    where = data.draw(st.sampled_from(["event", "start", "delta"]), label="where")
    if where == "event":
        at = data.draw(st.integers(0, len(events) - 1), label="at")
        events[at][name] = {}
    else:
        kind = "contentBlockStart" if where == "start" else "contentBlockDelta"
        at = next(i for i, e in enumerate(events) if kind in e)
        events[at][kind][where][name] = {}
    assert _blocked(case, name[:40])


@settings(max_examples=100, deadline=None, database=None)
@given(data=st.data())
def test_an_unknown_member_of_a_cohere_source_blocks_naming_it(data: st.DataObject) -> None:
    case = copy.deepcopy(dict(co.CASES)["cited text turn"])
    citation = next(e for e in case["events"] if e["type"] == "citation-start")
    sources = citation["delta"]["message"]["citations"]["sources"]
    entry = sources[data.draw(st.integers(0, len(sources) - 1), label="entry")]
    name = data.draw(_UNKNOWN, label="name")
    entry[name] = data.draw(st.integers(), label="v")
    assert _blocked(case, f"sources[].{name[:20]}")


@settings(max_examples=50, deadline=None, database=None)
@given(source_type=st.sampled_from(sorted(members.SOURCE_LEVELS)))
def test_every_listed_source_member_is_accepted(source_type: str) -> None:
    case = copy.deepcopy(dict(co.CASES)["cited text turn"])
    citation = next(e for e in case["events"] if e["type"] == "citation-start")
    entry: dict[str, Any] = {m: {} for m in members.SOURCE_LEVELS[source_type]}
    entry.update(type=source_type, id="s0")
    citation["delta"]["message"]["citations"]["sources"] = [entry]
    assert not validate(case).findings


def test_an_unknown_source_type_blocks() -> None:
    case = copy.deepcopy(dict(co.CASES)["cited text turn"])
    citation = next(e for e in case["events"] if e["type"] == "citation-start")
    citation["delta"]["message"]["citations"]["sources"] = [{"type": "zzKind", "id": "s"}]
    assert _blocked(case, "sources[].type")
