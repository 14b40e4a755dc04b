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
from toolstream.corpus.caseio import dump_json
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

    def close(self) -> None:
        """Release resources (temporary files)."""


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

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
        with open(self.path, "wb") as handle:
            handle.write(data)
        try:
            done = subprocess.run(
                self.command_line(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=self.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return False
        except OSError as error:
            raise ShrinkError(
                f"cannot run {self.argv[0]!r}: {error.strerror or error}", usage=True
            ) from None
        return done.returncode != 0

    def close(self) -> None:
        self._dir.cleanup()


def load_adapter(name: str) -> Any:
    """An instance of the registered adapter ``name``, ready to run; raises
    ShrinkError(usage=True) when the adapters package, the adapter or its
    library is missing."""
    try:
        from toolstream.adapters import registry
    except ImportError as error:
        raise ShrinkError(
            f"--adapter needs the toolstream.adapters package, which cannot be imported ({error})",
            usage=True,
        ) from None
    table = getattr(registry, "ADAPTERS", None)
    if not isinstance(table, Mapping):
        raise ShrinkError("toolstream.adapters.registry has no ADAPTERS table", usage=True)
    cls = table.get(name)
    resolve = getattr(registry, "resolve_adapter", None)
    if cls is None and not (":" in name and callable(resolve)):
        known = ", ".join(sorted(table)) or "none"
        raise ShrinkError(f"unknown adapter {name!r}; known: {known}", usage=True)
    try:
        # a registry name, or (through the registry) 'cmd:...' / 'package.module:function'
        adapter = cls() if cls is not None else resolve(name)  # type: ignore[misc]
        available = adapter.available() if hasattr(adapter, "available") else True
    except (ImportError, KeyError, ValueError) as error:
        raise ShrinkError(f"adapter {name!r} cannot be loaded: {error}", usage=True) from None
    except Exception as error:
        if type(error).__name__ == "AdapterUnavailable":  # its library is missing
            raise ShrinkError(str(error), usage=True) from None
        raise
    if not available:
        package = getattr(adapter, "package", "its library")
        raise ShrinkError(
            f"adapter {name!r} needs the Python package {package!r}, which is not importable;"
            f" install it with: pip install 'toolstream[adapters]'",
            usage=True,
        )
    return adapter


def _same_calls(adapter_calls: Sequence[Any], report: Report) -> bool:
    reference = report.client_calls()
    if len(adapter_calls) != len(reference):
        return False
    for mine, ref in zip(adapter_calls, reference, strict=True):
        if mine.id != ref.id or mine.name != ref.name:
            return False
        if mine.arguments is not None:
            if mine.arguments != ref.arguments:
                return False
        elif getattr(mine, "input", None) != ref.input:
            return False
    return True


class AdapterDisagreement(Predicate):
    """The adapter still disagrees with the reference in the same way as on
    the original: it hands over calls for a turn the reference does not pass,
    it rejects a turn the reference passes, its calls differ from the
    reference's, or it crashes with the same exception type; and the
    reference still gives the same verdict (status and code set), so the
    shrink cannot slide to another input class (dropping ``tool_schemas``
    makes any turn ``invalid_envelope``, which most libraries never look
    at)."""

    def __init__(self, adapter: Any) -> None:
        self.adapter = adapter
        self.name = getattr(adapter, "name", type(adapter).__name__)
        self.target: str | None = None
        self.description = f"adapter {self.name!r} still disagrees with the reference"

    def outcome(self, data: bytes) -> str | None:
        """The disagreement (with the reference's verdict), or ``None``."""
        report = validate_bytes(data)
        verdict = f"{report.status} [{', '.join(report.codes)}]"
        fixture = json.loads(data)  # a private copy: an adapter may mutate it
        try:
            result = self.adapter.run(fixture)
        except Exception as error:  # an adapter crash is a disagreement too
            if type(error).__name__ == "AdapterUnavailable":
                raise ShrinkError(str(error), usage=True) from None
            if type(error).__name__ == "UnsupportedProfile":
                return None
            return f"adapter crashes with {type(error).__name__}; the reference says {verdict}"
        if report.status == "pass":
            if result.rejected:
                return "adapter rejects a turn the reference passes"
            if not _same_calls(result.calls, report):
                return "adapter's calls differ from the reference's"
            return None
        if not result.rejected and result.calls:
            return f"adapter hands over calls for a turn the reference says is {verdict}"
        return None

    def start(self, data: bytes) -> str | None:
        self.target = self.outcome(data)
        if self.target is not None:
            self.description = f"{self.target} (adapter {self.name!r})"
        return self.target

    def __call__(self, fixture: Mapping[str, Any], data: bytes) -> bool:
        return self.target is not None and self.outcome(data) == self.target


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


def field_paths(fixture: Mapping[str, Any]) -> list[Path_]:
    """Every droppable field: top-level keys, tools of ``tool_schemas``, and
    every key of every object inside ``request`` and the stream (pre-order:
    a parent is tried before its children)."""
    out: list[Path_] = []
    for key, value in fixture.items():
        out.append((key,))
        if key == "tool_schemas" and isinstance(value, dict):
            out.extend((key, name) for name in value)
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


def _openai_entries(
    fixture: Mapping[str, Any], key: str
) -> Iterator[tuple[Path_, Any, dict[str, Any]]]:
    """(path of a tool_calls entry, slot key or None, entry) in stream order."""
    for ci, chunk in enumerate(fixture[key]):
        if not isinstance(chunk, dict) or not isinstance(chunk.get("choices"), list):
            continue
        for hi, choice in enumerate(chunk["choices"]):
            if not isinstance(choice, dict) or not isinstance(choice.get("delta"), dict):
                continue
            calls = choice["delta"].get("tool_calls")
            if not isinstance(calls, list):
                continue
            number = choice.get("index", 0)
            for ei, entry in enumerate(calls):
                if not isinstance(entry, dict):
                    continue
                index = entry.get("index")
                slot = (number, index) if type(index) is int and type(number) is int else None
                yield (key, ci, "choices", hi, "delta", "tool_calls", ei), slot, entry


def slots(fixture: Mapping[str, Any]) -> list[Any]:
    """The slot keys present in the stream, in order of first appearance."""
    key = stream_key(fixture)
    if key is None:
        return []
    seen: dict[Any, None] = {}
    if key == "events":
        for event in fixture[key]:
            if isinstance(event, dict) and type(event.get("index")) is int:
                seen.setdefault(event["index"], None)
    else:
        for _, slot, _ in _openai_entries(fixture, key):
            if slot is not None:
                seen.setdefault(slot, None)
    return list(seen)


def drop_slot(fixture: Mapping[str, Any], slot: Any) -> Any:
    """Every event of content block ``slot`` / every tool_calls entry of
    ``slot`` removed."""
    key = stream_key(fixture)
    assert key is not None
    if key == "events":
        kept = [
            e
            for e in fixture[key]
            if not (isinstance(e, dict) and type(e.get("index")) is int and e["index"] == slot)
        ]
        return set_at(fixture, (key,), kept)
    doomed = [path for path, s, _ in _openai_entries(fixture, key) if s == slot]
    out: Any = fixture
    for path in reversed(doomed):  # later entries first keeps earlier paths valid
        out = delete_at(out, path)
    return out


def _fragments(fixture: Mapping[str, Any]) -> list[tuple[Any, Path_, Path_, bool]]:
    """The pieces of each slot in stream order: (slot, path of its argument
    text, what to delete when it is merged into the previous piece, whether
    it can be merged into the previous piece: it carries only text).  An
    OpenAI entry without ``arguments`` (typically the one carrying id and
    name) can still take the text of the next piece."""
    key = stream_key(fixture)
    if key is None:
        return []
    out: list[tuple[Any, Path_, Path_, bool]] = []
    if key == "events":
        for i, event in enumerate(fixture[key]):
            if not (isinstance(event, dict) and event.get("type") == "content_block_delta"):
                continue
            delta = event.get("delta")
            if (
                type(event.get("index")) is int
                and isinstance(delta, dict)
                and delta.get("type") == "input_json_delta"
                and isinstance(delta.get("partial_json"), str)
            ):
                out.append((event["index"], (key, i, "delta", "partial_json"), (key, i), True))
        return out
    for path, slot, entry in _openai_entries(fixture, key):
        function = entry.get("function")
        if slot is None or not isinstance(function, dict):
            continue
        arguments = function.get("arguments")
        if arguments is not None and not isinstance(arguments, str):
            continue
        plain = (
            isinstance(arguments, str)
            and entry.get("id") in (None, "")
            and function.get("name") in (None, "")
        )
        chunk_path = path[:2]
        chunk = get_at(fixture, chunk_path)
        choice = chunk["choices"][path[3]]
        alone = (
            len(chunk["choices"]) == 1
            and len(choice["delta"]["tool_calls"]) == 1
            and set(choice["delta"]) == {"tool_calls"}
            and choice.get("finish_reason") is None
            and chunk.get("error") is None
        )
        drop = chunk_path if alone else path
        out.append((slot, (*path, "function", "arguments"), drop, plain))
    return out


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

ARGUMENT_KEYS = ("arguments", "partial_json")


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
    """Argument texts in the stream that hold a whole JSON object or array."""
    key = stream_key(fixture)
    if key is None:
        return []
    return [
        p
        for p, v in _walk(fixture[key], (key,))
        if isinstance(v, str) and p[-1] in ARGUMENT_KEYS and parse_container(v) is not None
    ]


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
) -> ShrinkResult:
    """Minimize ``fixture`` (without ``expect``/``meta``) under ``predicate``.

    Raises ShrinkError when the predicate does not hold on ``fixture``
    itself.
    """
    start = json.loads(encode(fixture))
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
    return ShrinkResult(state.current, state.tests, state.reductions, minimal, interrupted)


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
    """Bytes as written, stream items, and characters of argument text
    (``function.arguments`` / ``partial_json``)."""
    key = stream_key(fixture)
    if key is None:
        return Size(len(encode(fixture)), 0, 0)
    chars = 0
    for path, value in _walk(fixture[key], (key,)):
        if isinstance(value, str) and path[-1] in ("arguments", "partial_json"):
            chars += len(value)
    return Size(len(encode(fixture)), len(fixture[key]), chars)
