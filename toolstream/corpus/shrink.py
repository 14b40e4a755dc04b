"""Minimize a fixture while the same failure still reproduces.

The shrinker repeats six reduction passes until a whole round changes
nothing:

1. drop stream items (chunks or events), largest blocks first;
2. drop slots: every piece of one tool call / content block at once;
3. drop elements of lists inside the stream (choices, ``tool_calls``
   entries, ...) and fields anywhere outside the tool schemas (``usage``,
   ``model``, ``request``, an unused tool, ...);
4. merge adjacent argument fragments of one slot into one;
5. inside an argument text that holds a whole JSON object or array: make it
   compact, drop members and elements, shorten the strings inside;
6. shorten every string inside the stream (argument fragments, ids, names,
   text), largest cuts first.

Each pass ends by trying every single-step reduction of its kind, so the
result is *1-minimal*: no single reduction listed by :func:`neighbours`
keeps the predicate true (unless the test budget ran out, which the result
says).  Fixtures are treated as immutable: every candidate is a new object
sharing the untouched parts.

A predicate sees the candidate fixture and its bytes (the candidate written
with the corpus' JSON writer): the validator always judges those bytes, so
the minimized file behaves exactly as it did during shrinking.

Standard library only; ``--adapter`` imports ``toolstream.adapters`` lazily.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolstream.api import validate_bytes
from toolstream.caseio import dump_json
from toolstream.corpus.label import compare, label_problems, report_summary
from toolstream.profiles import PROFILES
from toolstream.report import Report

Path_ = tuple[Any, ...]
DEFAULT_MAX_TESTS = 20_000


class ShrinkError(Exception):
    """The shrink cannot start (e.g. the failure does not reproduce on the
    original).  ``usage`` marks a problem with how it was asked for."""

    def __init__(self, message: str, *, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


def encode(fixture: Any) -> bytes:
    return dump_json(fixture).encode("ascii")


# -- predicates --------------------------------------------------------------


class Predicate:
    """``predicate(fixture, data) -> bool``: does the failure still reproduce?"""

    description = ""

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:  # pragma: no cover
        raise NotImplementedError

    def check_original(self, data: bytes) -> None:
        """Raise :class:`ShrinkError` when this predicate cannot say anything
        about the case ``data`` (before any shrinking).  Nothing by default."""

    def close(self) -> None:
        """Release resources (temporary files)."""


class VerdictKept(Predicate):
    """``inner`` holds and the reference verdict keeps its class (``pass``,
    ``blocked`` or ``not_applicable``) from the original.  :func:`shrink`
    wraps every predicate in it unless asked not to: a blocked case that
    shrinks to ``not_applicable`` (no call left) no longer shows the bug."""

    def __init__(self, inner: Predicate, status: str) -> None:
        self.inner = inner
        self.status = status
        self.description = f"{inner.description}, the reference still says {status}"

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
        return validate_bytes(data).status == self.status and bool(self.inner(fixture, data))

    def check_original(self, data: bytes) -> None:
        self.inner.check_original(data)

    def close(self) -> None:
        self.inner.close()


class LabelDisagreement(Predicate):
    """The default: the validator still gives the verdict (status and code
    set) it gave on the original, and that verdict still contradicts the
    label.  Pinning the verdict keeps the shrink on the same failure instead
    of sliding to any other disagreement (an empty stream contradicts most
    labels)."""

    def __init__(self, expect: Mapping[str, Any], original: Report) -> None:
        problems = label_problems(expect)
        if problems:
            raise ShrinkError("the case's label is unusable: " + "; ".join(problems), usage=True)
        self.expect = expect
        self.target = (original.status, tuple(original.codes))
        self.description = f"the validator still says {report_summary(original)} against the label"

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
        report = validate_bytes(data)
        if (report.status, tuple(report.codes)) != self.target:
            return False
        return bool(compare(self.expect, report))


class CodePresent(Predicate):
    """The validator still reports finding ``code``."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.description = f"finding {code} is still reported"

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
        return self.code in validate_bytes(data).codes


