"""Client: boto3's Bedrock Runtime ``converse_stream``, over HTTP.

``boto3-converse-stream``
    ``boto3.client("bedrock-runtime", endpoint_url=<case root>)
    .converse_stream(modelId=..., messages=..., toolConfig={"tools":
    [{"toolSpec": {"name", "inputSchema": {"json": schema}}}]})``, and its
    ``response["stream"]`` read to the end: botocore's own HTTP client, its
    AWS event-stream decoder (prelude and message CRCs, headers) and its
    parser of each event.

    boto3 has no accumulator: an application reassembles the events itself.
    This driver runs the loop of the AWS documentation's ConverseStream
    tool-use example, and nothing more: ``contentBlockStart.start.toolUse``
    opens the current tool (``toolUseId``, ``name``, input ``""``), each
    ``contentBlockDelta.delta.toolUse.input`` is appended to it,
    ``contentBlockStop`` closes it with ``json.loads(input)``, and the tools are
    handed over only when ``messageStop.stopReason`` is ``"tool_use"``.
    So what this client shows is boto3's decoding plus that documented
    pattern; ``input`` (the parsed value) is what is compared.  The events
    are read to the end first (boto3's part: its exceptions are noted as
    raised inside boto3), then the loop runs over them (the application's
    part: a ``TypeError`` there, say for a non-string input fragment, is the
    pattern's own crash, reported as raised in the driver).

Client: dummy credentials, ``region_name="us-east-1"``,
``Config(retries={"total_max_attempts": 1}, connect_timeout=<case timeout>,
read_timeout=<case timeout>)``, ``endpoint_url`` the server (with the
transport prefix); one client per process (boto3 clients are thread-safe),
the case selected by the ``X-Toolstream-Case`` header a ``before-sign`` hook
adds from the calling thread's own record of its case.  The case deadline
is checked per event.

Counted as the library's own refusal: ``botocore.exceptions.ClientError``
(an HTTP error status; ``EventStreamError`` for an exception event in the
stream), ``botocore.exceptions.BotoCoreError`` (read timeout, connection
closed, a stream that cannot be decoded), and the documented pattern's
``json.JSONDecodeError`` when a tool's input is not JSON.  Everything else
propagates.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Mapping
from typing import Any

from toolstream.adapters.base import AdapterCall, AdapterResult, library_raised, package_version
from toolstream.clients.base import MODEL, Client, Deadline, Target, fixture_tools

__all__ = ["Boto3ConverseStream"]

_CLIENTS: dict[tuple[str, float], Any] = {}
_BUILDING = threading.Lock()
_CASE = threading.local()
"""The case the current thread is driving (``case``): a boto3 client is
thread-safe and the hook runs in the thread that makes the call."""


def _select_case(request: Any, **kwargs: Any) -> None:
    """``before-sign`` hook: the case this thread is driving, in the
    ``X-Toolstream-Case`` header (one boto3 client then serves every case:
    building one parses the service model and a TLS context)."""
    request.headers["X-Toolstream-Case"] = _CASE.case


def _client(target: Target) -> Any:
    _CASE.case = target.case
    key = (target.shared_root, target.timeout)
    with _BUILDING:  # a boto3 Session is not thread-safe
        return _CLIENTS[key] if key in _CLIENTS else _build(key, target)


def _build(key: tuple[str, float], target: Target) -> Any:
    import boto3
    from botocore.config import Config

    session = boto3.session.Session(
        aws_access_key_id="toolstream",
        aws_secret_access_key="toolstream-dummy-secret",
        region_name="us-east-1",
    )
    client = session.client(
        "bedrock-runtime",
        endpoint_url=target.shared_root,
        config=Config(
            retries={"total_max_attempts": 1},
            connect_timeout=target.timeout,
            read_timeout=target.timeout,
        ),
    )
    client.meta.events.register("before-sign.bedrock-runtime.*", _select_case)
    _CLIENTS[key] = client
    return client


class Boto3ConverseStream(Client):
    name = "boto3-converse-stream"
    packages = ("boto3", "botocore")
    profiles = ("bedrock",)
    framing = "eventstream"
    concurrent_runs = True  # one client per process, the case per thread (_select_case)

    def load(self) -> None:
        import boto3  # noqa: F401
        import botocore  # noqa: F401

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        from botocore.exceptions import BotoCoreError, ClientError

        deadline = Deadline(target)
        client = _client(target)
        request: dict[str, Any] = {
            "modelId": MODEL,
            "messages": [{"role": "user", "content": [{"text": "toolstream case"}]}],
        }
        tools = [
            {"toolSpec": {"name": name, "inputSchema": {"json": schema}}}
            for name, schema in fixture_tools(fixture)
        ]
        if tools:
            request["toolConfig"] = {"tools": tools}
        events = 0
        tool_uses: list[dict[str, Any]] = []
        current: dict[str, Any] = {}
        stop_reason = None
        stream: Any = None
        try:
            received = []
            with library_raised(f"boto3 {package_version('boto3')} converse_stream"):
                response = client.converse_stream(**request)
                stream = response["stream"]
                for event in stream:
                    events += 1
                    deadline.check()
                    received.append(event)
            # the AWS documentation's ConverseStream tool-use loop: application
            # code, so an exception here is the driver's, not boto3's
            for event in received:
                if "contentBlockStart" in event:
                    tool = event["contentBlockStart"]["start"].get("toolUse")
                    if tool is not None:
                        current = {"toolUseId": tool.get("toolUseId"), "name": tool.get("name")}
                        current["input"] = ""
                elif "contentBlockDelta" in event:
                    delta = event["contentBlockDelta"]["delta"]
                    if "toolUse" in delta and "input" in current:
                        current["input"] += delta["toolUse"]["input"]
                elif "contentBlockStop" in event:
                    if "input" in current:
                        current["input"] = json.loads(current["input"])
                        tool_uses.append(current)
                        current = {}
                elif "messageStop" in event:
                    stop_reason = event["messageStop"]["stopReason"]
        except (ClientError, BotoCoreError, json.JSONDecodeError) as error:
            return AdapterResult.rejection(
                f"{type(error).__name__} after {events} event(s): {error}"
            )
        finally:
            # closed as an application's cleanup closes it: a stream left to
            # the garbage collector after a parse error has urllib3 raise
            # inside its finalizer ("Exception ignored in ... HTTPResponse.stream")
            if stream is not None:
                with contextlib.suppress(Exception):
                    stream.close()
        handed = tool_uses if stop_reason == "tool_use" else []
        calls = tuple(
            AdapterCall(
                id=tool.get("toolUseId"),
                name=tool.get("name"),
                arguments=json.dumps(tool.get("input"), ensure_ascii=False, separators=(",", ":")),
                input=tool.get("input"),
            )
            for tool in handed
        )
        return AdapterResult(
            calls=calls,
            rejected=False,
            invalid=(),
            finish_reason=stop_reason if isinstance(stop_reason, str) else None,
        )
