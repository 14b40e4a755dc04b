"""User-supplied adapters: a Python callable or an external command.

The contract (``docs/adapters.md``, "Your own adapter") is the same for all
three kinds.  An adapter receives the whole fixture mapping (``profile``,
``tool_schemas``, ``chunks``/``events``, ``request``) and answers with one of
:data:`~toolstream.adapters.base.RESULT_SHAPES`: the calls its application
would execute, or a refusal.

* :class:`CallableAdapter` (``"package.module:function"``): the function
  returns the calls (a list, a tuple or a generator of calls, each an
  :class:`~toolstream.adapters.base.AdapterCall`, a mapping ``{id, name,
  arguments[, input]}`` or an ``(id, name, arguments)`` tuple) or an
  ``AdapterResult``.  It refuses a turn by raising
  :class:`~toolstream.adapters.base.Rejected` (or an exception type given
  with ``reject_on``), or by returning ``{"rejected": true, "reason": ...}``.
  **Any other exception is an adapter_crash**, never a refusal: a
  ``NameError`` in the adapter must not read as "the adapter refused".
* :class:`CommandAdapter` (``cmd:CMD``): one process per case, the fixture
  JSON on stdin; exit status 0 with a JSON answer on stdout (a list of calls,
  ``{"calls": [...]}`` or ``{"rejected": true, "reason": ...}``); a non-zero
  exit status is a refusal (the end of stderr is its reason), kept for
  scripts written before the persistent protocol.
* :class:`PersistentCommandAdapter` (``lines:CMD``): one process for the
  whole run; per case one JSON line in (the fixture) and one JSON line out
  (the answer, as above), within a timeout per case.  A process that exits,
  writes a line that is not an answer, or times out is an adapter_crash for
  that case (and is started again for the next one).

Every adapter declares the profiles it takes (``profiles=``, the callable's
``toolstream_profiles`` attribute, or ``--adapter-profile``); by default all
the validator knows (:data:`toolstream.profiles.PROFILES`), so a case is
``not_run`` only when the user said so.  A program that cannot be started
raises :class:`~toolstream.adapters.base.AdapterUnavailable`.
"""

from __future__ import annotations

import collections
import importlib
import json
import os
import queue
import shlex
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Any, Final

from .base import (
    Adapter,
    AdapterCall,
    AdapterOutputError,
    AdapterResult,
    AdapterUnavailable,
    Rejected,
    coerce_calls,
    coerce_result,
    fixture_profile,
    library_raised,
)

__all__ = [
    "AdapterOutputError",
    "CallableAdapter",
    "CommandAdapter",
    "PersistentCommandAdapter",
    "all_profiles",
    "load_callable_adapter",
    "load_exception",
    "parse_answer",
    "parse_calls",
]

PROFILES_ATTRIBUTE: Final = "toolstream_profiles"
"""The attribute of a callable naming the profiles it takes."""


def all_profiles() -> tuple[str, ...]:
    """Every profile the validator knows, in its table's order."""
    from toolstream.profiles import PROFILES

    return tuple(PROFILES)


def _checked_profiles(profiles: Iterable[str] | None, source: str) -> tuple[str, ...]:
    known = all_profiles()
    if profiles is None:
        return known
    if isinstance(profiles, str):
        profiles = (profiles,)
    chosen = tuple(dict.fromkeys(profiles))
    unknown = [p for p in chosen if p not in known]
    if unknown or not chosen:
        raise ValueError(
            f"{source}: unknown profile(s) {', '.join(map(repr, unknown)) or '(none given)'};"
            f" known: {', '.join(known)}"
        )
    return chosen


def parse_calls(value: Any, *, source: str) -> tuple[AdapterCall, ...]:
    """Validate a list of calls (any accepted call shape)."""
    return coerce_calls(value, source=source)


