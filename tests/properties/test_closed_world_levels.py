"""The closed world at every level of every profile.

A member that neither the profile nor any reviewed dialect knows, put into
any JSON object of any item of a valid turn, blocks the turn with
``unsupported_event`` and a finding that names it: never a pass, never
"no tool activity".  The objects are found by walking
(``tests/support/every_level/walk.py``), not listed by hand, so a level no
table names is a level the walk finds and the test fails on.  The turns
walked: our own per-profile streams that hold every level each profile
knows (``tests/support/every_level/``), and, when ``../shared/captures`` is
here, every real recording imported.  Left out: the levels each members
module declares open on purpose (``OPEN_LEVELS``, each with its reason:
the caller's own maps, a model-defined document, the call's own arguments,
a JSON Schema the caller sent), and a reviewed dialect member's value.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import toolstream.profiles as profiles_package
from tests.support.every_level import CASES
from tests.support.every_level.walk import (
    Site,
    blocks_naming,
    level_name,
    objects,
    open_levels,
    sites,
    with_member,
)
from toolstream import validate
from toolstream.cli import cli
from toolstream.profiles.dialects import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT.parent / "shared" / "captures"


def _walked_cases() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    out = {profile: list(cases) for profile, cases in CASES.items()}
    # The chat profile's two names read the same chunks.
    out["mistral"] = [(name, {**case, "profile": "mistral"}) for name, case in CASES["openai"]]
    return out


WALKED = _walked_cases()


def _names_in(module: ModuleType) -> Iterator[str]:
    for value in vars(module).values():
        if isinstance(value, frozenset | set):
            yield from (v for v in value if isinstance(v, str))
        elif isinstance(value, dict):
            for key, inner in value.items():
                if isinstance(key, str):
                    yield key
                if isinstance(inner, frozenset | set):
                    yield from (v for v in inner if isinstance(v, str))


def _known_names() -> frozenset[str]:
    # Every name any profile table holds, and every dialect member: a drawn
    # name is outside all of them, so no level can know it.
    import importlib
    import pkgutil

    names: set[str] = {d.member for d in REGISTRY}
    for info in pkgutil.iter_modules(profiles_package.__path__):
        names.update(_names_in(importlib.import_module(f"toolstream.profiles.{info.name}")))
    for cases in WALKED.values():
        for _, case in cases:
            for item in case.get("chunks", case.get("events", [])):
                names.update(_keys(item))
    return frozenset(names)


def _keys(item: Any) -> Iterator[str]:
    if isinstance(item, dict):
        for key, value in item.items():
            yield key
            yield from _keys(value)
    elif isinstance(item, list):
        for value in item:
            yield from _keys(value)


KNOWN = _known_names()
UNKNOWN_NAME = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=12
).filter(lambda name: name not in KNOWN)
ANY_VALUE: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=4), st.just({}), st.just([])
)


def test_every_profile_has_cases_and_they_are_valid() -> None:
    # The property is only worth something over valid turns: a tool turn
    # that passes and, where the profile has one, a turn without tools.
    assert set(WALKED) == set(open_levels()), "every profile is walked"
    for profile, cases in WALKED.items():
        assert cases, f"{profile} has no every-level cases"
        statuses = set()
        for name, case in cases:
            report = validate(case)
            assert not report.findings, (profile, name, report.to_json())
            statuses.add(report.status)
        assert "pass" in statuses, profile


UNSEEN_OPEN = {
    # inside the frames (the walker reads the Anthropic event there too)
    ("bedrock-invoke", "content_block.input"),
}


def test_every_open_level_is_seen_and_has_a_reason() -> None:
    # An open level that no walked case holds is a stale entry (or a path
    # spelled otherwise than the walker names it): either way it proves nothing.
    for profile, opened in open_levels().items():
        seen = {
            level_name(path)
            for _, case in WALKED[profile]
            for item in case.get("chunks", case.get("events", []))
            for path in objects(item)
        }
        for level, reason in opened.items():
            assert reason.strip(), (profile, level)
            # (an entry no walked case holds is listed in UNSEEN_OPEN)
            if level not in seen:
                assert (profile, level) in UNSEEN_OPEN, f"{profile}: open level {level} is unseen"


def _site_ids() -> list[tuple[str, str, Site]]:
    out: list[tuple[str, str, Site]] = []
    for profile, cases in sorted(WALKED.items()):
        for name, case in cases:
            out.extend((profile, name, site) for site in sites(case))
    return out


SITES = _site_ids()


def test_the_walk_finds_levels_below_the_item() -> None:
    # Every profile's cases reach below the item's top (a walk that only saw
    # the top would be a weak one).
    for profile in WALKED:
        depths = {len(site.path) for p, _, site in SITES if p == profile}
        assert max(depths) >= 1, (profile, depths)


@settings(max_examples=5, deadline=None, database=None)
@given(name=UNKNOWN_NAME, value=ANY_VALUE)
@pytest.mark.parametrize("profile", sorted(WALKED))
def test_an_unknown_member_at_any_level_blocks_naming_it(
    profile: str, name: str, value: Any
) -> None:
    cases = dict(WALKED[profile])
    open_now: set[str] = set()
    for site_profile, case_name, site in SITES:
        if site_profile != profile:
            continue
        case = with_member(cases[case_name], site, name, value)
        if not blocks_naming(case, name):
            open_now.add(("inner " if site.inner else "") + (site.level or "<item>"))
    # No level of any walked case is open but those open on purpose.
    assert open_now == set(), f"{profile}: an unknown member does not block at {sorted(open_now)}"


# -- the real recordings ---------------------------------------------------------------


def _imported(tmp: Path) -> list[tuple[str, dict[str, Any]]]:
    from tests.e2e.test_captures import CASES as CAPTURE_CASES
    from tests.e2e.test_captures import SCHEMAS

    out = []
    runner = CliRunner()
    for number, capture in enumerate(CAPTURE_CASES):
        if capture.refused:
            continue
        folder = tmp / str(number)
        args = ["import", str(CAPTURES / capture.capture), "--redact", "-o", f"{folder}/"]
        if capture.schemas is not None:
            args += ["--schemas", str(SCHEMAS / capture.schemas)]
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, (capture.capture, result.output)
        for path in sorted(folder.iterdir()):
            out.append((f"{capture.capture}:{path.name}", json.loads(path.read_bytes())))
    return out


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, dict[str, Any]]]:
    if not CAPTURES.is_dir():
        pytest.skip(f"real captures not available ({CAPTURES} is absent)")
    return _imported(tmp_path_factory.mktemp("recordings"))


def test_an_unknown_member_at_any_level_of_a_real_recording_blocks(
    recordings: list[tuple[str, dict[str, Any]]],
) -> None:
    # Whatever verdict a recording has, a member nobody knows added anywhere
    # in it blocks, and is named: the closed world holds on what users hold.
    assert recordings, "no recording was imported"
    open_now: set[tuple[str, str]] = set()
    walked = 0
    for _, case in recordings:
        for site in sites(case):
            walked += 1
            if not blocks_naming(with_member(case, site, "zz~unknown", 0), "zz~unknown"):
                level = ("inner " if site.inner else "") + (site.level or "<item>")
                open_now.add((case["profile"], level))
    assert walked > len(recordings), "the walk put no member anywhere"
    assert open_now == set(), f"an unknown member does not block at {sorted(open_now)}"
