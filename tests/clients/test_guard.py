"""``toolstream.guard`` and ``Gate.feed`` over the objects real SDKs yield,
fed from ``toolstream serve``: openai-python (Chat Completions and
Responses, sync and async), anthropic, google-genai (pydantic models) and
boto3 (event dicts).  The guard passes every event through unchanged and
hands over exactly the calls the reference passes, on every shipped
``openai`` case."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import toolstream
from tests.support.corpus_cases import ROOT
from tests.support.serve_clients import MESSAGES, _chat_tools
from toolstream.serve import Server, running

CORPUS = ROOT / "corpus" / "cases"


def shipped(profile: str) -> list[Path]:
    paths = []
    for path in sorted(CORPUS.glob("*/*.json")):
        if json.loads(path.read_text("utf-8"))["profile"] == profile:
            paths.append(path)
    return paths


def first(profile: str, operators: tuple[str, ...], status: str) -> Path:
    """The first ``status`` case of ``profile`` by the first operator that has one."""
    for operator in operators:
        for path in sorted((CORPUS / operator).glob("*.json")):
            case = json.loads(path.read_text("utf-8"))
            if case["profile"] == profile and case["expect"]["status"] == status:
                return path
    raise AssertionError(f"no {status} case of {operators} for {profile}")


def case_of(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return case


def case_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def handed(guarded: toolstream.Guarded) -> list[tuple[Any, Any, Any]]:
    return [(call.id, call.name, call.arguments) for call in guarded.calls()]


def labelled(case: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    return [(c["id"], c["name"], c["arguments"]) for c in case["expect"].get("calls", [])]


PROFILES = ("openai", "openai-responses", "anthropic", "gemini", "bedrock")
PASSING = {profile: first(profile, ("refragment", "insert_noise"), "pass") for profile in PROFILES}
BLOCKED = {profile: first(profile, ("truncate",), "blocked") for profile in PROFILES}


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running([str(p) for p in [*PASSING.values(), *BLOCKED.values()]]) as started:
        yield started


@pytest.fixture(autouse=True)
def no_aws_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    for name in ("AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"):
        monkeypatch.delenv(name, raising=False)


# -- one streamed request per library: the SDK's own stream object ----------


def openai_chat(server: Server, path: Path) -> Any:
    import openai

    case = case_of(path)
    client = openai.OpenAI(
        base_url=server.url_for(case_id(path)) + "/v1", api_key="sk-test", max_retries=0, timeout=5
    )
    tools = _chat_tools(toolstream_case(case))
    return client.chat.completions.create(
        model="toolstream", messages=MESSAGES, tools=tools, stream=True
    )


def openai_responses(server: Server, path: Path) -> Any:
    import openai

    case = case_of(path)
    client = openai.OpenAI(
        base_url=server.url_for(case_id(path)) + "/v1", api_key="sk-test", max_retries=0, timeout=5
    )
    tools = [
        {"type": "function", "name": name, "parameters": schema, "strict": False}
        for name, schema in case["tool_schemas"].items()
    ]
    return client.responses.create(
        model="toolstream", input="Use the tools.", tools=tools, stream=True
    )


def anthropic_messages(server: Server, path: Path) -> Any:
    import anthropic

    case = case_of(path)
    client = anthropic.Anthropic(
        base_url=server.url_for(case_id(path)), api_key="sk-ant-test", max_retries=0, timeout=5
    )
    tools = [{"name": n, "input_schema": s} for n, s in case["tool_schemas"].items()]
    return client.messages.create(
        model="toolstream", max_tokens=1024, messages=MESSAGES, tools=tools, stream=True
    )


KEPT: list[Any] = []


def google_genai(server: Server, path: Path) -> Any:
    from google import genai
    from google.genai import types

    case = case_of(path)
    client = genai.Client(
        api_key="toolstream-test",
        http_options=types.HttpOptions(
            base_url=server.url_for(case_id(path)),
            timeout=5000,
            retry_options=types.HttpRetryOptions(attempts=1),
        ),
    )
    config = types.GenerateContentConfig(
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        tools=[
            types.Tool(
                function_declarations=[
                    types.FunctionDeclaration(name=n, parameters_json_schema=s)
                    for n, s in case["tool_schemas"].items()
                ]
            )
        ],
    )
    KEPT.append(client)  # genai closes its HTTP client when the Client is collected
    return client.models.generate_content_stream(
        model="toolstream", contents="Use the tools.", config=config
    )


def boto3_converse(server: Server, path: Path) -> Any:
    import boto3
    from botocore.config import Config

    case = case_of(path)
    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=server.url_for(case_id(path)),
        aws_access_key_id="AKIDTOOLSTREAMTEST",
        aws_secret_access_key="toolstream-test-secret",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"}, read_timeout=5),
    )
    tools = [
        {"toolSpec": {"name": n, "inputSchema": {"json": s}}}
        for n, s in case["tool_schemas"].items()
    ]
    response = client.converse_stream(
        modelId="toolstream",
        messages=[{"role": "user", "content": [{"text": "Use the tools."}]}],
        toolConfig={"tools": tools},
    )
    return response["stream"]


def toolstream_case(case: dict[str, Any]) -> Any:
    from tests.support.serve_clients import Served

    return Served("", case["profile"], case["tool_schemas"], [])


STREAMS = {
    "openai": openai_chat,
    "openai-responses": openai_responses,
    "anthropic": anthropic_messages,
    "gemini": google_genai,
    "bedrock": boto3_converse,
}


@pytest.mark.parametrize("profile", PROFILES)
def test_guard_hands_over_the_labelled_calls_of_a_passing_turn(
    server: Server, profile: str
) -> None:
    path = PASSING[profile]
    case = case_of(path)
    guarded = toolstream.guard(
        STREAMS[profile](server, path), profile, case["tool_schemas"], case.get("request")
    )
    with pytest.raises(RuntimeError, match="not been read"):
        guarded.calls()
    seen = list(guarded)
    assert seen, "the application saw no event"
    assert guarded.report.executable
    calls = handed(guarded)
    assert calls == labelled(case)
    assert calls == [(c.id, c.name, c.arguments) for c in toolstream.validate(case).client_calls()]


@pytest.mark.parametrize("profile", PROFILES)
def test_guard_raises_with_the_report_for_a_blocked_turn(server: Server, profile: str) -> None:
    path = BLOCKED[profile]
    case = case_of(path)
    guarded = toolstream.guard(
        STREAMS[profile](server, path), profile, case["tool_schemas"], case.get("request")
    )
    try:
        for _ in guarded:
            pass
    except Exception:
        pass  # an SDK may raise on a cut body itself; the guard still closed the turn
    with pytest.raises(toolstream.ToolCallsBlocked) as raised:
        guarded.calls()
    assert raised.value.report.status is toolstream.Status.BLOCKED
    assert raised.value.report.findings


@pytest.mark.parametrize("profile", PROFILES)
def test_the_gate_reads_sdk_objects_as_their_wire_json(server: Server, profile: str) -> None:
    """Every object the SDK yielded, in its wire form, gives the report the
    reference gives the case file."""
    path = PASSING[profile]
    case = case_of(path)
    gate = toolstream.Gate(profile, case["tool_schemas"], case.get("request"))
    objects = list(STREAMS[profile](server, path))
    if profile != "bedrock":
        assert all(type(item) is not dict for item in objects), "the SDK yields its own objects"
    gate.feed_all(objects)
    assert gate.close().to_json() == toolstream.validate(case).to_json()


def test_openai_chunks_dump_to_the_bytes_the_server_sent(server: Server) -> None:
    """``exclude_unset`` recovers each chunk's JSON exactly (explicit
    ``null`` kept, absent keys absent)."""
    path = PASSING["openai"]
    chunks = [toolstream.wire_form(chunk) for chunk in openai_chat(server, path)]
    assert chunks == case_of(path)["chunks"]


def test_the_guard_reads_an_async_stream(server: Server) -> None:
    import openai

    path = PASSING["openai"]
    case = case_of(path)

    async def run() -> tuple[int, list[tuple[Any, Any, Any]]]:
        client = openai.AsyncOpenAI(
            base_url=server.url_for(case_id(path)) + "/v1",
            api_key="sk-test",
            max_retries=0,
            timeout=5,
        )
        async with client:
            stream = await client.chat.completions.create(
                model="toolstream",
                messages=MESSAGES,
                tools=_chat_tools(toolstream_case(case)),
                stream=True,
            )
            guarded = toolstream.guard(stream, "openai", case["tool_schemas"], case.get("request"))
            seen = [chunk async for chunk in guarded]
            return len(seen), handed(guarded)

    count, calls = asyncio.run(run())
    assert count == len(case["chunks"])
    assert calls == labelled(case)


def test_events_pass_through_unchanged() -> None:
    events = [{"a": 1}, object(), "text"]
    guarded = toolstream.guard(iter(events), "openai", {})
    assert [id(e) for e in guarded] == [id(e) for e in events]
    with pytest.raises(toolstream.ToolCallsBlocked):
        guarded.calls()  # an object the profile cannot read blocks the turn


def test_wire_form_of_dataclasses_and_mappings() -> None:
    from types import MappingProxyType

    @dataclasses.dataclass
    class Delta:
        index: int
        arguments: str

    assert toolstream.wire_form(Delta(0, "{}")) == {"index": 0, "arguments": "{}"}
    nested = MappingProxyType({"choices": (MappingProxyType({"index": 0}),)})
    assert toolstream.wire_form(nested) == {"choices": [{"index": 0}]}
    item = {"already": "json"}
    assert toolstream.wire_form(item) is item


SDK_REWRITES = {"bad_index"}
"""Operators whose mutant openai-python itself rewrites while parsing (a
boolean ``index`` becomes the integer 1): the application, and so the
guard, never sees the wire's value."""


