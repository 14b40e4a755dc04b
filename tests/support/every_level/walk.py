"""Walk every object of every item of a case, and put a member in one.

The closed world says a member no profile table and no reviewed dialect
knows blocks the turn, at every level.  "Every level" is checked by
walking: each JSON object inside each item of a valid case (each chunk or
event, and for ``bedrock-invoke`` the Anthropic event its ``chunk.bytes``
carries) is a level, named by its path from the item (keys joined by
``.``, ``[]`` for an array's entry: ``candidates[].content.parts[]``).  A
level is open when it or an object above it is in the profile's
``OPEN_LEVELS`` (members modules: objects whose members are the caller's
or the model's own, with the reason), or is a reviewed dialect member's
value (its row's review covers it).

    python -m tests.support.every_level.walk [PROFILE...]

prints, per profile, each level of its cases (``tests/support/every_level``)
where an unknown member does not block with ``unsupported_event`` naming it.
"""

from __future__ import annotations

import base64
import copy
import json
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from toolstream import validate
from toolstream.profiles import (
    anthropic_members,
    bedrock_members,
    cohere_members,
    gemini_interactions_members,
    gemini_members,
    openai_chat_members,
    openai_responses_members,
)
from toolstream.profiles.dialects import REGISTRY

Path = tuple[str | int, ...]


def _open(module: Any) -> Mapping[str, str]:
    table: Mapping[str, str] = module.OPEN_LEVELS
    return table


def open_levels() -> dict[str, Mapping[str, str]]:
    """Profile -> its open-on-purpose levels (path -> why)."""
    anthropic = _open(anthropic_members)
    chat = _open(openai_chat_members)
    return {
        "openai": chat,
        "mistral": chat,
        "anthropic": anthropic,
        "bedrock-invoke": anthropic,
        # (and the open objects inside arrays: a server tool's JSON result)
        "bedrock": {**_open(bedrock_members), **bedrock_members.OPEN_INNER_LEVELS},
        "cohere": _open(cohere_members),
        "gemini": _open(gemini_members),
        "gemini-interactions": _open(gemini_interactions_members),
        # (a caller's JSON Schema inside each tools[] entry: open on purpose,
        # kept apart from OPEN_LEVELS only because test_closed_world builds
        # each OPEN_LEVELS path as nested objects)
        "openai-responses": {
            **_open(openai_responses_members),
            **openai_responses_members.OPEN_ARRAY_LEVELS,
        },
    }


def _dialect_paths(profile: str) -> frozenset[tuple[str, str]]:
    # A reviewed dialect member's value is covered by its row's review.  Rows
    # name the member's path from the item, some behind the event type
    # (``message_stop.amazon-bedrock-invocationMetrics``,
    # ``response.*.response.usage.cost``): (member, path) pairs.
    chat = ("openai", "mistral")
    return frozenset(
        (d.member, d.path)
        for d in REGISTRY
        if d.profile == profile or (profile in chat and d.profile in chat)
    )


def level_name(path: Path) -> str:
    out = ""
    for step in path:
        if isinstance(step, int):
            out += "[]"
        else:
            out += f".{step}" if out else step
    return out


def objects(item: Any, path: Path = ()) -> Iterator[Path]:
    """The path of every JSON object in ``item``, outer first."""
    if isinstance(item, dict):
        yield path
        for key, value in item.items():
            yield from objects(value, (*path, key))
    elif isinstance(item, list):
        for index, value in enumerate(item):
            yield from objects(value, (*path, index))


def is_open(profile: str, path: Path, opened: Mapping[str, str]) -> bool:
    dialect = _dialect_paths(profile)
    for end in range(1, len(path) + 1):
        level = level_name(path[:end])
        if level in opened:
            return True
        step = path[end - 1]
        if any(step == member and row.endswith(level) for member, row in dialect):
            return True
    return False


def _items(case: dict[str, Any]) -> list[Any]:
    items: list[Any] = case["chunks"] if "chunks" in case else case["events"]
    return items


def _inner(item: Any) -> Any:
    """The Anthropic event a ``bedrock-invoke`` frame carries, or None."""
    try:
        return json.loads(base64.b64decode(item["chunk"]["bytes"]))
    except (KeyError, TypeError, ValueError):
        return None


def _reframe(event: Any) -> dict[str, Any]:
    data = json.dumps(event, ensure_ascii=False).encode("utf-8")
    return {"chunk": {"bytes": base64.b64encode(data).decode("ascii")}}


@dataclass(frozen=True)
class Site:
    """One object of one item: where a member goes."""

    item: int
    path: Path
    inner: bool
    """Inside a ``bedrock-invoke`` frame's decoded event."""

    @property
    def level(self) -> str:
        return level_name(self.path)


def sites(case: dict[str, Any]) -> Iterator[Site]:
    """Every object of every item of ``case``, each level once (its first
    occurrence), open levels left out."""
    profile = case["profile"]
    opened = open_levels()[profile]
    seen: set[tuple[bool, str]] = set()
    for number, item in enumerate(_items(case)):
        views = [(False, item)]
        if profile == "bedrock-invoke" and (inner := _inner(item)) is not None:
            views.append((True, inner))
        for inner_view, view in views:
            for path in objects(view):
                key = (inner_view, level_name(path))
                if key in seen or is_open(profile, path, opened):
                    continue
                seen.add(key)
                yield Site(number, path, inner_view)


def with_member(case: dict[str, Any], site: Site, name: str, value: Any) -> dict[str, Any]:
    """A copy of ``case`` with ``name: value`` put in the object at ``site``."""
    out = copy.deepcopy(case)
    items = _items(out)
    item = _inner(items[site.item]) if site.inner else items[site.item]
    target = item
    for step in site.path:
        target = target[step]
    target[name] = value
    if site.inner:
        items[site.item] = _reframe(item)
    return out


def blocks_naming(case: dict[str, Any], name: str) -> bool:
    """Blocked with the unknown-member finding, its path ending in ``name``.

    Matched on the whole message shape, never on ``name`` as a substring: a
    one-letter name is in almost any text (``v`` is in "event")."""
    report = validate(case)
    named = re.compile(r"\bmember (?:\S*[.\]])?" + re.escape(name) + r" is not one")
    return report.status == "blocked" and any(
        finding.code == "unsupported_event" and named.search(finding.message)
        for finding in report.findings
    )


def main(argv: list[str]) -> int:
    from tests.support.every_level import CASES

    wanted = set(argv) or set(CASES)
    bad = 0
    for profile, cases in sorted(CASES.items()):
        if profile not in wanted:
            continue
        levels: dict[str, str] = {}
        for name, case in cases:
            report = validate(case)
            if report.findings or report.status not in ("pass", "not_applicable"):
                print(f"{profile}: {name}: not a valid case: {report.status} {list(report.codes)}")
                bad += 1
                continue
            for site in sites(case):
                ok = blocks_naming(with_member(case, site, "zzUnknown", 1), "zzUnknown")
                if not ok:
                    levels.setdefault(("inner " if site.inner else "") + site.level, name)
        for level, name in sorted(levels.items()):
            print(f"{profile}: {level or '<item>'}: an unknown member does not block ({name})")
            bad += 1
        print(f"{profile}: {len(cases)} cases walked")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
