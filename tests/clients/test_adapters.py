"""Adapters: what real libraries' own stream reassembly makes of a fixture.

These tests pin the *observed* behaviour of the library versions the project
pins (see docs/adapters-notes.md): they assert what each library really does
with hostile streams -- merging, concatenating, healing, dropping, raising --
not what it should do.  A failure after an upgrade means the library's
behaviour changed: re-observe and update the notes with the test.

Every fixture here is hand-written for this file.  Nothing opens a socket:
an autouse fixture makes any connection or DNS attempt fail the test.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.support.builders import (
    anthropic,
    block_stop,
    chunk,
    json_delta,
    message_delta,
    message_start,
    message_stop,
    tc,
    text_start,
    tool_start,
)
from tests.support.diff_fixtures import SCHEMAS, oai
from toolstream.adapters import (
    ADAPTERS,
    NO_INPUT,
    AdapterCall,
    AdapterResult,
    AdapterUnavailable,
    UnsupportedProfile,
    adapter_names,
    get_adapter,
    resolve_adapter,
)
from toolstream.adapters.base import LIBRARY_NOTE_PREFIX
from toolstream.adapters.user import (
    AdapterOutputError,
    CallableAdapter,
    CommandAdapter,
    load_callable_adapter,
)
from toolstream.clients.harness import GENERATED_ID

ROOT = Path(__file__).resolve().parents[2]

# The weather tool and the chunk builders are shared with the diff tests; the
# network guard (tests/conftest.py) is on for every test.


@pytest.fixture(autouse=True)
def dummy_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """The SDKs refuse to start without a key; nothing is ever sent with it."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-toolstream-dummy")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-toolstream-dummy")


def mistral(*chunks: Any) -> dict[str, Any]:
    return oai(*chunks, profile="mistral")


END = chunk(finish="tool_calls")

PARALLEL = oai(
    {"choices": [{"index": 0, "delta": {"role": "assistant", "content": None}}]},
    chunk(tc(0, "call_1", "weather", '{"ci')),
    chunk(tc(0, args='ty":"Paris"}')),
    chunk(tc(1, "call_2", "weather", "")),
    chunk(tc(1, args='{"city":"Rome"}')),
    END,
)
PARALLEL_CALLS = [
    ("call_1", "weather", '{"city":"Paris"}'),
    ("call_2", "weather", '{"city":"Rome"}'),
]
REUSED_INDEX = oai(
    chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')),
    chunk(tc(0, "call_2", "weather", '{"city":"Rome"}')),
    END,
)
TRUNCATED_PREFIX = oai(chunk(tc(0, "call_1", "weather", '{"city":')), chunk(tc(0, args='"Par')))
TRUNCATED_PARSEABLE = oai(
    chunk(tc(0, "call_1", "weather", '{"city":')), chunk(tc(0, args='"Paris"}'))
)
TWICE = oai(
    chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')),
    chunk(tc(0, args='{"city":"Paris"}')),
    END,
)
DICT_ARGUMENTS = oai(chunk(tc(0, "call_1", "weather", {"city": "Paris"})), END)
INT_FRAGMENT = oai(
    chunk(tc(0, "call_1", "weather", '{"city":')),
    chunk(tc(0, args=5)),
    chunk(tc(0, args='"x"}')),
    END,
)
NULL_INDEX_CONTINUATION = oai(
    chunk(tc(0, "call_1", "weather", '{"city":')),
    chunk(tc(None, args='"Paris"}')),
    END,
)
ID_RESENT = oai(
    chunk(tc(0, "call_1", "weather", '{"ci')),
    chunk(tc(0, "call_1", "weather", 'ty":"Paris"}')),  # id and name repeated, same values
    END,
)
MISTRAL_NO_INDEX = mistral(
    chunk(tc(id="call_1", name="weather", args='{"city":"Paris"}', omit_index=True)),
    chunk(tc(id="call_2", name="weather", args='{"city":"Rome"}', omit_index=True)),
    END,
)


def triples(result: AdapterResult) -> list[tuple[Any, Any, Any]]:
    return [(c.id, c.name, c.arguments) for c in result.calls]


def inputs(result: AdapterResult) -> list[tuple[Any, Any, Any]]:
    return [(c.id, c.name, c.input) for c in result.calls]


def assert_library_raised(excinfo: pytest.ExceptionInfo[BaseException], library: str) -> None:
    notes = getattr(excinfo.value, "__notes__", [])
    assert any(n.startswith(LIBRARY_NOTE_PREFIX + library) for n in notes), notes