def parse_answer(text: bytes | str, *, source: str) -> AdapterResult:
    """A command adapter's JSON answer as an :class:`AdapterResult`."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        answer = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        snippet = text[:200] if isinstance(text, str) else text[:200].decode("utf-8", "replace")
        raise AdapterOutputError(f"{source}: answer is not JSON ({exc}): {snippet!r}") from exc
    if isinstance(answer, list | dict):
        return coerce_result(answer, source=source)
    raise AdapterOutputError(
        f"{source}: answer is a JSON {type(answer).__name__}; expected a list of calls,"
        ' {"calls": [...]} or {"rejected": true, "reason": "..."}'
    )


def load_exception(spec: str) -> type[BaseException]:
    """``"module:Name"`` (dotted attribute path allowed) naming an exception
    class; ValueError otherwise."""
    target = _import_attribute(spec, "Exception")
    if not (isinstance(target, type) and issubclass(target, BaseException)):
        raise ValueError(f"{spec!r} is not an exception class")
    return target


def _import_attribute(spec: str, what: str = "name") -> Any:
    module_name, sep, attr_path = spec.partition(":")
    if not sep or not module_name or not attr_path:
        raise ValueError(f"expected 'package.module:{what}', got {spec!r}")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise AdapterUnavailable(spec, module_name, extra=None, cause=exc) from exc
    for part in attr_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"{spec!r}: {module_name} has no attribute {attr_path!r}") from None
    return target


class CallableAdapter(Adapter):
    """Wraps ``function(fixture)``; see the module docstring for the contract."""

    package = ""
    extra = None

    def __init__(
        self,
        function: Callable[[Mapping[str, Any]], Any],
        *,
        name: str | None = None,
        profiles: Iterable[str] | None = None,
        reject_on: Sequence[type[BaseException]] = (),
    ) -> None:
        self.function = function
        self.name = (
            name
            or f"{getattr(function, '__module__', '?')}:{getattr(function, '__qualname__', '?')}"
        )
        declared = profiles if profiles is not None else getattr(function, PROFILES_ATTRIBUTE, None)
        self.profiles = _checked_profiles(declared, self.name)
        self.reject_on: tuple[type[BaseException], ...] = (Rejected, *reject_on)

    def available(self) -> bool:
        return True

    def library_version(self) -> str | None:
        return None

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        fixture_profile(fixture)
        try:
            # the note names the user's function as "where it was raised"
            with library_raised(self.name):
                answer = self.function(fixture)
                if isinstance(answer, Iterator):
                    # a generator runs here: what it raises counts as raised above
                    answer = list(answer)
        except self.reject_on as exc:
            return AdapterResult.rejection(f"{type(exc).__name__}: {exc}".rstrip(": "))
        return coerce_result(answer, source=self.name)


def load_callable_adapter(
    spec: str,
    *,
    profiles: Iterable[str] | None = None,
    reject_on: Sequence[type[BaseException]] = (),
) -> CallableAdapter:
    """``"package.module:function"`` (dotted attribute path allowed after the colon)."""
    target = _import_attribute(spec, "function")
    if not callable(target):
        raise ValueError(f"{spec!r} is not callable")
    return CallableAdapter(target, name=spec, profiles=profiles, reject_on=reject_on)


class _Program(Adapter):
    """What the two command adapters share: the argv, the environment, the
    profiles, and how a missing program is told apart."""

    package = ""
    extra = None
    prefix = "cmd:"

    def __init__(
        self,
        cmd: str,
        timeout: float = 30.0,
        *,
        env: Mapping[str, str] | None = None,
        profiles: Iterable[str] | None = None,
    ) -> None:
        self.argv = shlex.split(cmd)
        if not self.argv:
            raise ValueError("empty command")
        self.cmd = cmd
        self.timeout = timeout
        self.env = dict(env) if env is not None else None
        self.name = f"{self.prefix}{cmd}"
        self.profiles = _checked_profiles(profiles, self.name)

    def available(self) -> bool:
        program = self.argv[0]
        if os.sep in program or (os.altsep and os.altsep in program):
            return os.path.isfile(program) and os.access(program, os.X_OK)
        return shutil.which(program) is not None

    def library_version(self) -> str | None:
        return None

    def unavailable_reason(self) -> str | None:
        if self.available():
            return None
        return f"program {self.argv[0]!r} not found or not executable"

    def _payload(self, fixture: Mapping[str, Any]) -> bytes:
        return json.dumps(fixture, ensure_ascii=False, allow_nan=False).encode("utf-8")


class CommandAdapter(_Program):
    """One process per case; see the module docstring."""

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        fixture_profile(fixture)
        try:
            proc = subprocess.run(
                self.argv,
                input=self._payload(fixture),
                capture_output=True,
                timeout=self.timeout,
                check=False,
                env=self.env,
            )
        except FileNotFoundError as exc:
            raise AdapterUnavailable(self.name, self.argv[0], extra=None, cause=exc) from exc
        # subprocess.TimeoutExpired propagates: a hung accumulator is a crash
        if proc.returncode < 0:
            raise RuntimeError(f"{self.name}: killed by signal {-proc.returncode}")
        if proc.returncode != 0:
            tail = proc.stderr.decode("utf-8", "replace").strip()[-500:]
            return AdapterResult.rejection(
                f"exit status {proc.returncode}" + (f": {tail}" if tail else "")
            )
        return parse_answer(proc.stdout, source=self.name)


class AdapterProcessError(RuntimeError):
    """The persistent adapter process died, or wrote no answer in time."""


_STDERR_KEPT: Final = 2000


class PersistentCommandAdapter(_Program):
    """One process for the whole run, one JSON line in and out per case.

    The process is started on the first case, and again after a case that
    killed it or timed out.  Its stderr is kept (the last
    ``_STDERR_KEPT`` characters) to explain a death; it never reaches the
    terminal.
    """

    prefix = "lines:"

    def __init__(self, cmd: str, timeout: float = 30.0, **kwargs: Any) -> None:
        super().__init__(cmd, timeout, **kwargs)
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_KEPT)
        self._readers: list[threading.Thread] = []

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
            )
        except FileNotFoundError as exc:
            raise AdapterUnavailable(self.name, self.argv[0], extra=None, cause=exc) from exc
        self._lines = queue.Queue()
        self._stderr.clear()
        assert proc.stdout is not None and proc.stderr is not None
        self._readers = [
            threading.Thread(target=self._read_lines, args=(proc.stdout, self._lines), daemon=True),
            threading.Thread(target=self._read_stderr, args=(proc.stderr,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        self._proc = proc
        return proc

    @staticmethod
    def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)  # end of output: the process is gone

    def _read_stderr(self, stream: IO[bytes]) -> None:
        for line in stream:
            self._stderr.extend(line.decode("utf-8", "replace"))

    def _why(self, proc: subprocess.Popen[bytes]) -> str:
        try:
            status = proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            status = None
        tail = "".join(self._stderr).strip()[-500:]
        if status is None:
            shown = "stopped answering"
        elif status >= 0:
            shown = f"exited with status {status}"
        else:
            shown = f"was killed by signal {-status}"
        return f"{self.name}: the process {shown} before answering" + (f": {tail}" if tail else "")

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        fixture_profile(fixture)
        proc = self._proc if self._proc is not None and self._proc.poll() is None else None
        if proc is None:
            proc = self._start()
        assert proc.stdin is not None
        try:
            proc.stdin.write(self._payload(fixture) + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._stop()
            raise AdapterProcessError(self._why(proc)) from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._stop()
            raise TimeoutError(f"{self.name}: no answer within {self.timeout:g} s") from None
        if line is None:
            self._stop()
            raise AdapterProcessError(self._why(proc))
        return parse_answer(line, source=self.name)

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for reader in self._readers:  # they end at the pipes' end of file
            reader.join(timeout=2)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()

    def close(self) -> None:
        """End of the run: close the process' stdin (it should exit on EOF)."""
        self._stop()
