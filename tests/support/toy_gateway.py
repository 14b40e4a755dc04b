"""A small gateway written for the gateway-check tests: OpenAI Chat
Completions in front, an Anthropic Messages provider behind.

It takes ``POST /v1/chat/completions`` (``"stream": true``), forwards the
model, the tools and the ``X-Toolstream-Case`` header to the provider's
``POST /v1/messages``, and translates the provider's SSE events into chat
chunks as they arrive.  Modes (``--mode``):

``correct``
    every ``tool_use`` block becomes its own ``tool_calls`` index (0, 1,
    ... in block index order, which is the order of the message's content;
    the provider's whole stream is read first), ids and names kept,
    ``input_json_delta`` fragments as argument fragments, ``stop_reason``
    mapped to ``finish_reason``; a provider stream that ends without
    ``message_stop`` (or breaks off, or sends an ``error``
    event, or an event it cannot read) ends the chat stream there with no
    ``finish_reason`` and no ``[DONE]``, so a client can tell;
``collapse-index``
    the same, but every call at ``index: 0`` (the bug that makes clients
    merge parallel calls into one);
``arrival-order``
    the same as ``correct``, but indices given in the order the blocks
    *start*: blocks streamed out of index order come out reordered;
``launder``
    correct translation, but whatever happens upstream the chat stream ends
    with ``finish_reason: "tool_calls"`` and ``[DONE]``: a cut-off provider
    stream comes out as a clean finish.

Standard library only; binds 127.0.0.1.  As a program it prints its URL on
the first line of stdout and serves until SIGTERM (what ``--gateway-command``
expects)::

    python tests/support/toy_gateway.py --mode correct http://127.0.0.1:PORT
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

MODES = ("correct", "collapse-index", "arrival-order", "launder")
FINISH = {
    "tool_use": "tool_calls",
    "end_turn": "stop",
    "max_tokens": "length",
    "stop_sequence": "stop",
}


def upstream_events(upstream: str, body: dict[str, Any], case: str | None) -> Iterator[Any]:
    """The provider's events, parsed, as they arrive; a line that is not
    JSON is yielded as ``None`` (the translation stops there)."""
    parts = urlsplit(upstream)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    headers = {"Content-Type": "application/json", "anthropic-version": "2023-06-01"}
    if case:
        headers["X-Toolstream-Case"] = case
    try:
        connection.request("POST", "/v1/messages", json.dumps(body), headers)
        response = connection.getresponse()
        if response.status != 200:
            yield {"type": "error", "error": {"message": f"provider said {response.status}"}}
            return
        while True:
            try:
                line = response.readline()
            except (OSError, http.client.HTTPException):
                return
            if not line:
                return
            text = line.decode("utf-8", "replace").strip()
            if text.startswith("data:"):
                try:
                    yield json.loads(text[5:])
                except ValueError:
                    yield None
    finally:
        connection.close()


def _block_order(index: Any) -> tuple[bool, float, str]:
    number = isinstance(index, (int, float)) and not isinstance(index, bool)
    return (not number, index if number else 0, str(index))


def translate(events: Iterator[Any], mode: str, model: str) -> Iterator[dict[str, Any] | str]:
    """Chat chunks (and ``"[DONE]"``) for the provider's events."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-toy",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    events = list(events)  # type: ignore[assignment]  # (read twice below)
    tool_blocks = [
        e.get("index", -1)
        for e in events
        if isinstance(e, dict)
        and e.get("type") == "content_block_start"
        and (e.get("content_block") or {}).get("type") == "tool_use"
    ]
    order = tool_blocks if mode == "arrival-order" else sorted(tool_blocks, key=_block_order)
    by_index = {block: position for position, block in enumerate(dict.fromkeys(order))}
    slots: dict[int, int] = {}
    argued: set[int] = set()  # blocks whose arguments have text
    finish: str | None = None
    complete = False
    yield chunk({"role": "assistant", "content": ""})
    for event in events:
        if not isinstance(event, dict) or event.get("type") == "error":
            break
        kind = event.get("type")
        if kind == "content_block_start":
            block = event.get("content_block") or {}
            if block.get("type") == "tool_use":
                slot = 0 if mode == "collapse-index" else by_index[event.get("index", -1)]
                slots[event.get("index", -1)] = slot
                start = block.get("input") or {}
                if start:
                    argued.add(event.get("index", -1))
                yield chunk(
                    {
                        "tool_calls": [
                            {
                                "index": slot,
                                "id": block.get("id"),
                                "type": "function",
                                "function": {
                                    "name": block.get("name"),
                                    "arguments": json.dumps(start) if start else "",
                                },
                            }
                        ]
                    }
                )
        elif kind == "content_block_delta":
            delta = event.get("delta") or {}
            if delta.get("type") == "text_delta":
                yield chunk({"content": delta.get("text", "")})
            elif delta.get("type") == "input_json_delta" and event.get("index") in slots:
                fragment = delta.get("partial_json", "")
                if fragment:
                    argued.add(event["index"])
                yield chunk(
                    {
                        "tool_calls": [
                            {"index": slots[event["index"]], "function": {"arguments": fragment}}
                        ]
                    }
                )
        elif kind == "content_block_stop" and event.get("index") in slots:
            if event["index"] not in argued:  # no input at all: Anthropic's {}
                yield chunk(
                    {
                        "tool_calls": [
                            {"index": slots[event["index"]], "function": {"arguments": "{}"}}
                        ]
                    }
                )
        elif kind == "message_delta":
            reason = (event.get("delta") or {}).get("stop_reason")
            finish = FINISH.get(reason, "stop") if reason else None
        elif kind == "message_stop":
            complete = True
            break
    if mode == "launder":
        yield chunk({}, "tool_calls")
        yield "[DONE]"
    elif complete and finish is not None:
        yield chunk({}, finish)
        yield "[DONE]"


class _Handler(BaseHTTPRequestHandler):
    server: ToyServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        if self.path.rstrip("/") != "/v1/chat/completions" or not request.get("stream"):
            body = json.dumps({"error": {"message": "only streamed chat completions"}}).encode()
            self.send_response(400)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        tools = [
            {"name": t["function"]["name"], "input_schema": t["function"].get("parameters", {})}
            for t in request.get("tools", [])
        ]
        upstream_body = {
            "model": request.get("model"),
            "max_tokens": 1024,
            "messages": request.get("messages", []),
            "tools": tools,
            "stream": True,
        }
        events = upstream_events(
            self.server.upstream, upstream_body, self.headers.get("X-Toolstream-Case")
        )
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        for item in translate(events, self.server.mode, str(request.get("model"))):
            data = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
            self.wfile.write(f"data: {data}\n\n".encode())


class ToyServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, upstream: str, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode {mode!r}; known: {', '.join(MODES)}")
        super().__init__(("127.0.0.1", 0), _Handler)
        self.upstream = upstream.rstrip("/")
        self.mode = mode
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self) -> ToyServer:
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("upstream")
    parser.add_argument("--mode", choices=MODES, default="correct")
    parser.add_argument("--pid-file", help="write the process id here (for the tests)")
    args = parser.parse_args(argv)
    server = ToyServer(args.upstream, args.mode)
    if args.pid_file:
        with open(args.pid_file, "w", encoding="ascii") as handle:
            handle.write(str(os.getpid()))

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    print(server.url, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