def test_the_guard_hands_over_the_reference_calls_on_every_openai_case() -> None:
    """Every shipped ``openai`` case through openai-python: the guard hands
    over exactly the calls the reference passes, and none where it blocks,
    on every case whose chunks the SDK objects still hold as sent."""
    import openai

    paths = shipped("openai")
    disagreements: list[str] = []
    rewritten: set[str] = set()
    with running([str(p) for p in paths]) as started:
        client = openai.OpenAI(
            base_url=started.url + "/v1", api_key="sk-test", max_retries=0, timeout=5
        )
        with client:
            for path in paths:
                case = case_of(path)
                reference = toolstream.validate(case)
                expected: list[tuple[Any, Any, Any]] | None = None
                if reference.executable:
                    expected = [(c.id, c.name, c.arguments) for c in reference.client_calls()]
                elif reference.status is toolstream.Status.NOT_APPLICABLE:
                    expected = []
                got: list[tuple[Any, Any, Any]] | None
                seen: list[Any] = []
                try:
                    stream = client.chat.completions.create(
                        model=f"case:{case_id(path)}",
                        messages=MESSAGES,
                        tools=_chat_tools(toolstream_case(case)),
                        stream=True,
                    )
                    guarded = toolstream.guard(
                        stream, "openai", case["tool_schemas"], case.get("request")
                    )
                    with stream:
                        seen.extend(toolstream.wire_form(chunk) for chunk in guarded)
                    got = handed(guarded)
                except (toolstream.ToolCallsBlocked, openai.OpenAIError, ValueError):
                    got = None
                if got == expected:
                    continue
                sent = json.loads(path.read_text("utf-8"))["chunks"]
                # as JSON text: ``True == 1`` in Python, not on the wire
                if seen and json.dumps(seen, sort_keys=True) != json.dumps(sent, sort_keys=True):
                    rewritten.add(path.parent.name)
                    continue
                disagreements.append(f"{case_id(path)}: reference {expected}, guard {got}")
    assert not disagreements, "\n".join(disagreements[:10])
    assert rewritten == SDK_REWRITES
    assert len(paths) > 100


