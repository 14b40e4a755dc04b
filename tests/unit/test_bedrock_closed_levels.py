"""Bedrock ConverseStream's objects that carry no call are closed all the way
down (toolstream/profiles/bedrock_members.py: DELTA_LEVELS, INNER_LEVELS):
a citation's location, an image's source, the non-call block starts, the
cache details, an empty serverToolUsage.  A member outside them, or an
object where the tables list none, blocks, naming its path; a server tool's
JSON result stays open."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.support.builders import bedrock
from tests.support.every_level.bedrock import CASES
from toolstream import validate

EVERY_BLOCK = dict(CASES)["every block without a call"]


def _events() -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = copy.deepcopy(EVERY_BLOCK["events"])
    return events


def _find(events: list[dict[str, Any]], kind: str, inner: str) -> dict[str, Any]:
    for event in events:
        body: dict[str, Any] | None = event.get(kind)
        if body is not None and inner in body.get("delta", body.get("start", {})):
            return body
    raise AssertionError((kind, inner))


def test_every_block_without_a_call_passes() -> None:
    report = validate(bedrock(_events()))
    assert report.status == "not_applicable", report.to_json()
    assert not report.findings


@pytest.mark.parametrize(
    ("where", "path"),
    [
        ("citation location", "contentBlockDelta.delta.citation.location.web.zz"),
        ("citation source content", "contentBlockDelta.delta.citation.sourceContent[].zz"),
        ("image source", "contentBlockDelta.delta.image.source.s3Location.zz"),
        ("tool result start", "contentBlockStart.start.toolResult.zz"),
        ("reasoning start", "contentBlockStart.start.reasoningContent.zz"),
        ("cache details", "metadata.usage.cacheDetails[].zz"),
        ("server tool usage", "metadata.usage.serverToolUsage.zz"),
    ],
)
def test_an_unknown_member_below_a_non_call_block_blocks_naming_it(where: str, path: str) -> None:
    events = _events()
    if where == "citation location":
        body = _find(events, "contentBlockDelta", "citation")
        body["delta"]["citation"]["location"]["web"]["zz"] = 1
    elif where == "citation source content":
        body = _find(events, "contentBlockDelta", "citation")
        body["delta"]["citation"]["sourceContent"][0]["zz"] = 1
    elif where == "image source":
        body = next(
            e["contentBlockDelta"]
            for e in events
            if "s3Location"
            in e.get("contentBlockDelta", {}).get("delta", {}).get("image", {}).get("source", {})
        )
        body["delta"]["image"]["source"]["s3Location"]["zz"] = 1
    elif where == "tool result start":
        _find(events, "contentBlockStart", "toolResult")["start"]["toolResult"]["zz"] = 1
    elif where == "reasoning start":
        _find(events, "contentBlockStart", "reasoningContent")["start"]["reasoningContent"][
            "zz"
        ] = 1
    else:
        usage = events[-1]["metadata"]["usage"]
        if where == "cache details":
            usage["cacheDetails"][0]["zz"] = 1
        else:
            usage["serverToolUsage"]["zz"] = 1
    report = validate(bedrock(events))
    assert report.status == "blocked", report.to_json()
    assert any(
        f.code == "unsupported_event" and f"member {path} is not one" in f.message
        for f in report.findings
    ), report.to_json()


@pytest.mark.parametrize(
    "path",
    ["contentBlockDelta.delta.citation.title", "metadata.usage.cacheDetails"],
)
def test_an_object_where_none_is_known_blocks(path: str) -> None:
    # A string member sent as an object, an array sent as an object: the
    # profile has no members for it, so it is not read as known.
    events = _events()
    if path.startswith("contentBlockDelta"):
        _find(events, "contentBlockDelta", "citation")["delta"]["citation"]["title"] = {"a": 1}
    else:
        events[-1]["metadata"]["usage"]["cacheDetails"] = {"ttl": "5m"}
    report = validate(bedrock(events))
    assert report.status == "blocked", report.to_json()
    assert any(path in f.message and "no object" in f.message for f in report.findings)


def test_a_server_tool_json_result_is_open() -> None:
    events = _events()
    body = _find(events, "contentBlockDelta", "toolResult")
    body["delta"]["toolResult"][1]["json"] = [{"whatever": {"the": "tool returns"}}]
    assert validate(bedrock(events)).status == "not_applicable"
