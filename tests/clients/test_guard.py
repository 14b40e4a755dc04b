"""``toolstream.guard`` and ``Gate.feed`` over the objects real SDKs yield,
fed from ``toolstream serve``: openai-python (Chat Completions and
Responses, sync and async), anthropic, google-genai (pydantic models) and
boto3 (event dicts).  The guard passes every event through unchanged and
hands over exactly the calls the reference passes: fed the SDK's objects,
but for what the SDK rewrites out of sight (``OUT_OF_SIGHT``); fed the
bytes a ``toolstream.WireTap`` recorded under the SDK, on every case."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
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


@pytest.fixture(scope="module")
def clients(server: Server) -> Iterator[dict[str, Any]]:
    with sdk_clients(server) as made:
        yield made


@pytest.fixture(autouse=True)
def no_aws_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    for name in ("AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"):
        monkeypatch.delenv(name, raising=False)


# -- one streamed request per library: the SDK's own stream object ----------
#
# One client per library and server (making one costs more than a case); the
# case is the request's model, ``case:<operator>/<hash>`` (percent-encoded where
# the model is a path segment and the SDK does not encode it: google-genai).


def model_of(path: Path, *, in_path: bool = False) -> str:
    model = f"case:{case_id(path)}"
    return urllib.parse.quote(model, safe="") if in_path else model


def http_client(tap: Any) -> dict[str, Any]:
    """The SDK's ``http_client`` argument: the tap's, when there is a tap."""
    return {} if tap is None else {"http_client": tap.httpx_client(timeout=5)}


def openai_client(base_url: str, tap: Any = None) -> Any:
    import openai

    return openai.OpenAI(
        base_url=base_url + "/v1", api_key="sk-test", max_retries=0, timeout=5, **http_client(tap)
    )


def anthropic_client(base_url: str, tap: Any = None) -> Any:
    import anthropic

    return anthropic.Anthropic(
        base_url=base_url, api_key="sk-ant-test", max_retries=0, timeout=5, **http_client(tap)
    )


def genai_client(base_url: str, tap: Any = None) -> Any:
    from google import genai
    from google.genai import types

    tapped = {} if tap is None else {"httpx_client": tap.httpx_client(timeout=5)}
    return genai.Client(
        api_key="toolstream-test",
        http_options=types.HttpOptions(
            base_url=base_url,
            timeout=5000,
            retry_options=types.HttpRetryOptions(attempts=1),
            **tapped,
        ),
    )


def boto3_client(base_url: str, tap: Any = None) -> Any:
    import boto3
    from botocore.config import Config

    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=base_url,
        aws_access_key_id="AKIDTOOLSTREAMTEST",
        aws_secret_access_key="toolstream-test-secret",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"}, read_timeout=5),
    )
    return client if tap is None else tap.attach(client)


CLIENTS = {
    "openai": openai_client,
    "openai-responses": openai_client,
    "anthropic": anthropic_client,
    "gemini": genai_client,
    "bedrock": boto3_client,
}


def close_client(client: Any) -> None:
    close = getattr(client, "close", None)
    if callable(close):
        close()


@contextlib.contextmanager
def sdk_clients(server: Server, tap: Any = None) -> Iterator[dict[str, Any]]:
    """Each library's client for ``server`` (its HTTP under ``tap`` when
    given), made on first use, closed at the end."""
    made: dict[str, Any] = {}

    class Lazy(dict[str, Any]):
        def __missing__(self, profile: str) -> Any:
            made[profile] = self[profile] = CLIENTS[profile](server.url, tap)
            return made[profile]

    try:
        yield Lazy()
    finally:
        for client in made.values():
            close_client(client)


def openai_chat(client: Any, path: Path) -> Any:
    case = case_of(path)
    return client.chat.completions.create(
        model=model_of(path),
        messages=MESSAGES,
        tools=_chat_tools(toolstream_case(case)),
        stream=True,
    )


def openai_responses(client: Any, path: Path) -> Any:
    tools: Any = [
        {"type": "function", "name": name, "parameters": schema, "strict": False}
        for name, schema in case_of(path)["tool_schemas"].items()
    ]
    return client.responses.create(
        model=model_of(path), input="Use the tools.", tools=tools, stream=True
    )


def anthropic_messages(client: Any, path: Path) -> Any:
    tools = [{"name": n, "input_schema": s} for n, s in case_of(path)["tool_schemas"].items()]
    return client.messages.create(
        model=model_of(path), max_tokens=1024, messages=MESSAGES, tools=tools, stream=True
    )


def google_genai(client: Any, path: Path) -> Any:
    from google.genai import types

    config = types.GenerateContentConfig(
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        tools=[
            types.Tool(
                function_declarations=[
                    types.FunctionDeclaration(name=n, parameters_json_schema=s)
                    for n, s in case_of(path)["tool_schemas"].items()
                ]
            )
        ],
    )
    return client.models.generate_content_stream(
        model=model_of(path, in_path=True), contents="Use the tools.", config=config
    )


def boto3_converse(client: Any, path: Path) -> Any:
    tools = [
        {"toolSpec": {"name": n, "inputSchema": {"json": s}}}
        for n, s in case_of(path)["tool_schemas"].items()
    ]
    response = client.converse_stream(
        modelId=model_of(path),  # botocore percent-encodes it
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
    clients: dict[str, Any], profile: str
) -> None:
    path = PASSING[profile]
    case = case_of(path)
    guarded = toolstream.guard(
        STREAMS[profile](clients[profile], path), profile, case["tool_schemas"], case.get("request")
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
def test_guard_raises_with_the_report_for_a_blocked_turn(
    clients: dict[str, Any], profile: str
) -> None:
    path = BLOCKED[profile]
    case = case_of(path)
    guarded = toolstream.guard(
        STREAMS[profile](clients[profile], path), profile, case["tool_schemas"], case.get("request")
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
def test_the_gate_reads_sdk_objects_as_their_wire_json(
    clients: dict[str, Any], profile: str
) -> None:
    """Every object the SDK yielded, in its wire form, gives the report the
    reference gives the case file."""
    path = PASSING[profile]
    case = case_of(path)
    gate = toolstream.Gate(profile, case["tool_schemas"], case.get("request"))
    objects = list(STREAMS[profile](clients[profile], path))
    if profile != "bedrock":
        assert all(type(item) is not dict for item in objects), "the SDK yields its own objects"
    gate.feed_all(objects)
    assert gate.close().to_json() == toolstream.validate(case).to_json()


def test_openai_chunks_dump_to_the_bytes_the_server_sent(clients: dict[str, Any]) -> None:
    """``exclude_unset`` recovers each chunk's JSON exactly (explicit
    ``null`` kept, absent keys absent)."""
    path = PASSING["openai"]
    chunks = [toolstream.wire_form(chunk) for chunk in openai_chat(clients["openai"], path)]
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


OUT_OF_SIGHT = {
    "openai": {"bad_index"},
    "openai-responses": {"bad_index"},
    "anthropic": {"bad_index", "foreign_item"},
    "gemini": {"foreign_item"},
    "bedrock": {"foreign_item"},
}
"""Per profile, the operators whose mutant the SDK's own parsing changes
before the application (and so the guard) sees it, where that changes the
verdict: openai-python (Chat Completions and Responses) and anthropic turn a
boolean ``index`` into 1 (the Responses SDK a numeric string into its
number); the
Anthropic SDK and boto3 drop an event of a type they do not know;
google-genai reads a foreign chunk as an empty response (``{}``)."""


SDK_REFUSES: dict[str, set[str]] = {
    "openai": set(),
    "openai-responses": set(),
    "anthropic": set(),
    "gemini": set(),
    "bedrock": {"insert_noise", "interleave", "reencode"},
}
"""Per profile, the operators with a case the reference passes on which the
SDK itself raises (so the application runs nothing): boto3 raises
``ResponseParserError`` ("ContentBlockStart must have one and only one member
set") on some cases of these operators."""


def stratified(profile: str) -> list[Path]:
    """One shipped case per operator of ``profile`` (the first by name)."""
    out = []
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.json")):
            if case_of(path)["profile"] == profile:
                out.append(path)
                break
    return out


def wire_stream(case: dict[str, Any]) -> Any:
    return case["chunks"] if "chunks" in case else case["events"]


def reference_calls(case: dict[str, Any]) -> list[tuple[Any, Any, Any]] | None:
    """What the reference lets run: its calls, ``[]`` without tool
    activity, ``None`` where it blocks."""
    report = toolstream.validate(case)
    if report.executable:
        return [(c.id, c.name, c.arguments) for c in report.client_calls()]
    return [] if report.status is toolstream.Status.NOT_APPLICABLE else None


def as_seen(case: dict[str, Any], seen: list[Any]) -> dict[str, Any]:
    """The case with the stream the application saw (the SDK's objects in
    their wire form) in place of the one sent."""
    return {**case, ("chunks" if "chunks" in case else "events"): seen}


@dataclasses.dataclass
class Sweep:
    cases: int = 0
    agreed: int = 0
    out_of_sight: set[str] = dataclasses.field(default_factory=set)
    sdk_refuses: set[str] = dataclasses.field(default_factory=set)
    disagreements: list[str] = dataclasses.field(default_factory=list)


def sweep(profile: str, paths: list[Path], *, fed: str = "objects") -> Sweep:
    """Every case through the profile's SDK and ``toolstream.guard``: the
    calls handed over (``None``: blocked) against the reference's on the
    case.  When the SDK raises, nothing runs: that agrees with a reference
    that runs nothing, and is the SDK refusing a turn the reference passes
    otherwise (``SDK_REFUSES``).  Fed the SDK's objects (``fed="objects"``),
    where the calls differ the guard must still give the reference's
    verdict on the stream the SDK let the application see; the operator is
    then one the SDK hides (``OUT_OF_SIGHT``).  Fed the wire (``"wire"``: a
    ``WireTap`` under the SDK's client), nothing is out of sight: every
    difference is a disagreement."""
    result = Sweep()
    tap = toolstream.WireTap() if fed == "wire" else None
    with (
        running([str(p) for p in paths]) as started,
        sdk_clients(started, tap) as clients,
    ):
        for path in paths:
            case = case_of(path)
            expected = reference_calls(case)
            seen: list[Any] = []
            got: list[tuple[Any, Any, Any]] | None = None
            raised = ""
            try:
                guarded = toolstream.guard(
                    STREAMS[profile](clients[profile], path), profile, case["tool_schemas"],
                    case.get("request"), tap=tap,
                )  # fmt: skip
                seen.extend(toolstream.wire_form(item) for item in guarded)
                got = handed(guarded)
            except toolstream.ToolCallsBlocked:
                pass
            except Exception as error:  # the SDK raised on the stream: nothing runs
                raised = f" (the SDK raised {type(error).__name__})"
                # a connection left mid-body must not answer the next case
                close_client(clients.pop(profile))
            result.cases += 1
            if got == expected or (raised and not expected):
                result.agreed += 1
            elif raised:
                result.sdk_refuses.add(path.parent.name)
            elif tap is None and got == reference_calls(as_seen(case, seen)):
                result.out_of_sight.add(path.parent.name)
            else:
                result.disagreements.append(
                    f"{case_id(path)}: reference {expected}, guard {got}{raised}"
                )
    return result


def hidden(fed: str, profile: str) -> set[str]:
    """What may be out of the guard's sight: nothing under the tap."""
    return OUT_OF_SIGHT[profile] if fed == "objects" else set()


@pytest.mark.parametrize("fed", ["objects", "wire"])
@pytest.mark.parametrize("profile", PROFILES)
def test_the_guard_hands_over_the_reference_calls_on_one_case_per_operator(
    profile: str, fed: str
) -> None:
    """A stratified sample (one shipped case per operator of the profile)
    through its SDK: the guard hands over exactly the calls the reference
    passes, and none where it blocks; under the tap, also where the SDK
    rewrites the stream (the full sweep: ``make guard-sweep``)."""
    paths = stratified(profile)
    result = sweep(profile, paths, fed=fed)
    assert not result.disagreements, "\n".join(result.disagreements[:10])
    assert result.out_of_sight <= hidden(fed, profile)
    assert result.sdk_refuses <= SDK_REFUSES[profile]
    assert result.cases == len(paths) >= 20
    assert result.agreed >= result.cases - len(hidden(fed, profile) | SDK_REFUSES[profile])


@pytest.mark.slow
@pytest.mark.parametrize("fed", ["objects", "wire"])
@pytest.mark.parametrize("profile", PROFILES)
def test_the_guard_hands_over_the_reference_calls_on_every_case(profile: str, fed: str) -> None:
    """Every shipped case of the profile (docs/performance.md records the run)."""
    paths = shipped(profile)
    result = sweep(profile, paths, fed=fed)
    assert not result.disagreements, "\n".join(result.disagreements[:10])
    assert result.out_of_sight == hidden(fed, profile)
    assert result.sdk_refuses == SDK_REFUSES[profile]
    assert result.cases == len(paths) > 100


# -- the wire tap: what the SDK rewrote is in the tap's sight -----------------


def odd_index(item: Any) -> bool:
    """Whether a stream item holds an ``index`` (``output_index``...) that is
    a boolean or a string."""
    if isinstance(item, dict):
        return any(
            (key.endswith("index") and isinstance(value, (bool, str))) or odd_index(value)
            for key, value in item.items()
        )
    return isinstance(item, list) and any(odd_index(inner) for inner in item)


def rewritten(operator: str, sent: list[Any], seen: list[Any]) -> bool:
    """Whether the SDK let the application see the rewrite ``operator``'s
    mutant is pinned for: a boolean (or, in the Responses SDK, numeric
    string) index read as an integer, an event dropped, a foreign chunk
    read as ``{}``."""
    if operator == "bad_index":
        return any(map(odd_index, sent)) and not any(map(odd_index, seen))
    return len(seen) < len(sent) or (len(seen) == len(sent) and {} in seen and {} not in sent)


REWRITES = [
    (profile, operator)
    for profile, operators in OUT_OF_SIGHT.items()
    for operator in sorted(operators)
]


@pytest.mark.parametrize(("profile", "operator"), REWRITES)
def test_the_tap_blocks_what_the_sdk_rewrote(profile: str, operator: str) -> None:
    """The first shipped case of the operator where the SDK's rewrite makes
    the object-fed guard hand over calls the reference blocks: the tapped
    guard blocks it, with the reference's own codes."""
    paths = [
        path
        for path in sorted((CORPUS / operator).glob("*.json"))
        if case_of(path)["profile"] == profile and reference_calls(case_of(path)) is None
    ]
    tap = toolstream.WireTap()
    with (
        running([str(p) for p in paths]) as started,
        sdk_clients(started) as plain,
        sdk_clients(started, tap) as tapped,
    ):
        for path in paths:
            case = case_of(path)
            schemas, request = case["tool_schemas"], case.get("request")
            by_objects = toolstream.guard(
                STREAMS[profile](plain[profile], path), profile, schemas, request
            )
            seen = [toolstream.wire_form(item) for item in by_objects]
            if by_objects.report.executable and rewritten(operator, wire_stream(case), seen):
                break
        else:
            pytest.fail(f"no {operator} case of {profile} that the SDK's rewrite lets through")
        assert handed(by_objects)  # the fail-open the tap closes
        by_wire = toolstream.guard(
            STREAMS[profile](tapped[profile], path), profile, schemas, request, tap=tap
        )
        assert [toolstream.wire_form(item) for item in by_wire] == seen  # the app's view unchanged
        with pytest.raises(toolstream.ToolCallsBlocked) as blocked:
            by_wire.calls()
    assert blocked.value.report.to_json() == toolstream.validate(case).to_json(), case_id(path)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_tap_the_client_does_not_go_through_blocks_the_turn(
    clients: dict[str, Any], profile: str
) -> None:
    """A passing turn, guarded with a tap the SDK's client was not built
    with: the tap saw no body, so nothing runs (fail closed)."""
    path = PASSING[profile]
    case = case_of(path)
    tap = toolstream.WireTap()
    guarded = toolstream.guard(
        STREAMS[profile](clients[profile], path), profile, case["tool_schemas"],
        case.get("request"), tap=tap,
    )  # fmt: skip
    assert list(guarded)
    with pytest.raises(toolstream.ToolCallsBlocked) as blocked:
        guarded.calls()
    (finding,) = blocked.value.report.findings
    assert finding.code is toolstream.Code.INVALID_ENVELOPE
    assert finding.message.startswith("wire tap: the tap recorded no")


@pytest.mark.parametrize("profile", PROFILES)
def test_a_tapped_guard_passes_the_sdk_objects_and_the_labelled_calls(
    server: Server, clients: dict[str, Any], profile: str
) -> None:
    """Under the tap the application sees the same objects as without it,
    and the guard hands over the labelled calls."""
    path = PASSING[profile]
    case = case_of(path)
    tap = toolstream.WireTap()
    with sdk_clients(server, tap) as tapped:
        guarded = toolstream.guard(
            STREAMS[profile](tapped[profile], path), profile, case["tool_schemas"],
            case.get("request"), tap=tap,
        )  # fmt: skip
        seen = [toolstream.wire_form(item) for item in guarded]
    assert seen == [toolstream.wire_form(item) for item in STREAMS[profile](clients[profile], path)]
    assert handed(guarded) == labelled(case)


def test_a_tapped_guard_reads_an_async_stream_and_httpx(server: Server) -> None:
    """openai-python's AsyncOpenAI over ``tap.async_httpx_client()``; and
    google-genai over a plain httpx client (``tap.httpx_client(httpx.Client)``)."""
    import httpx
    import openai

    path = PASSING["openai"]
    case = case_of(path)
    tap = toolstream.WireTap()

    async def run() -> list[tuple[Any, Any, Any]]:
        client = openai.AsyncOpenAI(
            base_url=server.url + "/v1",
            api_key="sk-test",
            max_retries=0,
            http_client=tap.async_httpx_client(timeout=5),
        )
        async with client:
            stream = await client.chat.completions.create(
                model=model_of(path),
                messages=MESSAGES,
                tools=_chat_tools(toolstream_case(case)),
                stream=True,
            )
            guarded = toolstream.guard(
                stream, "openai", case["tool_schemas"], case.get("request"), tap=tap
            )
            assert [chunk async for chunk in guarded]
            return handed(guarded)

    assert asyncio.run(run()) == labelled(case)

    from google import genai
    from google.genai import types

    gemini = PASSING["gemini"]
    tapped = genai.Client(
        api_key="toolstream-test",
        http_options=types.HttpOptions(
            base_url=server.url,
            retry_options=types.HttpRetryOptions(attempts=1),
            httpx_client=tap.httpx_client(httpx.Client, timeout=5),
        ),
    )
    guarded = toolstream.guard(
        google_genai(tapped, gemini), "gemini", case_of(gemini)["tool_schemas"], tap=tap
    )
    assert list(guarded)
    assert handed(guarded) == labelled(case_of(gemini))
    tapped.close()


def test_a_body_cut_off_under_the_tap_blocks_the_turn(server: Server) -> None:
    """A passing case served cut off mid-record (``cut-close``): whatever
    the SDK makes of it, the tap saw the body break off."""
    import openai

    path = PASSING["openai"]
    case = case_of(path)
    tap = toolstream.WireTap()
    client = openai.OpenAI(
        base_url=server.url_for(case_id(path), "cut-close:1") + "/v1",
        api_key="sk-test",
        max_retries=0,
        http_client=tap.httpx_client(timeout=5),
    )
    with client:
        stream = openai_chat(client, path)
        guarded = toolstream.guard(
            stream, "openai", case["tool_schemas"], case.get("request"), tap=tap
        )
        with contextlib.suppress(openai.APIError):
            for _ in guarded:
                pass
    with pytest.raises(toolstream.ToolCallsBlocked) as blocked:
        guarded.calls()
    (finding,) = blocked.value.report.findings
    assert finding.message.startswith("wire tap: the response body"), finding.message


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


def request_tools(profile: str, case: dict[str, Any]) -> list[dict[str, Any]]:
    if profile == "openai":
        tools: list[dict[str, Any]] = _chat_tools(toolstream_case(case))
        return tools
    return [{"name": n, "input_schema": s} for n, s in case["tool_schemas"].items()]


def runnable(case: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    """The calls a tool runner gets from the reference: (id, name, input)."""
    report = toolstream.validate(case)
    return [(c.id, c.name, c.input) for c in report.client_calls()] if report.executable else []


def sdk_module(profile: str, base_url: str, case: str, made: list[Any]) -> Any:
    """The SDK's module as the example names it, its client class with this
    server's address, a test key and the case's X-Toolstream-Case header
    preset (the example names its own model); each client made is kept in
    ``made`` to be closed."""
    import anthropic
    import openai

    def preset(cls: Any, **fixed: Any) -> Any:
        def make(**options: Any) -> Any:
            client = cls(**fixed, **options)
            made.append(client)
            return client

        return make

    headers = {"X-Toolstream-Case": case}
    common = {"max_retries": 0, "timeout": 5, "default_headers": headers}
    if profile == "openai":
        made_openai = preset(openai.OpenAI, base_url=base_url + "/v1", api_key="sk-test", **common)
        return SimpleNamespace(OpenAI=made_openai)
    return SimpleNamespace(
        Anthropic=preset(anthropic.Anthropic, base_url=base_url, api_key="sk-ant-test", **common)
    )


def readme_example_run(profile: str, paths: list[Path]) -> None:
    """The example, run as written on each case, runs a tool exactly when
    the reference passes, with the reference's calls (its tap sees what the
    SDK rewrites); a blocked turn reaches ``refuse``, and an SDK that raises
    on a broken stream runs nothing."""
    code = compile(readme_example(f"guard-{profile}"), f"README guard-{profile}", "exec")
    wrong: list[str] = []
    refused = 0
    with running([str(p) for p in paths]) as started:
        for path in paths:
            case = case_of(path)
            expected = runnable(case)
            ran: list[tuple[Any, Any, Any]] = []
            refusals: list[Any] = []
            made: list[Any] = []
            namespace = {
                "toolstream": toolstream,
                profile: sdk_module(profile, started.url, case_id(path), made),
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
                for client in made:
                    close_client(client)
            assert len(made) == 1, "the example builds its one client"
            refused += bool(refusals)
            if ran != expected:
                wrong.append(f"{case_id(path)}: reference {expected}, example ran {ran}{raised}")
    assert not wrong, "\n".join(wrong[:10])
    assert refused > len(paths) // 2  # most mutants are blocked: refuse saw them


@pytest.mark.parametrize("profile", ["openai", "anthropic"])
def test_the_readme_guard_example_on_one_case_per_operator(profile: str) -> None:
    readme_example_run(profile, stratified(profile))


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["openai", "anthropic"])
def test_the_readme_guard_example_on_every_case(profile: str) -> None:
    readme_example_run(profile, shipped(profile))