# -- the README's examples, as written there ----------------------------------

README = ROOT / "README.md"


def readme_example(name: str) -> str:
    """The fenced block right after ``<!-- example: NAME -->`` in the README."""
    match = re.search(
        rf"<!-- example: {re.escape(name)} -->\n```python\n(.*?)\n```",
        README.read_text("utf-8"),
        re.S,
    )
    assert match, f"the README has no example {name}"
    return match[1] + "\n"


def sdk_client(profile: str, base_url: str) -> Any:
    if profile == "openai":
        import openai

        return openai.OpenAI(base_url=base_url + "/v1", api_key="sk-test", max_retries=0, timeout=5)
    import anthropic

    return anthropic.Anthropic(base_url=base_url, api_key="sk-ant-test", max_retries=0, timeout=5)


def request_tools(profile: str, case: dict[str, Any]) -> list[dict[str, Any]]:
    if profile == "openai":
        return _chat_tools(toolstream_case(case))
    return [{"name": n, "input_schema": s} for n, s in case["tool_schemas"].items()]


OUT_OF_SIGHT = {"openai": SDK_REWRITES, "anthropic": {"bad_index", "foreign_item"}}
"""Per profile, the operators whose mutant the SDK's own iterator changes
before the application sees it, where that changes the verdict:
both SDKs turn a boolean ``index`` into 1; the Anthropic SDK drops an event
of a type it does not know (and ``ping``) without a word."""