class CommandFails(Predicate):
    """An external command still fails: it gets the path of the candidate
    fixture (appended as the last argument, or substituted for every ``{}``)
    and a nonzero exit status means "still failing".  A run that outlives
    ``timeout`` seconds counts as not failing."""

    def __init__(self, command: str, *, timeout: float = 30.0) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise ShrinkError(f"cannot parse --command: {error}", usage=True) from None
        if not argv:
            raise ShrinkError("--command is empty", usage=True)
        self.argv = argv
        self.timeout = timeout
        self._dir = tempfile.TemporaryDirectory(prefix="toolstream-shrink-")
        self.path = os.path.join(self._dir.name, "candidate.json")
        self.description = f"command {command!r} still exits nonzero"

    def command_line(self) -> list[str]:
        if any("{}" in arg for arg in self.argv):
            return [arg.replace("{}", self.path) for arg in self.argv]
        return [*self.argv, self.path]

    def _run(self, data: bytes, *, capture: bool) -> tuple[int, bytes] | None:
        """(exit status, stdout + stderr when ``capture``), or ``None`` on a timeout."""
        with open(self.path, "wb") as handle:
            handle.write(data)
        sink = subprocess.PIPE if capture else subprocess.DEVNULL
        try:
            done = subprocess.run(
                self.command_line(),
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT if capture else subprocess.DEVNULL,
                timeout=self.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return None
        except OSError as error:
            raise ShrinkError(
                f"cannot run {self.argv[0]!r}: {error.strerror or error}", usage=True
            ) from None
        return done.returncode, done.stdout or b""

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
        done = self._run(data, capture=False)
        return done is not None and done[0] != 0

    def check_original(self, data: bytes) -> None:
        """Refuse a command that fails on an empty fixture ``{}`` exactly as
        on the case (same exit status, same output): it does not look at
        the case (a missing script, a typo in the command), and shrinking
        under it would "succeed" with ``{}``."""
        original = self._run(data, capture=True)
        if original is None or original[0] == 0:
            return  # shrink() reports that the failure does not reproduce
        if self._run(b"{}", capture=True) == original:
            shown = original[1].decode("utf-8", "replace").strip()
            shown = " ".join(shown.split())[:200]
            raise ShrinkError(
                f"the predicate does not depend on the case: {' '.join(self.argv)!r} fails"
                f" on an empty fixture exactly as on the case (exit status {original[0]}"
                + (f": {shown}" if shown else "")
                + ")",
                usage=True,
            )

    def close(self) -> None:
        self._dir.cleanup()


def load_adapter(name: str, *, reject_on: Sequence[str] = ()) -> Any:
    """An adapter ready to run, resolved exactly as ``toolstream diff``
    resolves ``--adapter`` (a registry name, ``cmd:``/``lines:`` command,
    or ``package.module:function`` imported from the installed packages or
    the current directory); raises ShrinkError(usage=True) when the
    adapters package, the adapter or its library is missing."""
    try:
        from toolstream.adapters.base import AdapterUnavailable
        from toolstream.diff.runner import AdapterSpecError, UserOptions, resolve_spec
    except ImportError as error:
        raise ShrinkError(
            f"--adapter needs the toolstream.adapters package, which cannot be imported ({error})",
            usage=True,
        ) from None
    try:
        adapter = resolve_spec(name, options=UserOptions(reject_on=tuple(reject_on)))
        available = adapter.available()
    except (AdapterSpecError, AdapterUnavailable) as error:
        raise ShrinkError(str(error), usage=True) from None
    if not available:
        package = getattr(adapter, "package", "") or "its program"
        raise ShrinkError(
            f"adapter {name!r} needs {package!r}, which is not importable or not found;"
            f" install it with: pip install 'toolstream[adapters]'",
            usage=True,
        )
    return adapter


class AdapterDisagreement(Predicate):
    """The adapter still disagrees with the reference the same way as on the
    original, by the one definition ``toolstream diff`` uses
    (:func:`toolstream.diff.disagreement`: the classification, the exception
    type of a crash, the differing fields of wrong calls).  The reference
    judges the candidate's bytes, and must keep its codes too: an adapter
    that executes every truncated turn also executes one with a bad index,
    and sliding from one to the other would shrink a different bug."""

    def __init__(self, adapter: Any) -> None:
        self.adapter = adapter
        self.name = getattr(adapter, "name", type(adapter).__name__)
        self.target: str | None = None
        self.codes: tuple[str, ...] = ()
        self.description = f"adapter {self.name!r} still disagrees with the reference"

    def outcome(self, data: bytes) -> str | None:
        """How the adapter disagrees (``Outcome.signature``), or ``None``."""
        from toolstream.diff import disagreement

        return disagreement(json.loads(data), self.adapter, data=data)

    def start(self, data: bytes) -> str | None:
        self.target = self.outcome(data)
        report = validate_bytes(data)
        self.codes = tuple(report.codes)
        if self.target is not None:
            self.description = (
                f"adapter {self.name!r} still disagrees: {self.target}"
                f" (reference: {report_summary(report)})"
            )
        return self.target

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
        if self.target is None or tuple(validate_bytes(data).codes) != self.codes:
            return False
        return self.outcome(data) == self.target

    def close(self) -> None:
        close = getattr(self.adapter, "close", None)
        if callable(close):
            close()


def load_client(spec: str, *, timeout: float = 30.0) -> Any:
    """A client (``NAME[@TRANSPORT]``, as ``diff --client``) ready to run, as
    the adapter ``toolstream diff`` makes of it.  Raises :class:`ShrinkError`
    (usage) for an unknown client, an unknown transport, a missing library or
    a transport the client cannot receive."""
    from toolstream.adapters.spec import parse_client
    from toolstream.clients.harness import client_adapter

    try:
        adapter = client_adapter(spec, timeout=timeout)
    except KeyError:
        from toolstream.clients.registry import CLIENTS

        raise ShrinkError(
            f"unknown client {parse_client(spec).name!r}; use one of {', '.join(CLIENTS)}",
            usage=True,
        ) from None
    except ValueError as error:  # an unknown transport
        raise ShrinkError(str(error), usage=True) from None
    reason = adapter.unavailable_reason()
    if reason is not None:
        raise ShrinkError(reason, usage=True)
    return adapter


class ClientDisagreement(AdapterDisagreement):
    """:class:`AdapterDisagreement` for a real client driven over HTTP, each
    candidate judged exactly as ``toolstream diff --client`` judges a case:
    served by ``toolstream serve`` (the case under its content address, the
    transport applied by the server) and, for a cut transport, the
    reference judging the prefix the client receives.  A cut transport
    shrinks the case, not the cut point: every candidate is cut again where
    the transport says (half-way through its middle record)."""

    def __init__(self, adapter: Any) -> None:
        super().__init__(adapter)
        self.spec = f"client:{adapter.name}"
        self.description = f"client {self.name!r} still disagrees with the reference"

    def _judged(self, data: bytes) -> tuple[tuple[str, ...], Any]:
        """(the reference's codes on what the client receives, the client's
        outcome) on ``data``, by :func:`toolstream.diff.session.judge_case`:
        the one way ``diff`` judges a case."""
        from toolstream.diff.session import judge_case

        row = judge_case(json.loads(data), self.spec)
        outcome = row.outcomes[self.name]
        received = row.judged.get(self.name)
        codes = received[1].codes if received is not None else row.codes
        return tuple(codes), outcome

    def outcome(self, data: bytes) -> str | None:
        _, outcome = self._judged(data)
        signature: str | None = outcome.signature
        return signature

    def start(self, data: bytes) -> str | None:
        codes, outcome = self._judged(data)
        self.target = outcome.signature
        self.codes = codes
        if self.target is not None:
            verdict = f"[{', '.join(codes)}]" if codes else "no finding"
            self.description = (
                f"client {self.name!r} still disagrees: {self.target}"
                f" (reference on what it receives: {verdict})"
            )
        return self.target

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
        if self.target is None:
            return False
        codes, outcome = self._judged(data)
        return codes == self.codes and outcome.signature == self.target


# -- immutable edits ---------------------------------------------------------


def get_at(obj: Any, path: Path_) -> Any:
    for step in path:
        obj = obj[step]
    return obj


def set_at(obj: Any, path: Path_, value: Any) -> Any:
    """A copy of ``obj`` with ``path`` set to ``value`` (containers along the
    path are copied, everything else shared)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(obj, list):
        out_list = list(obj)
        out_list[head] = set_at(obj[head], rest, value)
        return out_list
    out = dict(obj)
    out[head] = set_at(obj[head], rest, value) if rest else value
    return out


def delete_at(obj: Any, path: Path_) -> Any:
    """A copy of ``obj`` without the key or list element at ``path``."""
    parent_path, last = path[:-1], path[-1]
    parent = get_at(obj, parent_path)
    if isinstance(parent, list):
        new_parent: Any = parent[:last] + parent[last + 1 :]
    else:
        new_parent = {k: v for k, v in parent.items() if k != last}
    return set_at(obj, parent_path, new_parent)


def stream_key(fixture: Mapping[str, Any]) -> str | None:
    """The key of the stream list: the profile's, or whichever is a list."""
    name = fixture.get("profile")
    profile = PROFILES.get(name) if isinstance(name, str) else None
    if profile is not None:
        key = profile.stream_key
        return key if isinstance(fixture.get(key), list) else None
    for key in ("chunks", "events"):
        if isinstance(fixture.get(key), list):
            return key
    return None


def _walk(obj: Any, path: Path_) -> Iterator[tuple[Path_, Any]]:
    """Pre-order walk of every value below ``obj``."""
    yield path, obj
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _walk(value, (*path, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            yield from _walk(value, (*path, index))


def nested_lists(fixture: Mapping[str, Any]) -> list[Path_]:
    """Paths of the lists inside stream items, deepest first (post-order),
    so editing one never moves another still to be edited."""
    key = stream_key(fixture)
    if key is None:
        return []
    found = [p for p, v in _walk(fixture[key], (key,)) if isinstance(v, list) and len(p) > 1]
    # An edit of a list only moves paths inside it; _walk yields a list
    # before everything inside it, so in reverse those come first.
    return list(reversed(found))


ENVELOPE = ("profile", "tool_schemas")
"""Top-level keys never dropped (with the stream's own key): without them a
fixture is another input class (``invalid_envelope``) that says nothing
about the failure being shrunk."""


def _called(fixture: Mapping[str, Any], name: str) -> bool:
    """Whether the stream may still call tool ``name`` (it appears anywhere
    in the stream's text: conservative, a schema is kept when in doubt)."""
    key = stream_key(fixture)
    if key is None:
        return False
    return json.dumps(name)[1:-1] in json.dumps(fixture[key], ensure_ascii=False)


def field_paths(fixture: Mapping[str, Any]) -> list[Path_]:
    """Every droppable field: top-level keys but the envelope
    (:data:`ENVELOPE` and the stream), tools of ``tool_schemas`` that the
    stream no longer calls, and every key of every object inside
    ``request`` and the stream (pre-order: a parent is tried before its
    children)."""
    out: list[Path_] = []
    stream = stream_key(fixture)
    for key, value in fixture.items():
        if key not in ENVELOPE and key != stream:
            out.append((key,))
        if key == "tool_schemas" and isinstance(value, dict):
            out.extend((key, name) for name in value if not _called(fixture, name))
        elif key in ("request", stream_key(fixture)):
            for path, item in _walk(value, (key,)):
                if isinstance(item, dict) and path:
                    out.extend((*path, k) for k in item)
    return out


def string_paths(fixture: Mapping[str, Any]) -> list[Path_]:
    key = stream_key(fixture)
    if key is None:
        return []
    return [p for p, v in _walk(fixture[key], (key,)) if isinstance(v, str) and v]


# -- slots and fragments -----------------------------------------------------
#
# Where a stream's slots and argument fragments live is each profile's
# knowledge (``Profile.slot_pieces``), not the shrinker's: a new wire format
# gets slot and fragment passes by saying it in its profile.


def _pieces(fixture: Mapping[str, Any]) -> list[tuple[Any, Path_, Path_ | None, bool]]:
    """(slot, path to delete, path of its argument text, mergeable) for
    every piece of every slot, in stream order, paths from the fixture."""
    key = stream_key(fixture)
    name = fixture.get("profile")
    profile = PROFILES.get(name) if isinstance(name, str) else None
    if key is None or profile is None:
        return []
    return [
        (
            piece.slot,
            (key, *piece.path),
            (key, *piece.text) if piece.text is not None else None,
            piece.plain,
        )
        for piece in profile.slot_pieces(fixture[key])
    ]


def slots(fixture: Mapping[str, Any]) -> list[Any]:
    """The slot keys present in the stream, in order of first appearance."""
    return list(dict.fromkeys(slot for slot, _, _, _ in _pieces(fixture)))


def drop_slot(fixture: Mapping[str, Any], slot: Any) -> Any:
    """Every piece of ``slot`` removed (its events, or its ``tool_calls``
    entries)."""
    doomed = sorted({path for s, path, _, _ in _pieces(fixture) if s == slot}, reverse=True)
    out: Any = fixture
    for path in doomed:  # later paths first keeps earlier ones valid
        out = delete_at(out, path)
    return out


def _fragments(fixture: Mapping[str, Any]) -> list[tuple[Any, Path_, Path_, bool]]:
    """The pieces of each slot that carry argument text, in stream order:
    (slot, path of its text, what to delete when it is merged into the
    previous piece, whether it can be: it carries only text).  A piece
    without text of its own (an OpenAI entry carrying id and name) can still
    take the text of the next one."""
    return [
        (slot, text, path, plain)
        for slot, path, text, plain in _pieces(fixture)
        if text is not None
    ]


def fragment_pairs(fixture: Mapping[str, Any]) -> list[tuple[Path_, Path_, Path_]]:
    """Adjacent pieces of one slot: (first text, second text, what to drop)."""
    last: dict[Any, Path_] = {}
    pairs = []
    for slot, text_path, drop_path, mergeable in _fragments(fixture):
        if slot in last and mergeable:
            pairs.append((last[slot], text_path, drop_path))
        last[slot] = text_path
    return pairs


def merge_pair(fixture: Any, first: Path_, second: Path_, drop: Path_) -> Any:
    head = get_at(fixture, first[:-1]).get(first[-1]) or ""
    merged = head + get_at(fixture, second)
    return delete_at(set_at(fixture, first, merged), drop)


# -- JSON inside argument texts ----------------------------------------------


def compact(value: Any) -> str:
    """The compact JSON text of a parsed argument value."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def parse_container(text: str) -> Any:
    """The parsed JSON object/array ``text`` holds, or None."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, (dict, list)) else None


def argument_texts(fixture: Mapping[str, Any]) -> list[Path_]:
    """Argument texts of slot pieces that hold a whole JSON object or array."""
    out = []
    for _, text, _, _ in _fragments(fixture):
        if _exists(fixture, text):
            value = get_at(fixture, text)
            if isinstance(value, str) and parse_container(value) is not None:
                out.append(text)
    return out


def json_steps(text: str) -> Iterator[tuple[str, str]]:
    """Single JSON-level reductions of an argument text: its compact form
    when it is not compact already; otherwise dropping one member or element
    anywhere inside, or one character of a string inside."""
    doc = parse_container(text)
    if doc is None:
        return
    if compact(doc) != text:
        yield "compact", compact(doc)
        return
    inner = list(_walk(doc, ()))
    for path, _ in inner[1:]:
        yield f"drop {_show(path) or '.'}", compact(delete_at(doc, path))
    for path, value in inner:
        if isinstance(value, str):
            for i in range(len(value)):
                shorter = set_at(doc, path, value[:i] + value[i + 1 :])
                yield f"delete character {i} of {_show(path)}", compact(shorter)


# -- the single-step reductions ------------------------------------------------


def neighbours(fixture: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every single-step reduction of ``fixture``, described.  A shrunk
    fixture is 1-minimal when the predicate holds for none of these.  (Only
    candidates that are smaller when written count: the shrinker accepts
    nothing else, which is what makes it terminate.)"""
    size = len(encode(fixture))
    for description, candidate in _all_steps(fixture):
        if len(encode(candidate)) < size:
            yield description, candidate


def _all_steps(fixture: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    key = stream_key(fixture)
    if key is not None:
        for i in range(len(fixture[key])):
            yield f"drop {key}[{i}]", delete_at(fixture, (key, i))
    for slot in slots(fixture):
        yield f"drop slot {slot}", drop_slot(fixture, slot)
    for path in nested_lists(fixture):
        for i in range(len(get_at(fixture, path))):
            yield f"drop {_show(path)}[{i}]", delete_at(fixture, (*path, i))
    for path in field_paths(fixture):
        yield f"drop field {_show(path)}", delete_at(fixture, path)
    for first, second, drop in fragment_pairs(fixture):
        yield f"merge {_show(second)} into {_show(first)}", merge_pair(fixture, first, second, drop)
    for path in argument_texts(fixture):
        for description, text in json_steps(get_at(fixture, path)):
            yield f"{_show(path)}: {description}", set_at(fixture, path, text)
    for path in string_paths(fixture):
        text = get_at(fixture, path)
        for i in range(len(text)):
            yield (
                f"delete character {i} of {_show(path)}",
                set_at(fixture, path, text[:i] + text[i + 1 :]),
            )


def _show(path: Path_) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


# -- the shrinker ------------------------------------------------------------


class _Budget(Exception):
    pass


@dataclass
class ShrinkResult:
    fixture: Any
    tests: int
    """Predicate evaluations (cache hits excluded)."""
    reductions: int
    """Accepted reductions."""
    minimal: bool
    """False when the test budget ran out (or the run was interrupted)
    before a fixpoint."""
    interrupted: bool = False
    """Ctrl-C stopped the run; ``fixture`` is the smallest failing one so far."""
    predicate: str = ""
    """What was kept true (the predicate's description, verdict pin included)."""


class _State:
    def __init__(
        self,
        fixture: Any,
        predicate: Predicate,
        max_tests: int,
        on_progress: Callable[[int, int], None] | None,
    ) -> None:
        self.current = fixture
        self.size = len(encode(fixture))
        self.predicate = predicate
        self.max_tests = max_tests
        self.on_progress = on_progress
        self.tests = 0
        self.reductions = 0
        self.cache: dict[bytes, bool] = {}

    def test(self, candidate: Any) -> bool:
        """Accept ``candidate`` if it is smaller and still fails."""
        data = encode(candidate)
        if len(data) >= self.size:  # every reduction shrinks the bytes: termination
            return False
        digest = hashlib.sha256(data).digest()
        verdict = self.cache.get(digest)
        if verdict is None:
            if self.tests >= self.max_tests:
                raise _Budget
            self.tests += 1
            verdict = bool(self.predicate(candidate, data))
            self.cache[digest] = verdict
            if self.on_progress is not None:
                self.on_progress(self.tests, self.size)
        if verdict:
            self.current = candidate
            self.size = len(data)
            self.reductions += 1
        return verdict


def _ddmin(
    state: _State, length: Callable[[], int], without: Callable[[int, int], Any | None]
) -> None:
    """Remove blocks of decreasing size (all, halves, quarters, ... single
    items) from a sequence while the predicate holds: ``length()`` is the
    sequence's current length, ``without(start, size)`` the current fixture
    without that block.  Ends having tried every single removal."""
    size = length()
    while size >= 1:
        start = 0
        while start < length():
            candidate = without(start, size)
            if candidate is None or not state.test(candidate):
                start += size
        size = size // 2 if size > 1 else 0


def _ddmin_at(state: _State, path: Path_) -> None:
    """:func:`_ddmin` on the list or string at ``path`` of the fixture."""

    def length() -> int:
        if not _exists(state.current, path):
            return 0
        value = get_at(state.current, path)
        return len(value) if isinstance(value, (list, str)) else 0

    def without(start: int, size: int) -> Any:
        value = get_at(state.current, path)
        return set_at(state.current, path, value[:start] + value[start + size :])

    _ddmin(state, length, without)


def _pass_stream(state: _State) -> None:
    key = stream_key(state.current)
    if key is not None:
        _ddmin_at(state, (key,))


def _pass_slots(state: _State) -> None:
    for slot in slots(state.current):
        if slot in slots(state.current):
            state.test(drop_slot(state.current, slot))


def _pass_lists_and_fields(state: _State) -> None:
    for path in nested_lists(state.current):
        _ddmin_at(state, path)
    for path in field_paths(state.current):
        if _exists(state.current, path):
            state.test(delete_at(state.current, path))


def _pass_merge(state: _State) -> None:
    resume = 0
    while True:
        pairs = fragment_pairs(state.current)
        for n in range(resume, len(pairs)):
            if state.test(merge_pair(state.current, *pairs[n])):
                resume = n
                break
        else:
            return


def _pass_json(state: _State) -> None:
    """Inside argument texts that hold a JSON object or array: make the text
    compact, drop members and elements, shorten the strings inside."""
    for path in argument_texts(state.current):
        if not _exists(state.current, path):
            continue
        doc = parse_container(get_at(state.current, path))
        if doc is None:
            continue
        if compact(doc) != get_at(state.current, path):
            if not state.test(set_at(state.current, path, compact(doc))):
                continue
        dropped = True
        while dropped:
            dropped = False
            doc = json.loads(get_at(state.current, path))
            for inner, _ in list(_walk(doc, ()))[1:]:
                if state.test(set_at(state.current, path, compact(delete_at(doc, inner)))):
                    dropped = True
                    break
        doc = json.loads(get_at(state.current, path))
        for inner, value in list(_walk(doc, ())):
            if isinstance(value, str) and value:
                _ddmin_inside(state, path, inner)


def _ddmin_inside(state: _State, path: Path_, inner: Path_) -> None:
    """:func:`_ddmin` on a string inside the JSON argument text at ``path``."""

    def current() -> tuple[Any, Any]:
        doc = parse_container(get_at(state.current, path))
        return doc, get_at(doc, inner)

    def length() -> int:
        return len(current()[1])

    def without(start: int, size: int) -> Any:
        doc, value = current()
        shorter = set_at(doc, inner, value[:start] + value[start + size :])
        return set_at(state.current, path, compact(shorter))

    _ddmin(state, length, without)


def _pass_strings(state: _State) -> None:
    for path in string_paths(state.current):
        _ddmin_at(state, path)


def _exists(obj: Any, path: Path_) -> bool:
    for step in path:
        if isinstance(obj, dict) and step in obj:
            obj = obj[step]
        elif isinstance(obj, list) and isinstance(step, int) and 0 <= step < len(obj):
            obj = obj[step]
        else:
            return False
    return True


PASSES = (
    _pass_stream,
    _pass_slots,
    _pass_lists_and_fields,
    _pass_merge,
    _pass_json,
    _pass_strings,
)


def shrink(
    fixture: Mapping[str, Any],
    predicate: Predicate,
    *,
    max_tests: int = DEFAULT_MAX_TESTS,
    on_progress: Callable[[int, int], None] | None = None,
    allow_verdict_change: bool = False,
) -> ShrinkResult:
    """Minimize ``fixture`` (without ``expect``/``meta``) under ``predicate``,
    kept to the original's reference verdict class (:class:`VerdictKept`)
    unless ``allow_verdict_change``.  The envelope (``profile``, the stream,
    ``tool_schemas`` of the tools still called) is never reduced away.

    Raises ShrinkError when the predicate does not hold on ``fixture``
    itself, or cannot tell anything about it (:meth:`Predicate.check_original`).
    """
    start = json.loads(encode(fixture))
    predicate.check_original(encode(start))
    if not allow_verdict_change and not isinstance(predicate, VerdictKept):
        predicate = VerdictKept(predicate, validate_bytes(encode(start)).status)
    if not predicate(start, encode(start)):
        raise ShrinkError(
            f"the failure does not reproduce on the original: {predicate.description}"
        )
    state = _State(start, predicate, max_tests, on_progress)
    minimal = True
    interrupted = False
    try:
        changed = True
        while changed:
            before = state.reductions
            for step in PASSES:
                step(state)
            changed = state.reductions != before
    except _Budget:
        minimal = False
    except KeyboardInterrupt:
        minimal = False
        interrupted = True
    return ShrinkResult(
        state.current, state.tests, state.reductions, minimal, interrupted, predicate.description
    )


@dataclass(frozen=True)
class Size:
    bytes: int
    items: int
    argument_chars: int

    def __str__(self) -> str:
        return (
            f"{self.bytes} bytes, {self.items} stream items,"
            f" {self.argument_chars} argument characters"
        )


def measure(fixture: Mapping[str, Any]) -> Size:
    """Bytes as written, stream items, and characters of argument text (the
    text of every slot piece, as its profile locates it)."""
    key = stream_key(fixture)
    if key is None:
        return Size(len(encode(fixture)), 0, 0)
    chars = 0
    for _, text, _, _ in _fragments(fixture):
        if _exists(fixture, text) and isinstance(value := get_at(fixture, text), str):
            chars += len(value)
    return Size(len(encode(fixture)), len(fixture[key]), chars)