# -- Anthropic fixtures (tests/support/builders.py) --------------------------------------
# No ``usage`` and an empty opening message: the adapters fill placeholders.


def ant(*events: Any) -> dict[str, Any]:
    return anthropic(list(events), schemas=SCHEMAS, request={})


def closing_delta(stop_reason: str = "tool_use") -> dict[str, Any]:
    return message_delta(stop_reason, stop_sequence=True, output_tokens=None)


MESSAGE_STOP = message_stop()
PING = {"type": "ping"}


def one_tool(*partials: Any, stop_reason: str | None = "tool_use") -> dict[str, Any]:
    events: list[Any] = [message_start({}), tool_start(0, "toolu_1")]
    events += [json_delta(0, p) for p in partials]
    if stop_reason is not None:
        events += [block_stop(0), closing_delta(stop_reason), MESSAGE_STOP]
    return ant(*events)


ANT_PARALLEL = ant(
    message_start({}),  # no id/model/usage: the adapters fill placeholders
    PING,
    tool_start(0, "toolu_1"),
    json_delta(0, '{"ci'),
    json_delta(0, 'ty":"Paris"}'),
    block_stop(0),
    tool_start(1, "toolu_2"),
    json_delta(1, '{"city":"Rome"}'),
    block_stop(1),
    closing_delta(),
    MESSAGE_STOP,
)
ANT_REUSED_INDEX = ant(
    message_start({}),
    tool_start(0, "toolu_1"),
    json_delta(0, '{"city":"Paris"}'),
    block_stop(0),
    tool_start(0, "toolu_2"),
    json_delta(0, '{"city":"Rome"}'),
    block_stop(0),
    closing_delta(),
    MESSAGE_STOP,
)


def needs(module: str) -> None:
    pytest.importorskip(
        module, reason=f"{module} is not installed (pip install 'toolstream[adapters]')"
    )


# ==============================================================================
# Library-independent
# ==============================================================================


def test_registry_names_are_stable() -> None:
    assert adapter_names() == ("openai-python", "anthropic-python", "langchain-core", "litellm")
    for name, cls in ADAPTERS.items():
        adapter = get_adapter(name)
        assert isinstance(adapter, cls)
        assert adapter.name == name
        assert set(adapter.profiles) <= {"openai", "mistral", "anthropic", "gemini"}
    assert get_adapter("anthropic-python").profiles == ("anthropic",)
    assert get_adapter("langchain-core").profiles == ("openai", "mistral", "anthropic", "gemini")
    with pytest.raises(KeyError, match="unknown adapter"):
        get_adapter("nope")


def test_resolve_adapter_specs() -> None:
    assert isinstance(resolve_adapter("openai-python"), ADAPTERS["openai-python"])
    command = resolve_adapter("cmd:my-accumulator --flag 'a b'", timeout=3)
    assert isinstance(command, CommandAdapter)
    assert command.argv == ["my-accumulator", "--flag", "a b"]
    assert command.timeout == 3
    assert isinstance(resolve_adapter("json:loads"), CallableAdapter)
    with pytest.raises(KeyError):
        resolve_adapter("no-such-adapter")


def test_no_input_sentinel() -> None:
    call = AdapterCall(id="a", name="b", arguments="{}")
    assert call.input is NO_INPUT
    assert not NO_INPUT
    assert repr(NO_INPUT) == "NO_INPUT"
    assert pickle.loads(pickle.dumps(NO_INPUT)) is NO_INPUT
    assert AdapterCall("a", "b", "{}", None) != call  # a parsed JSON null is not "no input"


def test_profile_checked_before_any_import() -> None:
    for name in adapter_names():
        with pytest.raises(UnsupportedProfile, match=name):
            get_adapter(name).run({"profile": "cohere", "chunks": [], "events": []})
    with pytest.raises(UnsupportedProfile, match="anthropic-python"):
        get_adapter("anthropic-python").run(oai(END))


BLOCKER = """
import importlib.abc, sys
BLOCKED = {"openai", "anthropic", "langchain_core", "litellm", "jiter"}
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked for test: {name}")
        return None
sys.meta_path.insert(0, Blocker())
"""