def sdk_changed_the_stream(profile: str, base_url: str, case: dict[str, Any]) -> bool:
    """Whether the SDK's stream, in its wire form, is not what was sent."""
    client = sdk_client(profile, base_url)
    try:
        if profile == "openai":
            stream = client.chat.completions.create(
                model="gpt-4.1", messages=MESSAGES, tools=request_tools(profile, case), stream=True
            )
        else:
            stream = client.messages.create(
                model="claude-sonnet-5",
                max_tokens=1024,
                messages=MESSAGES,
                tools=request_tools(profile, case),
                stream=True,
            )
        seen = [toolstream.wire_form(item) for item in stream]
    except Exception:
        return False
    finally:
        client.close()
    sent = case["chunks" if profile == "openai" else "events"]
    return json.dumps(seen, sort_keys=True) != json.dumps(sent, sort_keys=True)


@pytest.mark.parametrize("profile", ["openai", "anthropic"])
def test_the_readme_guard_example_runs_exactly_the_reference_calls(profile: str) -> None:
    """The example, run on every third shipped case of its profile (each
    operator in it), runs a tool exactly when the reference passes, with the
    reference's calls; a blocked turn reaches ``refuse``, and an SDK that
    raises on a broken stream runs nothing."""
    code = compile(readme_example(f"guard-{profile}"), f"README guard-{profile}", "exec")
    paths = shipped(profile)[::3]
    wrong: list[str] = []
    out_of_sight: set[str] = set()
    refused = 0
    with running([str(p) for p in paths]) as started:
        for path in paths:
            case = case_of(path)
            reference = toolstream.validate(case)
            expected = (
                [(c.id, c.name, c.input) for c in reference.client_calls()]
                if reference.executable
                else []
            )
            ran: list[tuple[Any, Any, Any]] = []
            refusals: list[Any] = []
            client = sdk_client(profile, started.url_for(case_id(path)))
            namespace = {
                "toolstream": toolstream,
                "client": client,
                "messages": MESSAGES,
                "tools": request_tools(profile, case),
                "tool_schemas": case["tool_schemas"],
                "request": case.get("request"),
                "show": lambda text: None,
                "refuse": refusals.append,
                "run_tool": lambda *call, ran=ran: ran.append(call),
            }
            try:
                exec(code, namespace)
            except Exception as error:
                assert not ran, f"{case_id(path)}: a tool ran before the SDK raised"
                raised = f" ({type(error).__name__}: {error})"
            else:
                raised = ""
            finally:
                client.close()
            refused += bool(refusals)
            if ran == expected:
                continue
            if sdk_changed_the_stream(profile, started.url_for(case_id(path)), case):
                out_of_sight.add(path.parent.name)
                continue
            wrong.append(f"{case_id(path)}: reference {expected}, example ran {ran}{raised}")
    assert not wrong, "\n".join(wrong[:10])
    assert out_of_sight == OUT_OF_SIGHT[profile]
    assert refused > len(paths) // 2  # most mutants are blocked: refuse saw them
