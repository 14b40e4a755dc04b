"""Clients: JavaScript libraries, driven by one node process per run.

``toolstream/clients/js/run.mjs`` reads one JSON request per line on stdin
and answers one JSON line per case on stdout (see its header); the drivers
it runs are the small modules in ``js/drivers/``, whose headers say which
API each calls and what counts as its refusal.  The packages are pinned by
``js/package.json`` and ``js/package-lock.json`` and installed by
``toolstream clients install-js`` (``npm ci`` from the shipped lockfile; in the
repository ``make adapters-js``) into ``js/node_modules`` (not committed) or,
from a wheel install, into a per-user cache folder holding a copy of the
runner and drivers (:func:`install_home`); the runner runs from the first
folder of :func:`js_homes` that has every package.

The node process is started at the first case and kept for the run (one per
worker process with ``-j``); it says ``{"ready": true}`` once the libraries
are loaded, so loading them is not counted against the first case's
deadline.  It runs the cases it is sent side by side (the worker's threads
send up to ``CASE_THREADS`` at once: a case mostly waits for the server's
paced writes) and answers each when it is done, with its ``seq``.  It
answers a case at the case's deadline itself (``stalled``: a
:class:`~toolstream.clients.base.StallTimeout`); a case with no answer a
grace second later means the process is wedged: it is killed, the cases
waiting on it fail with that ``StallTimeout``, and the next case starts a
new one.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from toolstream.adapters.base import (
    NO_INPUT,
    AdapterCall,
    AdapterResult,
    AdapterUnavailable,
    library_raised,
)
from toolstream.clients.base import (
    Client,
    StallTimeout,
    Target,
    fixture_tool_choice,
    fixture_tools,
)

__all__ = [
    "JS_DIR_VARIABLE",
    "JS_ROOT",
    "JS_SOURCES",
    "NODE_CLIENTS",
    "NodeClient",
    "NodeEnvironmentError",
    "install_home",
    "js_home",
    "node_missing",
]

JS_ROOT: Final = Path(__file__).resolve().parent / "js"
"""The JavaScript clients as shipped: runner, drivers, package.json and lockfile."""
JS_DIR_VARIABLE: Final = "TOOLSTREAM_JS_DIR"
"""An environment variable naming the folder ``install-js`` fills and the
runner reads first."""
JS_SOURCES: Final = ("package.json", "package-lock.json", "run.mjs", "drivers")
"""What a JS home holds besides ``node_modules`` (ES modules resolve their
imports from their own folder, so the runner runs beside its packages)."""
GRACE: Final = 1.0
"""Seconds past the case deadline the runner may take to answer (its own
watchdog fires at the deadline)."""
STARTUP: Final = 30.0
"""Seconds a new runner may take to load the libraries and say it is ready
(not counted against the first case's deadline)."""


class NodeCrash(RuntimeError):
    """A JavaScript library raised something other than its refusal (the
    message starts with the JS error's constructor name)."""


class NodeEnvironmentError(ImportError):
    """The runner could not import a driver module in its folder (it said
    ``{"environment": ...}`` instead of its ready line): the environment's
    fault, never the library's behaviour."""


def sources_digest() -> str:
    """A digest of the shipped JavaScript sources: a user-cache home is keyed
    by it, so an upgraded package never runs an older copy."""
    digest = hashlib.sha256()
    paths = [JS_ROOT / name for name in JS_SOURCES if (JS_ROOT / name).is_file()]
    paths += sorted((JS_ROOT / "drivers").glob("*.mjs"))
    for path in paths:
        digest.update(path.relative_to(JS_ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def user_js_home() -> Path:
    """The per-user cache folder for the JavaScript clients' packages
    (``$XDG_CACHE_HOME``, ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on
    Windows, else ``~/.cache``), one subfolder per version of the sources."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "toolstream" / f"js-{sources_digest()}"


def shipped_home_is_installable() -> bool:
    """Whether ``install-js`` may fill ``node_modules`` beside the shipped
    clients: a checkout or an editable install, writable; never a wheel
    installed into site-packages (pip owns that folder)."""
    installed = any(part in ("site-packages", "dist-packages") for part in JS_ROOT.parts)
    return not installed and os.access(JS_ROOT, os.W_OK)


def install_home() -> Path:
    """Where ``toolstream clients install-js`` installs by default."""
    named = os.environ.get(JS_DIR_VARIABLE)
    if named:
        return Path(named)
    return JS_ROOT if shipped_home_is_installable() else user_js_home()


def js_homes() -> list[Path]:
    """The folders the runner may run from, in the order it looks."""
    named = os.environ.get(JS_DIR_VARIABLE)
    return [*([Path(named)] if named else []), JS_ROOT, user_js_home()]


def _absent_packages(home: Path) -> list[str]:
    manifest = json.loads((JS_ROOT / "package.json").read_text(encoding="utf-8"))
    return [
        name
        for name in manifest.get("dependencies", {})
        if not (home / "node_modules" / name / "package.json").is_file()
    ]


def js_home() -> Path | None:
    """The first home with every package installed and the runner beside them."""
    for home in js_homes():
        if (home / "run.mjs").is_file() and not _absent_packages(home):
            return home
    return None


def node_missing() -> str | None:
    """Why the JavaScript clients cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not on PATH (the JavaScript clients need Node.js 20 or later)"
    if js_home() is None:
        absent = _absent_packages(install_home())
        return (
            f"the JavaScript packages {', '.join(absent)} are not installed in"
            f" {install_home() / 'node_modules'}; run: toolstream clients install-js"
        )
    return None


def js_version(package: str, home: Path | None = None) -> str | None:
    """The version of ``package`` installed in ``home`` (default: the
    pinned clients' :func:`js_home`)."""
    home = home or js_home()
    if home is None:
        return None
    try:
        data = json.loads(
            (home / "node_modules" / package / "package.json").read_text(encoding="utf-8")
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
    """The node process of this Python process, shared by the threads that
    run cases side by side: each request carries its own ``seq``, a reader
    thread files every answer under its ``seq``, and each asking thread
    waits for its own.

    The runner answers a case at its deadline itself (``stalled``); an
    answer still missing :data:`GRACE` seconds later means the process is
    wedged (a library busy in a synchronous loop starves every case): it is
    killed, every case waiting on it fails, and the next case starts a new
    one.

    ``locate`` says where to run: the folder holding ``run.mjs`` and the
    driver modules it loads (all of them when empty).  ``executable``: the
    node it starts (``node`` on PATH; a release's own Node.js when its
    engines ask for a newer one, set by ``locate``)."""

    def __init__(self, locate: Callable[[], tuple[Path, tuple[str, ...]]]) -> None:
        self.locate = locate
        self.executable = "node"
        self.process: subprocess.Popen[bytes] | None = None
        self.seq = 0
        self.lock = threading.Lock()
        self.answered = threading.Condition(self.lock)
        self.answers: dict[int, dict[str, Any]] = {}
        self.failure: dict[int, tuple[type[Exception], str]] = {}
        """Per process generation: why it ended (what its waiters raise)."""
        self.generation = 0

    def ask(self, request: Mapping[str, Any], wait: float) -> dict[str, Any]:
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                if self.process is not None:  # ended before its reader saw it
                    self._stop(NodeCrash, "NodeExited: the node runner exited without an answer")
                self._start()
            assert self.process is not None and self.process.stdin is not None
            self.seq += 1
            seq, generation = self.seq, self.generation
            line = json.dumps({"seq": seq, **request}).encode("utf-8") + b"\n"
            try:
                self.process.stdin.write(line)
                self.process.stdin.flush()
            except OSError:
                self._stop(NodeCrash, "NodeExited: the node runner exited without an answer")
            end = time.monotonic() + wait
            while seq not in self.answers:
                failure = self.failure.get(generation)
                if failure is not None:
                    kind, message = failure
                    raise kind(message)
                left = end - time.monotonic()
                if left <= 0:
                    message = f"the node runner did not answer within {wait:g}s"
                    if self.generation != generation:  # already replaced
                        raise StallTimeout(message)
                    self._stop(StallTimeout, message)
                    continue
                self.answered.wait(left)
            return self.answers.pop(seq)

    def start(self) -> None:
        """Start the runner now unless it runs (raises what :meth:`_start` raises)."""
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                self._start()

    def _start(self) -> None:
        """A new runner (the lock held); returns once it said it is ready.
        Raises :class:`NodeEnvironmentError` when it could not import a
        driver module."""
        self.generation += 1
        home, modules = self.locate()
        process = subprocess.Popen(
            [self.executable, str(home / "run.mjs"), *modules],
            cwd=home,
            env=_node_environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdout is not None
        ready = _read_line(process.stdout.fileno(), b"", time.monotonic() + STARTUP)
        hello = _parse(ready[0]) if ready is not None else {}
        if ready is None or not hello.get("ready"):
            process.kill()
            process.wait()
            process.stdout.close()
            if process.stdin is not None:
                process.stdin.close()
            if isinstance(hello.get("environment"), str):
                raise NodeEnvironmentError(f"in {home}: {hello['environment']}")
            raise NodeCrash("NodeProtocol: the node runner did not start with its ready line")
        self.process = process
        threading.Thread(
            target=self._read,
            args=(process, self.generation, ready[1]),
            name="toolstream-node-answers",
            daemon=True,
        ).start()

    def _read(self, process: subprocess.Popen[bytes], generation: int, buffer: bytes) -> None:
        """File the answers of one runner process until it ends."""
        assert process.stdout is not None
        fd = process.stdout.fileno()
        while True:
            got = _read_line(fd, buffer, None)
            if got is None:
                break
            line, buffer = got
            answer = _parse(line)
            with self.lock:
                if not isinstance(answer.get("seq"), int):
                    if self.generation == generation:
                        wrote = f"NodeProtocol: the node runner wrote {line[:80]!r}, not an answer"
                        self._stop(NodeCrash, wrote)
                    break
                self.answers[answer["seq"]] = answer
                self.answered.notify_all()
        with self.lock:
            if self.generation == generation and self.process is process:
                self._stop(NodeCrash, "NodeExited: the node runner exited without an answer")
        process.stdout.close()  # here, not in _stop: this thread may be reading it

    def _stop(self, kind: type[Exception], message: str) -> None:
        """End the current process (the lock held); its waiters raise ``kind(message)``."""
        self.failure[self.generation] = (kind, message)
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.wait()
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
        self.answered.notify_all()

    def stop(self) -> None:
        with self.lock:
            self._stop(NodeCrash, "NodeExited: the node runner was stopped")


def _read_line(fd: int, buffer: bytes, end: float | None) -> tuple[bytes, bytes] | None:
    """(one line, what follows it) from ``fd``, or None at its end or when
    ``end`` (a monotonic time) passes first."""
    while b"\n" not in buffer:
        if end is not None:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
        try:
            data = os.read(fd, 65536)
        except OSError:
            return None
        if not data:
            return None
        buffer += data
    line, _, rest = buffer.partition(b"\n")
    return line, rest


def _parse(line: bytes) -> dict[str, Any]:
    try:
        answer = json.loads(line)
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


def _pinned_home() -> tuple[Path, tuple[str, ...]]:
    """The pinned clients' runner: the first complete JS home, every driver module."""
    home = js_home()
    if home is None:
        raise NodeCrash(f"NodeSetup: {node_missing()}")
    return home, ()


_RUNNER = _Runner(_pinned_home)
atexit.register(_RUNNER.stop)


class NodeClient(Client):
    """One JavaScript driver: ``driver``, the name the runner knows it by,
    defined in ``js/drivers/<module>.mjs``.  ``oldest``: the oldest release
    of ``packages[0]`` it adapts to (``--client NAME==VERSION``:
    :class:`toolstream.clients.versions.VersionedNodeClient`, which installs
    ``packages`` alone, so only a client whose module imports nothing else
    declares one); ``None``: it runs only at its pinned version.

    ``lines``: ``(before, pins)`` in ascending order of ``before``: a release
    of ``packages[0]`` older than ``before`` is installed with ``pins`` (exact
    versions of its companions, by package name) instead of the pins of
    ``js/package.json``, for the first entry it is older than (a library
    whose major lines each take their own companion release)."""

    extra = None
    concurrent_runs = True  # cases side by side in the one runner, each by its seq

    def __init__(
        self,
        name: str,
        packages: tuple[str, ...],
        profiles: tuple[str, ...],
        framing: str = "sse",
        *,
        module: str,
        oldest: str | None = None,
        lines: tuple[tuple[str, Mapping[str, str]], ...] = (),
    ) -> None:
        self.name = name
        self.driver = name
        self.packages = packages
        self.profiles = profiles
        self.framing = framing
        self.module = module
        self.oldest = oldest
        self.lines = lines
        self.runner = _RUNNER

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
            "client": self.driver,
            "root": target.root,
            "v1": target.v1,
            "tools": fixture_tools(fixture),
            "tool_choice": fixture_tool_choice(fixture),
            "timeout_ms": int(target.timeout * 1000),
        }
        try:
            answer = self.runner.ask(request, target.timeout + GRACE)
        except NodeEnvironmentError as error:
            # a driver module that does not import is the environment's fault
            raise AdapterUnavailable(self.name, self.packages[0], extra=None, cause=error) from None
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


OPENAI_NODE_OLDEST: Final = "4.16.0"
"""The first openai-node release whose ``ChatCompletionStream`` accumulates
``tool_calls`` (4.15.x, which added it, accumulates ``function_call``
only): the oldest the openai_node.mjs driver adapts to (its header)."""

OPENAI_COMPATIBLE_OLDEST: Final = "0.0.2"
"""The first release of @ai-sdk/openai-compatible on the registry: the
ai_sdk_openai_compatible.mjs driver reads every release from it on (its
header)."""

OPENAI_COMPATIBLE_LINES: Final[tuple[tuple[str, Mapping[str, str]], ...]] = (
    # each major line implements one provider specification, and each "ai"
    # major line drives only its own (ai 4 refuses a model that is not v1,
    # ai 5 one that is not v2): 0.x is spec v1, for ai 4 (4.3.19, the last,
    # on the same @ai-sdk/provider 1.1.3 as 0.2.x), whose zod peer is 3.x;
    # 1.x is spec v2, for ai 5 (5.0.277, the last); 2.x is spec v3, for the
    # pinned ai 6; 3.x is spec v4, for ai 7 (7.0.52, on the same
    # @ai-sdk/provider-utils 5.0.21 as 3.0.23, the release of vercel/ai
    # pull request 18382), both asking for Node.js 22 (their engines)
    ("1.0.0", {"ai": "4.3.19", "zod": "3.25.76"}),
    ("2.0.0", {"ai": "5.0.277"}),
    ("3.0.0", {}),
    ("4.0.0", {"ai": "7.0.52"}),
)
"""The ``ai`` release each major line of @ai-sdk/openai-compatible runs under."""

NODE_CLIENTS: tuple[NodeClient, ...] = (
    NodeClient(
        "ai-sdk-openai-chat", ("@ai-sdk/openai", "ai"), ("openai", "mistral"), module="ai_sdk"
    ),
    NodeClient(
        "ai-sdk-openai-responses", ("@ai-sdk/openai", "ai"), ("openai-responses",), module="ai_sdk"
    ),
    NodeClient("ai-sdk-anthropic", ("@ai-sdk/anthropic", "ai"), ("anthropic",), module="ai_sdk"),
    NodeClient(
        "openai-node-chat-stream",
        ("openai",),
        ("openai", "mistral"),
        module="openai_node",
        oldest=OPENAI_NODE_OLDEST,
    ),
    NodeClient(
        "openai-node-chat-create",
        ("openai",),
        ("openai", "mistral"),
        module="openai_node",
        oldest=OPENAI_NODE_OLDEST,
    ),
    NodeClient(
        "anthropic-node-messages-stream",
        ("@anthropic-ai/sdk",),
        ("anthropic",),
        module="anthropic_sdk",
    ),
    NodeClient("ai-sdk-mistral", ("@ai-sdk/mistral", "ai"), ("mistral",), module="ai_sdk"),
    NodeClient(
        "ai-sdk-amazon-bedrock",
        ("@ai-sdk/amazon-bedrock", "ai"),
        ("bedrock",),
        "eventstream",
        module="ai_sdk",
    ),
    NodeClient("ai-sdk-google", ("@ai-sdk/google", "ai"), ("gemini",), module="ai_sdk"),
    NodeClient(
        "ai-sdk-openai-compatible",
        ("@ai-sdk/openai-compatible", "ai"),
        ("openai", "mistral"),
        module="ai_sdk_openai_compatible",
        oldest=OPENAI_COMPATIBLE_OLDEST,
        lines=OPENAI_COMPATIBLE_LINES,
    ),
)