def test_package_imports_without_any_library() -> None:
    script = BLOCKER + textwrap.dedent(
        """
        import json
        import toolstream.adapters as adapters
        from toolstream.adapters import AdapterUnavailable, get_adapter
        out = {}
        fixtures = {
            "openai": {"profile": "openai", "tool_schemas": {}, "chunks": []},
            "anthropic": {"profile": "anthropic", "tool_schemas": {}, "events": []},
        }
        for name in adapters.adapter_names():
            adapter = get_adapter(name)
            profile = "anthropic" if adapter.profiles == ("anthropic",) else "openai"
            try:
                adapter.run(fixtures[profile])
                message = None
            except AdapterUnavailable as exc:
                message = str(exc)
            out[name] = [adapter.available(), message]
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
        print(json.dumps({"adapters": out, "loaded": loaded}))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["loaded"] == []
    assert set(report["adapters"]) == set(adapter_names())
    for name, (available, message) in report["adapters"].items():
        assert available is False, name
        extra = "litellm" if name == "litellm" else "adapters"
        assert message is not None and f"pip install 'toolstream[{extra}]'" in message, name
        assert repr(name) in message


# -- user adapters ----------------------------------------------------------------

NAIVE = """
import json, sys

def accumulate(fixture):
    calls = {}
    for body in fixture["chunks"]:
        for choice in body.get("choices", []):
            for call in choice.get("delta", {}).get("tool_calls") or []:
                slot = calls.setdefault(call["index"], {"id": None, "name": None, "arguments": ""})
                slot["id"] = call.get("id") or slot["id"]
                function = call.get("function") or {}
                slot["name"] = function.get("name") or slot["name"]
                slot["arguments"] += function.get("arguments") or ""
    if not calls:
        from toolstream import Rejected

        raise Rejected("no tool calls")
    return [calls[i] for i in sorted(calls)]

if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    fixture = json.load(sys.stdin)
    if mode == "reject":
        print("refusing this turn", file=sys.stderr)
        sys.exit(3)
    if mode == "garbage":
        print("this is not json")
    elif mode == "shape":
        print(json.dumps([{"id": 1, "name": "weather", "arguments": "{}"}]))
    elif mode == "sleep":
        import time
        time.sleep(30)
    else:
        print(json.dumps(accumulate(fixture)))
"""


@pytest.fixture
def naive_script(tmp_path: Path) -> Path:
    path = tmp_path / "naive_accumulator.py"
    path.write_text(NAIVE, encoding="utf-8")
    return path


def command(script: Path, mode: str = "ok", timeout: float = 30) -> CommandAdapter:
    return CommandAdapter(f"{sys.executable} {script} {mode}", timeout=timeout)


def test_command_adapter_returns_calls(naive_script: Path) -> None:
    adapter = command(naive_script)
    assert adapter.available()
    result = adapter.run(PARALLEL)
    assert result == AdapterResult(
        calls=tuple(AdapterCall(*t) for t in PARALLEL_CALLS), rejected=False, invalid=()
    )
    # a naive concatenating accumulator does what the validator must refuse
    assert triples(adapter.run(REUSED_INDEX)) == [
        ("call_2", "weather", '{"city":"Paris"}{"city":"Rome"}')
    ]


def test_command_adapter_nonzero_exit_is_rejection(naive_script: Path) -> None:
    result = command(naive_script, "reject").run(PARALLEL)
    assert result.rejected and result.calls == ()
    assert result.reason is not None
    assert "exit status 3" in result.reason and "refusing this turn" in result.reason


def test_command_adapter_bad_stdout_raises(naive_script: Path) -> None:
    with pytest.raises(AdapterOutputError, match="not JSON"):
        command(naive_script, "garbage").run(PARALLEL)
    with pytest.raises(AdapterOutputError, match="'id' must be a string or null"):
        command(naive_script, "shape").run(PARALLEL)


def test_command_adapter_timeout_raises(naive_script: Path) -> None:
    with pytest.raises(subprocess.TimeoutExpired):
        command(naive_script, "sleep", timeout=0.5).run(PARALLEL)


def test_command_adapter_missing_program(tmp_path: Path) -> None:
    adapter = CommandAdapter(str(tmp_path / "does-not-exist"), timeout=5)
    assert not adapter.available()
    with pytest.raises(AdapterUnavailable):
        adapter.run(PARALLEL)


def test_callable_adapter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_accumulators.py").write_text(NAIVE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    adapter = load_callable_adapter("my_accumulators:accumulate")
    assert adapter.name == "my_accumulators:accumulate"
    assert triples(adapter.run(PARALLEL)) == PARALLEL_CALLS
    rejected = adapter.run(oai(END))  # raising toolstream.Rejected means "rejected"
    assert rejected.rejected and rejected.reason == "Rejected: no tool calls"
    with pytest.raises(ValueError, match="no attribute"):
        load_callable_adapter("my_accumulators:missing")
    with pytest.raises(ValueError, match=r"package\.module:function"):
        load_callable_adapter("my_accumulators")
    with pytest.raises(AdapterUnavailable):
        load_callable_adapter("no_such_module_for_toolstream:f")
    bad = CallableAdapter(lambda fixture: {"not": "a list"}, name="bad")
    with pytest.raises(AdapterOutputError, match="expected a list"):
        bad.run(PARALLEL)


# ==============================================================================
# openai-python
# ==============================================================================


@pytest.fixture
def openai_adapter() -> Any:
    needs("openai")
    return get_adapter("openai-python")


def test_openai_parallel_calls_byte_for_byte(openai_adapter: Any) -> None:
    result = openai_adapter.run(PARALLEL)
    assert triples(result) == PARALLEL_CALLS
    assert not result.rejected and result.invalid == ()
    assert result.finish_reason == "tool_calls"
    assert all(c.input is NO_INPUT for c in result.calls)  # non-strict tools: no parsing


def test_openai_reused_index_concatenates_ids_names_and_arguments(openai_adapter: Any) -> None:
    result = openai_adapter.run(REUSED_INDEX)
    assert triples(result) == [
        ("call_1call_2", "weatherweather", '{"city":"Paris"}{"city":"Rome"}')
    ]


def test_openai_concatenates_a_resent_id(openai_adapter: Any) -> None:
    assert triples(openai_adapter.run(ID_RESENT)) == [
        ("call_1call_1", "weatherweather", '{"city":"Paris"}')
    ]


def test_openai_hands_over_truncated_calls(openai_adapter: Any) -> None:
    prefix = openai_adapter.run(TRUNCATED_PREFIX)
    assert triples(prefix) == [("call_1", "weather", '{"city":"Par')]
    assert not prefix.rejected and prefix.finish_reason is None
    parseable = openai_adapter.run(TRUNCATED_PARSEABLE)
    assert triples(parseable) == [("call_1", "weather", '{"city":"Paris"}')]
    assert parseable.finish_reason is None


def test_openai_arguments_twice_concatenated(openai_adapter: Any) -> None:
    assert triples(openai_adapter.run(TWICE)) == [
        ("call_1", "weather", '{"city":"Paris"}{"city":"Paris"}')
    ]


def test_openai_non_string_arguments(openai_adapter: Any) -> None:
    # a non-string first fragment is handed over as-is (not a str!)
    assert triples(openai_adapter.run(DICT_ARGUMENTS)) == [("call_1", "weather", {"city": "Paris"})]
    # a non-string later fragment is silently dropped: the result is valid
    # JSON that the model never sent
    assert triples(openai_adapter.run(INT_FRAGMENT)) == [("call_1", "weather", '{"city":"x"}')]


def test_openai_null_or_missing_index_crashes(openai_adapter: Any) -> None:
    with pytest.raises(TypeError, match="index` value is not an integer") as excinfo:
        openai_adapter.run(NULL_INDEX_CONTINUATION)
    assert_library_raised(excinfo, "openai")
    with pytest.raises(TypeError, match="list indices must be integers"):
        openai_adapter.run(MISTRAL_NO_INDEX)


def test_openai_index_gap_crashes(openai_adapter: Any) -> None:
    with pytest.raises(IndexError):
        openai_adapter.run(oai(chunk(tc(1, "call_1", "weather", '{"city":"Paris"}')), END))


def test_openai_documented_rejections(openai_adapter: Any) -> None:
    call = chunk(tc(0, "call_1", "weather", '{"city":"Paris"}'))
    length = openai_adapter.run(oai(call, chunk(finish="length")))
    assert length.rejected and length.calls == ()
    assert length.reason is not None and "LengthFinishReasonError" in length.reason
    content_filter = openai_adapter.run(oai(call, chunk(finish="content_filter")))
    assert content_filter.rejected
    assert content_filter.reason is not None
    assert "ContentFilterFinishReasonError" in content_filter.reason
    error = openai_adapter.run(oai(call, {"error": {"message": "server exploded"}}))
    assert error.rejected and error.reason is not None and "server exploded" in error.reason
    # "stop" is not refused: the calls are handed over
    assert triples(openai_adapter.run(oai(call, chunk(finish="stop")))) == [
        ("call_1", "weather", '{"city":"Paris"}')
    ]


def test_openai_drops_chunks_with_foreign_object(openai_adapter: Any) -> None:
    # ChatCompletionStream's Azure async-filter guard: object != chat.completion.chunk
    hidden = {**chunk(tc(0, "call_1", "weather", '{"city":"Paris"}')), "object": ""}
    result = openai_adapter.run(oai(hidden, END))
    assert result.calls == () and not result.rejected and result.finish_reason == "tool_calls"


def test_openai_empty_stream_crashes(openai_adapter: Any) -> None:
    with pytest.raises(AssertionError):
        openai_adapter.run(oai())


def test_openai_strict_tools_parse_and_refuse() -> None:
    needs("openai")
    from toolstream.adapters.openai_python import OpenAIPythonAdapter

    strict = OpenAIPythonAdapter(strict_tools=True)
    assert inputs(strict.run(PARALLEL)) == [
        ("call_1", "weather", {"city": "Paris"}),
        ("call_2", "weather", {"city": "Rome"}),
    ]
    truncated = strict.run(TRUNCATED_PREFIX)
    assert truncated.rejected and truncated.reason is not None
    assert "JSONDecodeError" in truncated.reason
    assert strict.run(TWICE).rejected
    # a merged name matches no tool: nothing is parsed and nothing refused
    reused = strict.run(REUSED_INDEX)
    assert not reused.rejected and [c.input for c in reused.calls] == [NO_INPUT]


# ==============================================================================
# anthropic-python
# ==============================================================================


@pytest.fixture
def anthropic_adapter() -> Any:
    needs("anthropic")
    return get_adapter("anthropic-python")


def test_anthropic_parallel_calls(anthropic_adapter: Any) -> None:
    result = anthropic_adapter.run(ANT_PARALLEL)
    assert inputs(result) == [
        ("toolu_1", "weather", {"city": "Paris"}),
        ("toolu_2", "weather", {"city": "Rome"}),
    ]
    assert [c.arguments for c in result.calls] == [None, None]  # the SDK hands over input only
    assert result.finish_reason == "tool_use" and not result.rejected


def test_anthropic_partial_json_is_handed_over(anthropic_adapter: Any) -> None:
    # no content_block_stop, no message_delta: the SDK still returns the
    # jiter partial parse of whatever arrived
    cases = {
        '{"city":"Paris"}': {"city": "Paris"},
        '{"city":"Par': {},  # an unfinished string is dropped...
        '{"city":': {},
        '{"n":12': {"n": 12},  # ...an unfinished number is kept
        '{"flag":tr': {},
    }
    for partial, expected in cases.items():
        result = anthropic_adapter.run(one_tool(partial, stop_reason=None))
        assert inputs(result) == [("toolu_1", "weather", expected)], partial
        assert result.finish_reason is None and not result.rejected


def test_anthropic_max_tokens_is_not_refused(anthropic_adapter: Any) -> None:
    result = anthropic_adapter.run(one_tool('{"city":"Par', stop_reason="max_tokens"))
    assert inputs(result) == [("toolu_1", "weather", {})]
    assert result.finish_reason == "max_tokens" and not result.rejected


def test_anthropic_trailing_data_ignored(anthropic_adapter: Any) -> None:
    twice = anthropic_adapter.run(one_tool('{"city":"Paris"}', '{"city":"Paris"}'))
    assert inputs(twice) == [("toolu_1", "weather", {"city": "Paris"})]
    garbage = anthropic_adapter.run(one_tool('{"city":"Paris"}]'))
    assert inputs(garbage) == [("toolu_1", "weather", {"city": "Paris"})]


def test_anthropic_reused_index_keeps_two_blocks_and_merges_json(anthropic_adapter: Any) -> None:
    # the second content_block_start is appended as a new block, but deltas
    # are routed by index, so both fragments land in the first block's buffer
    assert inputs(anthropic_adapter.run(ANT_REUSED_INDEX)) == [
        ("toolu_1", "weather", {"city": "Paris"}),
        ("toolu_2", "weather", {}),
    ]


def test_anthropic_json_quirks(anthropic_adapter: Any) -> None:
    nan = anthropic_adapter.run(one_tool('{"n":NaN}')).calls[0].input
    assert nan["n"] != nan["n"]  # NaN accepted
    assert anthropic_adapter.run(one_tool('{"city":"Paris","city":"Rome"}')).calls[0].input == {
        "city": "Rome"
    }
    assert anthropic_adapter.run(one_tool("[1,2]")).calls[0].input == [1, 2]
    start_input = ant(
        message_start({}),
        tool_start(0, "toolu_1", input={"city": "Rome"}),
        json_delta(0, '{"city":"Paris"}'),
        block_stop(0),
        closing_delta(),
        MESSAGE_STOP,
    )
    assert anthropic_adapter.run(start_input).calls[0].input == {"city": "Paris"}


def test_anthropic_refuses_unparseable_json(anthropic_adapter: Any) -> None:
    for partial in ('{"city":]', '{"city":"\\ud800"}'):
        result = anthropic_adapter.run(one_tool(partial))
        assert result.rejected and result.calls == (), partial
        assert result.reason is not None and "Unable to parse tool parameter JSON" in result.reason


def test_anthropic_error_event_is_rejection(anthropic_adapter: Any) -> None:
    events = one_tool('{"city":"Paris"}', stop_reason=None)["events"]
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    result = anthropic_adapter.run(ant(*events, error))
    assert result.rejected and result.reason is not None and "overloaded_error" in result.reason


def test_anthropic_crashes(anthropic_adapter: Any) -> None:
    with pytest.raises(TypeError) as excinfo:  # partial_json not a string
        anthropic_adapter.run(one_tool({"city": "Paris"}))
    assert_library_raised(excinfo, "anthropic")
    null_index = ant(message_start({}), tool_start(None, "toolu_1"), json_delta(None, "{}"))
    with pytest.raises(TypeError):
        anthropic_adapter.run(null_index)
    gap = ant(message_start({}), tool_start(1, "toolu_1"), json_delta(1, "{}"))
    with pytest.raises(IndexError):
        anthropic_adapter.run(gap)
    with pytest.raises(AssertionError):  # no message_start at all
        anthropic_adapter.run(ant(tool_start(0, "toolu_1"), json_delta(0, "{}"), block_stop(0)))


# ==============================================================================
# langchain-core
# ==============================================================================


@pytest.fixture
def langchain_adapter() -> Any:
    needs("langchain_core")
    return get_adapter("langchain-core")


@pytest.fixture
def langchain_openai(langchain_adapter: Any) -> Any:
    needs("langchain_openai")  # the integration, driven over HTTP
    return langchain_adapter


def test_langchain_openai_parallel_calls(langchain_openai: Any) -> None:
    result = langchain_openai.run(PARALLEL)
    assert triples(result) == PARALLEL_CALLS
    assert [c.input for c in result.calls] == [{"city": "Paris"}, {"city": "Rome"}]
    assert result.invalid == () and result.finish_reason == "tool_calls"


def test_langchain_reused_index_with_new_id_is_split(langchain_openai: Any) -> None:
    assert triples(langchain_openai.run(REUSED_INDEX)) == [
        ("call_1", "weather", '{"city":"Paris"}'),
        ("call_2", "weather", '{"city":"Rome"}'),
    ]


def test_langchain_dedups_a_resent_id_but_not_a_name(langchain_openai: Any) -> None:
    assert triples(langchain_openai.run(ID_RESENT)) == [
        ("call_1", "weatherweather", '{"city":"Paris"}')
    ]
    empty = langchain_openai.run(oai(chunk(tc(0, "call_1", "weather", "")), END))
    assert inputs(empty) == [("call_1", "weather", {})]  # empty arguments -> {}
    nameless = langchain_openai.run(oai(chunk(tc(0, "call_1", None, "{}")), END))
    assert inputs(nameless) == [("call_1", "", {})]  # a missing name becomes ""


def test_langchain_heals_truncated_arguments(langchain_openai: Any) -> None:
    prefix = langchain_openai.run(TRUNCATED_PREFIX)
    assert inputs(prefix) == [("call_1", "weather", {"city": "Par"})]
    assert prefix.calls[0].arguments == '{"city":"Par'
    assert prefix.invalid == () and prefix.finish_reason is None
    key_only = langchain_openai.run(oai(chunk(tc(0, "call_1", "weather", '{"city":'))))
    assert inputs(key_only) == [("call_1", "weather", {})]  # required key lost, still "valid"


def test_langchain_ignores_trailing_data(langchain_openai: Any) -> None:
    result = langchain_openai.run(TWICE)
    assert inputs(result) == [("call_1", "weather", {"city": "Paris"})]
    assert result.calls[0].arguments == '{"city":"Paris"}{"city":"Paris"}'


def test_langchain_flags_unparseable_as_invalid(langchain_openai: Any) -> None:
    result = langchain_openai.run(oai(chunk(tc(0, "call_1", "weather", '{"city":]')), END))
    assert result.calls == ()
    assert [json.loads(i) for i in result.invalid] == [
        {"args": '{"city":]', "error": None, "id": "call_1", "name": "weather"}
    ]
    array = langchain_openai.run(oai(chunk(tc(0, "call_1", "weather", "[1,2]")), END))
    assert array.calls == () and len(array.invalid) == 1


def test_langchain_non_string_arguments_crash(langchain_openai: Any) -> None:
    import pydantic

    for fixture in (DICT_ARGUMENTS, INT_FRAGMENT):
        with pytest.raises(pydantic.ValidationError) as excinfo:
            langchain_openai.run(fixture)
        assert_library_raised(excinfo, "langchain-openai")  # the integration raised


def test_langchain_null_index(langchain_openai: Any) -> None:
    whole = langchain_openai.run(oai(chunk(tc(None, "call_1", "weather", '{"city":"Paris"}')), END))
    assert inputs(whole) == [("call_1", "weather", {"city": "Paris"})]
    # a continuation with index null is not merged: the head is healed to {}
    split = langchain_openai.run(NULL_INDEX_CONTINUATION)
    assert inputs(split) == [("call_1", "weather", {})]
    assert [json.loads(i)["args"] for i in split.invalid] == ['"Paris"}']


def test_langchain_does_not_refuse_length(langchain_openai: Any) -> None:
    call = chunk(tc(0, "call_1", "weather", '{"city":"Paris"}'))
    result = langchain_openai.run(oai(call, chunk(finish="length")))
    assert not result.rejected and result.finish_reason == "length"
    assert inputs(result) == [("call_1", "weather", {"city": "Paris"})]


def test_langchain_openai_null_function_crashes(langchain_openai: Any) -> None:
    fixture = oai(chunk(tc(0, "call_1", "weather", "{}"), {"index": 1, "id": "call_2"}), END)
    with pytest.raises(AttributeError):
        langchain_openai.run(fixture)


def test_langchain_rejections(langchain_openai: Any) -> None:
    empty = langchain_openai.run(oai())
    assert empty.rejected and empty.reason == "ValueError: No generation chunks were returned"
    error = langchain_openai.run(oai(PARALLEL["chunks"][1], {"error": {"message": "boom"}}))
    assert error.rejected


def test_langchain_mistral(langchain_adapter: Any) -> None:
    needs("langchain_mistralai")
    assert triples(langchain_adapter.run(MISTRAL_NO_INDEX)) == [
        ("call_1", "weather", '{"city":"Paris"}'),
        ("call_2", "weather", '{"city":"Rome"}'),
    ]
    # langchain-mistralai gives an id-less fragment whose index is falsy (0!) a
    # fresh id (uuid4, reported as GENERATED_ID), so it is never merged into its call
    fragmented = mistral(
        chunk(tc(0, "call_1", "weather", '{"ci')), chunk(tc(0, args='ty":"Paris"}')), END
    )
    result = langchain_adapter.run(fragmented)
    assert inputs(result) == [("call_1", "weather", {})]
    assert [json.loads(i) for i in result.invalid] == [
        {"args": 'ty":"Paris"}', "error": None, "id": GENERATED_ID, "name": None}
    ]


@pytest.fixture
def langchain_anthropic(langchain_adapter: Any) -> Any:
    needs("langchain_anthropic")
    return langchain_adapter


def test_langchain_anthropic_parallel_calls(langchain_anthropic: Any) -> None:
    result = langchain_anthropic.run(ANT_PARALLEL)
    assert triples(result) == [
        ("toolu_1", "weather", '{"city":"Paris"}'),
        ("toolu_2", "weather", '{"city":"Rome"}'),
    ]
    assert [c.input for c in result.calls] == [{"city": "Paris"}, {"city": "Rome"}]
    assert result.finish_reason == "tool_use"


def test_langchain_anthropic_hostile(langchain_anthropic: Any) -> None:
    truncated = langchain_anthropic.run(one_tool('{"city":"Par', stop_reason=None))
    assert inputs(truncated) == [("toolu_1", "weather", {"city": "Par"})]
    # deltas for index 0 after a second start at index 0 merge into the first call
    assert triples(langchain_anthropic.run(ANT_REUSED_INDEX)) == [
        ("toolu_1", "weather", '{"city":"Paris"}{"city":"Rome"}'),
        ("toolu_2", "weather", ""),
    ]
    # deltas are only kept while the *latest* block start was a tool_use
    interleaved = ant(
        message_start({}),
        tool_start(0, "toolu_1"),
        text_start(1),
        json_delta(0, '{"city":"Paris"}'),
        block_stop(0),
        block_stop(1),
        closing_delta(),
        MESSAGE_STOP,
    )
    assert inputs(langchain_anthropic.run(interleaved)) == [("toolu_1", "weather", {})]
    # no message_start is not a problem for LangChain
    no_start = ant(tool_start(0, "toolu_1"), json_delta(0, '{"city":"Paris"}'), block_stop(0))
    assert inputs(langchain_anthropic.run(no_start)) == [("toolu_1", "weather", {"city": "Paris"})]


# ==============================================================================
# litellm
# ==============================================================================


@pytest.fixture
def litellm_adapter() -> Any:
    # not importorskip: a bare "import litellm" fetches a price map from the
    # network; the adapter sets LITELLM_LOCAL_MODEL_COST_MAP before importing
    if importlib.util.find_spec("litellm") is None:
        pytest.skip("litellm is not installed (pip install 'toolstream[litellm]')")
    return get_adapter("litellm")


def test_litellm_behaviour(litellm_adapter: Any) -> None:
    assert triples(litellm_adapter.run(PARALLEL)) == PARALLEL_CALLS
    # reused index: last id wins, arguments concatenated
    assert triples(litellm_adapter.run(REUSED_INDEX)) == [
        ("call_2", "weather", '{"city":"Paris"}{"city":"Rome"}')
    ]
    truncated = litellm_adapter.run(TRUNCATED_PREFIX)
    assert triples(truncated) == [("call_1", "weather", '{"city":"Par')]
    assert truncated.finish_reason == "stop"  # invented by litellm
    assert triples(litellm_adapter.run(TWICE)) == [
        ("call_1", "weather", '{"city":"Paris"}{"city":"Paris"}')
    ]
    # a dict "arguments" is json.dumps-ed into a valid string
    assert triples(litellm_adapter.run(DICT_ARGUMENTS)) == [
        ("call_1", "weather", '{"city": "Paris"}')
    ]
    # a missing index becomes the position in its delta: two calls, one slot
    assert triples(litellm_adapter.run(MISTRAL_NO_INDEX)) == [
        ("call_2", "weather", '{"city":"Paris"}{"city":"Rome"}')
    ]
    length = litellm_adapter.run(oai(PARALLEL["chunks"][1], chunk(finish="length")))
    assert not length.rejected and length.finish_reason == "length"


def test_litellm_resent_id_and_dropped_calls(litellm_adapter: Any) -> None:
    assert triples(litellm_adapter.run(ID_RESENT)) == [("call_1", "weather", '{"city":"Paris"}')]
    # empty arguments become "{}"; a call without id or without name vanishes
    empty = litellm_adapter.run(oai(chunk(tc(0, "call_1", "weather", "")), END))
    assert triples(empty) == [("call_1", "weather", "{}")]
    no_id = litellm_adapter.run(oai(chunk(tc(0, None, "weather", "{}")), END))
    assert no_id.calls == () and not no_id.rejected
    no_name = litellm_adapter.run(oai(chunk(tc(0, "call_1", None, "{}")), END))
    assert no_name.calls == () and not no_name.rejected


def test_litellm_int_fragment_crashes(litellm_adapter: Any) -> None:
    import pydantic

    with pytest.raises(pydantic.ValidationError) as excinfo:
        litellm_adapter.run(INT_FRAGMENT)
    assert_library_raised(excinfo, "litellm")


# ==============================================================================
# All library adapters
# ==============================================================================

HOSTILE_OPENAI = [PARALLEL, REUSED_INDEX, TRUNCATED_PREFIX, TWICE, DICT_ARGUMENTS, MISTRAL_NO_INDEX]
HOSTILE_ANTHROPIC = [ANT_PARALLEL, ANT_REUSED_INDEX, one_tool('{"city":"Par', stop_reason=None)]


@pytest.mark.parametrize("name", ["openai-python", "anthropic-python", "langchain-core", "litellm"])
def test_adapters_never_mutate_the_fixture(name: str) -> None:
    adapter = get_adapter(name)
    if not adapter.available():
        pytest.skip(f"{adapter.package} is not installed")
    needs_sdk = {"openai": "openai", "mistral": None, "anthropic": "anthropic"}
    for fixture in HOSTILE_OPENAI + HOSTILE_ANTHROPIC:
        if fixture["profile"] not in adapter.profiles:
            continue
        sdk = needs_sdk[fixture["profile"]] if name == "langchain-core" else None
        if sdk is not None and importlib.util.find_spec(sdk) is None:
            continue
        before = json.dumps(fixture, sort_keys=True)
        try:
            adapter.run(fixture)
        except Exception:
            pass  # crashes are pinned above; only mutation matters here
        assert json.dumps(fixture, sort_keys=True) == before, (name, fixture)
    assert adapter.library_version()
