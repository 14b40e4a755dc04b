"""Clients: JavaScript libraries, driven by one node process per run.

``toolstream/clients/js/run.mjs`` reads one JSON request per line on stdin
and answers one JSON line per case on stdout (see its header); the drivers
it runs are the small modules in ``js/drivers/``, whose headers say which
API each calls and what counts as its refusal.  The packages are pinned by
``js/package.json`` and ``js/package-lock.json`` and installed by
``make adapters-js`` (``npm ci``) into ``js/node_modules`` (not committed).

The node process is started at the first case and kept for the run (one per
worker process with ``-j``); it says ``{"ready": true}`` once the libraries
are loaded, so loading them is not counted against the first case's
deadline.  A case that does not answer within its deadline plus a grace
second kills the process (the next case starts a new one) and counts as a
:class:`~toolstream.clients.base.StallTimeout`.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from toolstream.adapters.base import NO_INPUT, AdapterCall, AdapterResult, library_raised
from toolstream.clients.base import (
    Client,
    StallTimeout,
    Target,
    fixture_tool_choice,
    fixture_tools,
)

__all__ = ["JS_ROOT", "NODE_CLIENTS", "NodeClient", "node_missing"]

JS_ROOT: Final = Path(__file__).resolve().parent / "js"
RUNNER: Final = JS_ROOT / "run.mjs"
GRACE: Final = 1.0
"""Seconds past the case deadline the runner may take to answer (its own
watchdog fires at the deadline)."""
STARTUP: Final = 30.0
"""Seconds a new runner may take to load the libraries and say it is ready
(not counted against the first case's deadline)."""


class NodeCrash(RuntimeError):
    """A JavaScript library raised something other than its refusal (the
    message starts with the JS error's constructor name)."""


def node_missing() -> str | None:
    """Why the JavaScript clients cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not on PATH (the JavaScript clients need Node.js 20 or later)"
    lock = json.loads((JS_ROOT / "package.json").read_text(encoding="utf-8"))
    absent = [
        name
        for name in lock.get("dependencies", {})
        if not (JS_ROOT / "node_modules" / name / "package.json").is_file()
    ]
    if absent:
        return (
            f"the JavaScript packages {', '.join(absent)} are not installed in"
            f" {JS_ROOT / 'node_modules'}; run: make adapters-js"
        )
    return None


def js_version(package: str) -> str | None:
    try:
        data = json.loads(
            (JS_ROOT / "node_modules" / package / "package.json").read_text(encoding="utf-8")
        )
    except (OSError, ValueError):
        return None
    version = data.get("version")
    return version if isinstance(version, str) else None


def _node_environment() -> dict[str, str]:
    """The runner's environment: this one without ``AWS_*`` (a bearer token
    there would switch @ai-sdk/amazon-bedrock from the dummy credentials to
    it, and send it to the server)."""
    return {key: value for key, value in os.environ.items() if not key.startswith("AWS_")}


class _Runner:
    """The node process of this Python process."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.seq = 0

    def ask(self, request: Mapping[str, Any], wait: float) -> dict[str, Any]:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                ["node", str(RUNNER)],
                cwd=JS_ROOT,
                env=_node_environment(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
            self.buffer = b""
            if not self._line(time.monotonic() + STARTUP, STARTUP).get("ready"):
                self.stop()
                raise NodeCrash("NodeProtocol: the node runner did not start with its ready line")
        assert self.process.stdin is not None and self.process.stdout is not None
        self.seq += 1
        line = json.dumps({"seq": self.seq, **request}).encode("utf-8") + b"\n"
        self.process.stdin.write(line)
        self.process.stdin.flush()
        end = time.monotonic() + wait
        while True:
            answer = self._line(end, wait)
            if answer.get("seq") == self.seq:  # an older case's late answer is dropped
                return answer

    def _line(self, end: float, wait: float) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = end - time.monotonic()
            ready = select.select([fd], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                self.stop()
                raise StallTimeout(f"the node runner did not answer within {wait:g}s")
            data = os.read(fd, 65536)
            if not data:
                self.stop()
                raise NodeCrash("NodeExited: the node runner exited without an answer")
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            self.stop()
            raise NodeCrash(f"NodeProtocol: the node runner wrote {line[:80]!r}, not an answer")
        return answer

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()
            self.process = None


_RUNNER = _Runner()
atexit.register(_RUNNER.stop)


class NodeClient(Client):
    """One JavaScript driver (``js/drivers/*.mjs``)."""

    extra = None

    def __init__(
        self,
        name: str,
        packages: tuple[str, ...],
        profiles: tuple[str, ...],
        framing: str = "sse",
    ) -> None:
        self.name = name
        self.packages = packages
        self.profiles = profiles
        self.framing = framing

    def available(self) -> str | None:
        missing = node_missing()
        return f"client {self.name!r}: {missing}" if missing else None

    def load(self) -> None:
        missing = node_missing()
        if missing:
            raise ImportError(missing)

    def version(self) -> str | None:
        return js_version(self.packages[0])

    def drive(self, target: Target, fixture: Mapping[str, Any]) -> AdapterResult:
        request = {
            "client": self.name,
            "root": target.root,
            "v1": target.v1,
            "tools": fixture_tools(fixture),
            "tool_choice": fixture_tool_choice(fixture),
            "timeout_ms": int(target.timeout * 1000),
        }
        answer = _RUNNER.ask(request, target.timeout + GRACE)
        if answer.get("stalled"):
            raise StallTimeout(f"the library was still reading after {target.timeout:g}s")
        crash = answer.get("crash")
        if crash:
            with library_raised(f"{self.name} ({self.packages[0]} {self.version()})"):
                raise NodeCrash(f"{crash.get('type')}: {crash.get('message')}")
        if answer.get("rejected"):
            return AdapterResult.rejection(str(answer.get("reason") or "rejected"))
        calls = tuple(
            AdapterCall(
                id=call.get("id"),
                name=call.get("name"),
                arguments=call["arguments"]
                if "arguments" in call
                else json.dumps(call.get("input"), ensure_ascii=False, separators=(",", ":")),
                input=call["input"] if "input" in call else NO_INPUT,
            )
            for call in answer.get("calls", [])
        )
        finish = answer.get("finish_reason")
        return AdapterResult(
            calls=calls,
            rejected=False,
            invalid=tuple(str(x) for x in answer.get("invalid", [])),
            finish_reason=finish if isinstance(finish, str) else None,
        )


NODE_CLIENTS: tuple[NodeClient, ...] = (
    NodeClient("ai-sdk-openai-chat", ("@ai-sdk/openai", "ai"), ("openai", "mistral")),
    NodeClient("ai-sdk-openai-responses", ("@ai-sdk/openai", "ai"), ("openai-responses",)),
    NodeClient("ai-sdk-anthropic", ("@ai-sdk/anthropic", "ai"), ("anthropic",)),
    NodeClient("openai-node-chat-stream", ("openai",), ("openai", "mistral")),
    NodeClient("openai-node-chat-create", ("openai",), ("openai", "mistral")),
    NodeClient("anthropic-node-messages-stream", ("@anthropic-ai/sdk",), ("anthropic",)),
    NodeClient("ai-sdk-mistral", ("@ai-sdk/mistral", "ai"), ("mistral",)),
    NodeClient(
        "ai-sdk-amazon-bedrock", ("@ai-sdk/amazon-bedrock", "ai"), ("bedrock",), "eventstream"
    ),
    NodeClient("ai-sdk-google", ("@ai-sdk/google", "ai"), ("gemini",)),
)
