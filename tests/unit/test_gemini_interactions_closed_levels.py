"""The interaction the Gemini Interactions lifecycle events carry is closed
below its own members: the request it echoes (``agent_config``,
``environment``, ``generation_config``, ``input``, ``response_format``,
``safety_settings``, ``tools``, ``webhook_config``) and its reports
(``errors``, ``output_audio``/``_image``/``_video``), each object by the
members google-genai 3.6.1's interactions types give it
(``gemini_interactions_members.INTERACTION_INNER`` and the shapes it names);
a union entry (a tool, an agent config, a response format, a transcription
mode, an input entry) by its ``type``, an unknown type blocking.  What is
the caller's own (``OPEN_LEVELS``, ``OPEN_SHAPES``, ``OPEN_OTHER_TYPES``)
takes any member."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.support.builders_gemini_cohere_invoke import interactions
from tests.support.every_level import gemini_interactions as gi_cases
from tests.support.every_level.walk import Site, sites, with_member
from toolstream import validate
from toolstream.profiles import gemini_interactions_members as gi_members
from toolstream.profiles.dialects import unknown_member_message

_NAME = "zzUnknown"


def _shown(path: str) -> str:
    # The finding keeps 80 characters of a path (gemini_interactions._unknown).
    return path if len(path) <= 80 else "..." + path[-77:]


def _blocks_at(case: dict[str, Any], path: str) -> bool:
    report = validate(case)
    message = unknown_member_message(_shown(path))
    return report.status == "blocked" and any(
        f.code == "unsupported_event" and message in f.message for f in report.findings
    )


def _blocks_with(case: dict[str, Any], text: str) -> bool:
    report = validate(case)
    return report.status == "blocked" and any(
        f.code == "unsupported_event" and text in f.message for f in report.findings
    )


def _echo(**echo: Any) -> dict[str, Any]:
    return interactions(gi_cases._echo_turn(**copy.deepcopy(echo)))


def _passes(case: dict[str, Any]) -> None:
    report = validate(case)
    assert report.status == "pass", report.to_json()
    assert not report.findings, report.to_json()


_ECHO_CASES = [(name, case) for name, case in gi_cases.CASES if name.startswith("interaction echo")]
_ECHO_SITES: list[tuple[str, dict[str, Any], Site]] = [
    (name, case, site)
    for name, case in _ECHO_CASES
    for site in sites(case)
    if site.path[:1] == ("interaction",)
    and len(site.path) > 1
    and site.path[1] not in ("steps", "usage")
]


def test_the_echo_cases_are_valid_and_reach_every_closed_member() -> None:
    for _, case in _ECHO_CASES:
        _passes(case)
    members = {site.path[1] for _, _, site in _ECHO_SITES}
    assert members == {*gi_members.INTERACTION_INNER, "input"}


@pytest.mark.parametrize(
    ("name", "case", "site"),
    _ECHO_SITES,
    ids=[f"{site.level}@{name}" for name, _, site in _ECHO_SITES],
)
def test_an_unknown_member_at_each_level_of_the_interaction_blocks_naming_its_path(
    name: str, case: dict[str, Any], site: Site
) -> None:
    # The walker's site is the level's first object: in interaction.created.
    assert case["events"][site.item]["event_type"] == "interaction.created", name
    path = f"interaction.created.{site.level}.{_NAME}"
    assert _blocks_at(with_member(case, site, _NAME, 1), path), path


def test_the_completed_interaction_is_closed_too() -> None:
    case = _echo(generation_config={"temperature": 0.1})
    case["events"][-1]["interaction"]["generation_config"][_NAME] = 1
    path = f"interaction.completed.interaction.generation_config.{_NAME}"
    assert _blocks_at(case, path)


@pytest.mark.parametrize(
    ("echo", "path"),
    [
        # an object the walker's keyed level names do not reach: an env var
        (
            {"environment": {"type": "remote", "env": {"CITY": {"value": "x", _NAME: 1}}}},
            "environment.env.CITY",
        ),
        # the built-in tool calls' arguments in the input steps (their path is
        # the function call's too, open in OPEN_LEVELS)
        (
            {"input": [{"type": "google_search_call", "id": "g", "arguments": {_NAME: 1}}]},
            "input[].arguments",
        ),
        (
            {"input": [{"type": "code_execution_call", "id": "c", "arguments": {_NAME: 1}}]},
            "input[].arguments",
        ),
        (
            {"input": [{"type": "url_context_call", "id": "u", "arguments": {_NAME: 1}}]},
            "input[].arguments",
        ),
        (
            {"input": [{"type": "google_maps_call", "id": "m", "arguments": {_NAME: 1}}]},
            "input[].arguments",
        ),
        # a function_call step in the input: its own members are closed
        (
            {"input": [{"type": "function_call", "id": "f", "name": "n", _NAME: 1}]},
            "input[]",
        ),
        # a content's own members at each form of input
        ({"input": {"type": "text", "text": "x", _NAME: 1}}, "input"),
        ({"input": [{"type": "image", "uri": "gs://b/i", _NAME: 1}]}, "input[]"),
        # the allowlist entries, the speech configs of a list
        (
            {"environment": {"type": "remote", "network": {"allowlist": [{_NAME: 1}]}}},
            "environment.network.allowlist[]",
        ),
        (
            {"generation_config": {"speech_config": [{_NAME: 1}]}},
            "generation_config.speech_config[]",
        ),
        ({"response_format": [{"type": "video", _NAME: 1}]}, "response_format[]"),
    ],
)
def test_an_unknown_member_below_the_walked_levels_blocks_naming_its_path(
    echo: dict[str, Any], path: str
) -> None:
    full = f"interaction.created.interaction.{path}.{_NAME}"
    assert _blocks_at(_echo(**echo), full), full


@pytest.mark.parametrize(
    ("echo", "path"),
    [
        ({"tools": [{"type": "zz_tool"}]}, "tools[]"),
        ({"tools": [{"name": "weather"}]}, "tools[]"),
        ({"agent_config": {"type": "zz-agent"}}, "agent_config"),
        (
            {"generation_config": {"transcription_config": {"mode": {"type": "zz"}}}},
            "generation_config.transcription_config.mode",
        ),
        ({"input": [{"type": "zz_step"}]}, "input[]"),
        ({"input": {"type": "zz_content"}}, "input"),
        (
            {"output_video": {"type": "video", "processing": {"type": "zz"}}},
            "output_video.processing",
        ),
    ],
)
def test_an_unknown_type_blocks(echo: dict[str, Any], path: str) -> None:
    kind = echo
    for key in path.replace("[]", "").split("."):
        kind = kind[key]
        kind = kind[0] if isinstance(kind, list) else kind
    text = f"interaction.created.interaction.{path}.type={str(kind.get('type'))!r}"
    assert _blocks_with(_echo(**echo), _shown(text)), text


def test_an_unknown_tool_type_blocks_among_known_tools() -> None:
    tools = [gi_cases._TOOLS["function"], {"type": "zz_tool", "name": "x"}]
    case = _echo(tools=tools)
    assert _blocks_with(case, "interaction.created.interaction.tools[].type='zz_tool'")


def test_every_member_of_every_new_shape_is_accepted() -> None:
    # Every member each closed object lists, as null (the API's absent
    # value), leaves the turn passing.
    def null(shape: str, **own: Any) -> dict[str, Any]:
        return dict.fromkeys(gi_members.SHAPES[shape]) | own

    tools = [null(shape, type=kind) for kind, shape in gi_members.UNIONS["tool"].items()]
    agents = [
        null(shape, type=kind)
        for kind, shape in gi_members.UNIONS["agent config"].items()
        if shape not in gi_members.OPEN_SHAPES
    ]
    formats = [
        null(shape, type=kind) for kind, shape in gi_members.UNIONS["response format"].items()
    ]
    for agent in agents:
        _passes(
            _echo(
                agent_config=agent,
                tools=tools,
                response_format=formats,
                generation_config=null("generation config"),
                environment=null("environment", type="remote"),
                errors=[null("error")],
                safety_settings=[null("safety setting")],
                webhook_config=null("webhook config"),
                output_audio=null("audio", type="audio"),
                output_image=null("image", type="image"),
                output_video=null("video", type="video"),
            )
        )


def _at(value: Any, level: str) -> list[dict[str, Any]]:
    # The objects at a walker level inside an event (``[]``: each entry).
    found = [value]
    for key in level.split("."):
        many = key.endswith("[]")
        found = [v.get(key[:-2] if many else key) for v in found if isinstance(v, dict)]
        found = [v for v in found if v is not None]
        if many:
            found = [entry for v in found if isinstance(v, list) for entry in v]
    return [v for v in found if isinstance(v, dict)]


_OPEN = sorted(
    level
    for level in gi_members.OPEN_LEVELS
    if level.startswith("interaction.") and not level.startswith("interaction.steps")
)


_ANYTHING = {"zzDeeper": [1, {"zz": None}]}
_ENV_VAR = {"value": "v", "credential": None}


@pytest.mark.parametrize("level", _OPEN)
def test_the_open_on_purpose_levels_take_any_member(level: str) -> None:
    held = 0
    for _, case in _ECHO_CASES:
        out = copy.deepcopy(case)
        for event in (out["events"][0], out["events"][-1]):
            for target in _at(event, level):
                # (env: the names are the caller's, each object value an EnvVar)
                target["zzAny"] = _ENV_VAR if level.endswith(".env") else _ANYTHING
                held += 1
        _passes(out)
    assert held, f"no echo case holds {level}"


@pytest.mark.parametrize(
    "echo",
    [
        # a dynamic agent's own configuration
        {"agent_config": {"type": "dynamic", "zzAny": {"x": 1}, "max_steps": 3}},
        # a bare JSON Schema as the response format, of any (or no) type
        {"response_format": {"type": "object", "properties": {"a": {"type": "string"}}}},
        {"response_format": {"type": ["object", "null"], "zzAny": 1}},
        {"response_format": [{"properties": {}, "zzAny": 1}]},
        # the caller's variable names, a string value
        {"environment": {"type": "remote", "env": {"zzAny": "v", "OTHER": {"value": "x"}}}},
        # the injected headers as a list
        {
            "environment": {
                "type": "remote",
                "network": {"allowlist": [{"domain": "*", "transform": [{"zzAny": "v"}]}]},
            }
        },
        # a function call's and an MCP tool call's own arguments in the input
        {"input": [{"type": "function_call", "id": "f", "name": "n", "arguments": {"zzAny": 1}}]},
        {
            "input": [
                {
                    "type": "mcp_server_tool_call",
                    "id": "m",
                    "name": "n",
                    "server_name": "s",
                    "arguments": {"zzAny": 1},
                }
            ]
        },
        # strings where the SDK allows one
        {"environment": "env_1", "input": "hi", "generation_config": {"tool_choice": "any"}},
    ],
)
def test_the_open_by_type_objects_take_any_member(echo: dict[str, Any]) -> None:
    _passes(_echo(**echo))
