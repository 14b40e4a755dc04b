"""User-supplied adapters: a Python callable or an external command.

Both receive the whole fixture mapping and answer with the calls their
application would execute, as a list of objects
``{"id": str|null, "name": str|null, "arguments": str|null}`` (an optional
``"input"`` member carries a parsed value, like ``AdapterCall.input``).

* :func:`load_callable_adapter` -- ``"package.module:function"``; the function
  takes the fixture and returns that list; **raising any exception means the
  turn is rejected** (that is the contract: the callable is the user's
  accumulator, and raising is how it refuses).
* :class:`CommandAdapter` -- runs a program (``shlex.split``, no shell) with
  the fixture JSON on stdin and a timeout.  Exit status 0 and a JSON list on
  stdout: the calls.  A non-zero exit status: *rejected* (the reason carries
  the end of stderr).  Anything else -- stdout that is not JSON or not a list
  of call objects, a timeout, a program killed by a signal -- raises
  (the harness counts it as a crash).  A program that cannot be started
  raises :class:`~toolstream.adapters.base.AdapterUnavailable`.
"""

from __future__ import annotations

import importlib
import json
import os
import shlex
import shutil
import subprocess
from collections.abc import Callable, Mapping
from typing import Any

from .base import NO_INPUT, Adapter, AdapterCall, AdapterResult, AdapterUnavailable, fixture_profile

__all__ = [
    "AdapterOutputError",
    "CallableAdapter",
    "CommandAdapter",
    "load_callable_adapter",
    "parse_calls",
]

ALL_PROFILES = ("openai", "mistral", "anthropic")


class AdapterOutputError(ValueError):
    """A user adapter answered with something that is not a list of calls."""


def parse_calls(value: Any, *, source: str) -> tuple[AdapterCall, ...]:
    """Validate a user adapter's answer and turn it into ``AdapterCall``\\ s."""
    if not isinstance(value, list):
        raise AdapterOutputError(
            f"{source}: expected a JSON list of calls, got {type(value).__name__}"
        )
    calls = []
    for position, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise AdapterOutputError(
                f"{source}: call {position} is {type(item).__name__}, not an object"
            )
        unknown = set(item) - {"id", "name", "arguments", "input"}
        if unknown:
            raise AdapterOutputError(
                f"{source}: call {position} has unknown keys {sorted(unknown)}"
            )
        for key in ("id", "name", "arguments"):
            if item.get(key) is not None and not isinstance(item.get(key), str):
                raise AdapterOutputError(
                    f"{source}: call {position} {key!r} must be a string or null, "
                    f"got {type(item[key]).__name__}"
                )
        calls.append(
            AdapterCall(
                id=item.get("id"),
                name=item.get("name"),
                arguments=item.get("arguments"),
                input=item["input"] if "input" in item else NO_INPUT,
            )
        )
    return tuple(calls)


class CallableAdapter(Adapter):
    """Wraps ``function(fixture) -> list[call dict]``; raising rejects."""

    package = ""
    profiles = ALL_PROFILES
    extra = None

    def __init__(
        self, function: Callable[[Mapping[str, Any]], Any], *, name: str | None = None
    ) -> None:
        self.function = function
        self.name = (
            name
            or f"{getattr(function, '__module__', '?')}:{getattr(function, '__qualname__', '?')}"
        )

    def available(self) -> bool:
        return True

    def library_version(self) -> str | None:
        return None

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        fixture_profile(fixture)
        try:
            answer = self.function(fixture)
        except Exception as exc:  # the contract: raising rejects the turn
            return AdapterResult.rejection(f"{type(exc).__name__}: {exc}")
        return AdapterResult(
            calls=parse_calls(answer, source=self.name), rejected=False, invalid=()
        )


def load_callable_adapter(spec: str) -> CallableAdapter:
    """``"package.module:function"`` (dotted attribute path allowed after the colon)."""
    module_name, sep, attr_path = spec.partition(":")
    if not sep or not module_name or not attr_path:
        raise ValueError(f"expected 'package.module:function', got {spec!r}")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise AdapterUnavailable(spec, module_name, extra=None, cause=exc) from exc
    for part in attr_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"{spec!r}: {module_name} has no attribute {attr_path!r}") from None
    if not callable(target):
        raise ValueError(f"{spec!r} is not callable")
    return CallableAdapter(target, name=spec)


class CommandAdapter(Adapter):
    """Runs ``cmd`` (no shell) with the fixture JSON on stdin; see module docs."""

    package = ""
    profiles = ALL_PROFILES
    extra = None

    def __init__(
        self, cmd: str, timeout: float = 30.0, *, env: Mapping[str, str] | None = None
    ) -> None:
        self.argv = shlex.split(cmd)
        if not self.argv:
            raise ValueError("empty command")
        self.cmd = cmd
        self.timeout = timeout
        self.env = dict(env) if env is not None else None
        self.name = f"cmd:{cmd}"

    def available(self) -> bool:
        program = self.argv[0]
        if os.sep in program or (os.altsep and os.altsep in program):
            return os.path.isfile(program) and os.access(program, os.X_OK)
        return shutil.which(program) is not None

    def library_version(self) -> str | None:
        return None

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        fixture_profile(fixture)
        payload = json.dumps(fixture, ensure_ascii=False, allow_nan=False).encode("utf-8")
        try:
            proc = subprocess.run(
                self.argv,
                input=payload,
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
        try:
            answer = json.loads(proc.stdout.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            snippet = proc.stdout[:200].decode("utf-8", "replace")
            raise AdapterOutputError(
                f"{self.name}: stdout is not JSON ({exc}): {snippet!r}"
            ) from exc
        return AdapterResult(
            calls=parse_calls(answer, source=self.name), rejected=False, invalid=()
        )
