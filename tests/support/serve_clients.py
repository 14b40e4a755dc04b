"""Real clients pointed at ``toolstream serve``, for the serve tests and the
benchmark: each takes a base URL and a case, makes one streamed request with
retries off and a timeout set, and returns the calls it would hand over.

(No tests here.)  Each client reads the calls as an application would from
that library's own result: the ``stream()`` helpers' final objects; for
``chat.completions.create(stream=True)`` and boto3 ``converse_stream``,
which have no accumulator, the usual loop joining fragments by index.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolstream.caseio import load_case

Call = tuple[Any, Any, Any]
"""(id, name, arguments text) -- or, for Anthropic, the parsed ``input``."""


@dataclass(frozen=True)
class Served:
    """A case to request: its id, profile, tool schemas and labelled calls."""

    id: str
    profile: str
    tool_schemas: Mapping[str, Any]
    calls: list[dict[str, Any]]


def served(path: str) -> Served:
    case = load_case(path).case
    ident = "/".join(path.rsplit("/", 2)[-2:]).removesuffix(".json")
    return Served(ident, case["profile"], case["tool_schemas"], case["expect"].get("calls", []))


MESSAGES: Any = [{"role": "user", "content": "Use the tools."}]
"""(Any: each SDK types its messages with its own TypedDicts.)"""


def _chat_tools(case: Served) -> Any:
    # (Any: each SDK types its tools with its own TypedDicts.)
    return [
        {"type": "function", "function": {"name": name, "parameters": schema}}
        for name, schema in case.tool_schemas.items()
    ]


def _openai(base_url: str, timeout: float) -> Any:
    import openai

    return openai.OpenAI(
        base_url=base_url + "/v1",
        api_key="sk-toolstream-test",
        max_retries=0,
        timeout=timeout,
    )


def openai_create(base_url: str, case: Served, timeout: float) -> list[Call]:
    """``client.chat.completions.create(stream=True)`` and the usual loop."""
    with _openai(base_url, timeout) as client:
        stream = client.chat.completions.create(
            model=f"case:{case.id}", messages=MESSAGES, tools=_chat_tools(case), stream=True
        )
        slots: dict[int, dict[str, Any]] = {}
        with stream:
            for chunk in stream:
                for choice in chunk.choices:
                    for delta in choice.delta.tool_calls or []:
                        slot = slots.setdefault(delta.index, {"id": None, "name": None, "args": ""})
                        if delta.id:
                            slot["id"] = delta.id
                        if delta.function is not None:
                            if delta.function.name:
                                slot["name"] = delta.function.name
                            slot["args"] += delta.function.arguments or ""
    return [(s["id"], s["name"], s["args"]) for _, s in sorted(slots.items())]


def openai_chat_stream(base_url: str, case: Served, timeout: float) -> list[Call]:
    """``client.chat.completions.stream()`` and ``get_final_completion()``."""
    with (
        _openai(base_url, timeout) as client,
        client.chat.completions.stream(
            model=f"case:{case.id}", messages=MESSAGES, tools=_chat_tools(case)
        ) as stream,
    ):
        for _ in stream:
            pass
        completion = stream.get_final_completion()
    calls = completion.choices[0].message.tool_calls or [] if completion.choices else []
    return [(c.id, c.function.name, c.function.arguments) for c in calls]


def openai_responses_stream(base_url: str, case: Served, timeout: float) -> list[Call]:
    """``client.responses.stream()`` and ``get_final_response()``."""
    tools = [
        {"type": "function", "name": name, "parameters": schema, "strict": False}
        for name, schema in case.tool_schemas.items()
    ]
    with (
        _openai(base_url, timeout) as client,
        client.responses.stream(
            model=f"case:{case.id}", input="Use the tools.", tools=tools
        ) as stream,
    ):
        for _ in stream:
            pass
        response = stream.get_final_response()
    return [
        (item.call_id, item.name, item.arguments)
        for item in response.output
        if item.type == "function_call"
    ]


def anthropic_stream(base_url: str, case: Served, timeout: float) -> list[Call]:
    """``client.messages.stream()`` and ``get_final_message()``: the calls'
    ``input`` is parsed by the SDK (compared as JSON values)."""
    import anthropic

    tools: Any = [
        {"name": name, "input_schema": schema} for name, schema in case.tool_schemas.items()
    ]
    with (
        anthropic.Anthropic(
            base_url=base_url,
            api_key="sk-ant-toolstream-test",
            max_retries=0,
            timeout=timeout,
        ) as client,
        client.messages.stream(
            model=f"case:{case.id}", max_tokens=1024, messages=MESSAGES, tools=tools
        ) as stream,
    ):
        for _ in stream:
            pass
        message = stream.get_final_message()
    return [(b.id, b.name, b.input) for b in message.content if b.type == "tool_use"]


def boto3_converse_stream(base_url: str, case: Served, timeout: float) -> list[Call]:
    """boto3 ``bedrock-runtime`` ``converse_stream`` with dummy credentials,
    and the usual loop over its events."""
    import boto3
    from botocore.config import Config

    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=base_url,
        aws_access_key_id="AKIDTOOLSTREAMTEST",
        aws_secret_access_key="toolstream-test-secret",
        config=Config(
            retries={"total_max_attempts": 1, "mode": "standard"},
            connect_timeout=timeout,
            read_timeout=timeout,
        ),
    )
    tools = [
        {"toolSpec": {"name": name, "inputSchema": {"json": schema}}}
        for name, schema in case.tool_schemas.items()
    ]
    try:
        response = client.converse_stream(
            modelId=f"case:{case.id}",
            messages=[{"role": "user", "content": [{"text": "Use the tools."}]}],
            toolConfig={"tools": tools},
        )
        slots: dict[int, dict[str, Any]] = {}
        for event in response["stream"]:
            if "contentBlockStart" in event:
                start = event["contentBlockStart"]
                use = start.get("start", {}).get("toolUse")
                if use is not None:
                    slots[start["contentBlockIndex"]] = {
                        "id": use.get("toolUseId"),
                        "name": use.get("name"),
                        "args": "",
                    }
            elif "contentBlockDelta" in event:
                delta = event["contentBlockDelta"]
                use = delta.get("delta", {}).get("toolUse")
                if use is not None and delta["contentBlockIndex"] in slots:
                    slots[delta["contentBlockIndex"]]["args"] += use.get("input", "")
    finally:
        client.close()
    return [(s["id"], s["name"], s["args"]) for _, s in sorted(slots.items())]


CLIENTS: dict[str, tuple[str, Callable[[str, Served, float], list[Call]]]] = {
    "openai create": ("openai", openai_create),
    "openai chat.stream": ("openai", openai_chat_stream),
    "openai responses.stream": ("openai-responses", openai_responses_stream),
    "anthropic messages.stream": ("anthropic", anthropic_stream),
    "boto3 converse_stream": ("bedrock", boto3_converse_stream),
}
"""Client name -> (the profile of the cases it is given, the client)."""


def expected(case: Served, client: str) -> list[Call]:
    """The labelled calls as ``client`` would hand them over."""
    if client.startswith("anthropic"):
        return [(c["id"], c["name"], json.loads(c["arguments"])) for c in case.calls]
    return [(c["id"], c["name"], c["arguments"]) for c in case.calls]


def outcome(client: str, base_url: str, case: Served, timeout: float) -> str:
    """``ok`` (exactly the labelled calls), ``partial`` (calls handed over,
    not the labelled ones), ``none`` (no call, no error), or
    ``error:<exception type>``."""
    _, run = CLIENTS[client]
    try:
        got = run(base_url, case, timeout)
    except Exception as error:
        return f"error:{type(error).__name__}"
    if got == expected(case, client):
        return "ok"
    return "partial" if got else "none"
