"""The chat profile's fast read of a call's first chunk (``_call_start``)
is a shortcut, not a new meaning: for any chunk near that shape, ``feed``
gives the events (or the error) the general reading ``_feed`` gives, and
leaves the profile in the same state."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolstream.events import Rejected
from toolstream.findings import ProtocolError
from toolstream.limits import Limits
from toolstream.profiles.openai_chat import MistralChat, OpenAIChat

ABSENT = object()

# Each member's usual value first, then every kind of value the general
# reading refuses or reads otherwise.  A chunk is the usual call start with
# a few members (none, most often) changed, so that both readings meet the
# shortcut's shape and each way out of it.
TEXT = ["call_1", "", None, 7, ["x"], "a:b", ABSENT]
INDEX = [0, 1, 3, -1, True, 1.0, "0", None, 10**9, ABSENT]
VARIANTS: dict[str, list[Any]] = {
    "function.name": ["get_weather", "", None, 3, ABSENT],
    "function.arguments": ["", '{"a"', None, 1, ABSENT],
    "function.strict": [ABSENT, True],
    "call.index": INDEX,
    "call.id": TEXT,
    "call.type": ["function", None, "custom", ABSENT],
    "call.extra": [ABSENT, 1],
    "call.function": ["usual", None, "f", ABSENT],
    "delta.tool_calls": ["one", "two", [], "entry", None],
    "delta.other": [ABSENT, "role", "content", "audio", "reasoning", "function_call"],
    "choice.index": INDEX,
    "choice.logprobs": [None, ABSENT, "x", {}, [], 0],
    "choice.finish_reason": [None, ABSENT, "tool_calls", 1],
    "choice.other": [ABSENT, "message", "text", "native_finish_reason"],
    "chunk.object": ["chat.completion.chunk", "error", ABSENT],
    "chunk.choices": ["one", "two", [], "choice"],
    "chunk.usage": [None, ABSENT, {"total_tokens": 1}, 5],
    "chunk.other": [ABSENT, "error", "provider", "x_groq", "citations"],
}


def _put(obj: dict[str, Any], key: str, value: Any) -> None:
    if value is not ABSENT:
        obj[key] = value


def _named(value: Any, **named: Any) -> Any:
    """The value a variant's name stands for; any other variant as it is."""
    return named[value] if type(value) is str else value


@st.composite
def start_chunks(draw: st.DrawFn) -> dict[str, Any]:
    changed = draw(st.sets(st.sampled_from(sorted(VARIANTS)), max_size=3))
    value = {
        name: draw(st.sampled_from(options[1:])) if name in changed else options[0]
        for name, options in VARIANTS.items()
    }
    function: dict[str, Any] = {}
    for member in ("name", "arguments", "strict"):
        _put(function, member, value[f"function.{member}"])
    call: dict[str, Any] = {}
    for member in ("index", "id", "type", "extra"):
        _put(call, member, value[f"call.{member}"])
    _put(
        call, "function", function if value["call.function"] == "usual" else value["call.function"]
    )
    calls = _named(value["delta.tool_calls"], one=[call], two=[call, dict(call)], entry=call)
    delta: dict[str, Any] = {"tool_calls": calls}
    if value["delta.other"] is not ABSENT:
        delta[value["delta.other"]] = draw(st.sampled_from(["assistant", None, {"x": 1}]))
    choice: dict[str, Any] = {"delta": delta}
    for member in ("index", "logprobs", "finish_reason"):
        _put(choice, member, value[f"choice.{member}"])
    if value["choice.other"] is not ABSENT:
        choice[value["choice.other"]] = "x"
    chunk: dict[str, Any] = {"id": "chatcmpl-1"}
    _put(chunk, "object", value["chunk.object"])
    chunk["choices"] = _named(
        value["chunk.choices"], one=[choice], two=[choice, choice], choice=choice
    )
    _put(chunk, "usage", value["chunk.usage"])
    if value["chunk.other"] is not ABSENT:
        chunk[value["chunk.other"]] = {"m": 1}
    return chunk


def _error(error: ProtocolError) -> tuple[Any, ...]:
    return ("error", error.code, error.message, error.key, error.event, error.path, error.fatal)


def _read(profile: OpenAIChat, read: Any, chunk: Any, pos: int) -> tuple[Any, ...]:
    """The events (a Rejected one by its error's fields: errors compare by
    identity) or the error of one reading."""
    try:
        events = tuple(read(chunk, pos))
    except ProtocolError as error:
        return _error(error)
    return tuple(
        (event.pos, _error(event.error)) if isinstance(event, Rejected) else event
        for event in events
    )


def _state(profile: OpenAIChat) -> tuple[Any, ...]:
    return (
        sorted(profile._seen),
        sorted(profile._next_index.items()),
        sorted(profile._finished.items()),
        sorted(profile.dialects_seen),
    )


@settings(max_examples=300)
@given(
    profile_class=st.sampled_from([OpenAIChat, MistralChat]),
    earlier=st.lists(start_chunks(), max_size=3),
    chunk=start_chunks(),
)
def test_feed_reads_a_call_start_as_the_general_reading_does(
    profile_class: type[OpenAIChat], earlier: list[dict[str, Any]], chunk: dict[str, Any]
) -> None:
    fast, general = profile_class(None, Limits()), profile_class(None, Limits())
    for pos, before in enumerate([*earlier, chunk]):
        assert _read(fast, fast.feed, before, pos) == _read(general, general._feed, before, pos)
        assert _state(fast) == _state(general)


def test_the_usual_start_takes_the_fast_read() -> None:
    profile = OpenAIChat(None, Limits())
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": ""},
                        }
                    ]
                },
                "logprobs": None,
                "finish_reason": None,
            }
        ],
    }
    assert profile._call_start(chunk) == ((0, 0), "call_1", "get_weather", "")
    assert profile._call_start(chunk) is None  # the slot is seen now: a restart is _feed's
