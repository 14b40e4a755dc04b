"""One benchmark measurement, run in its own process by ``bench/run.py``.

    python bench/measure.py PROFILE SHAPE CHUNKS SUBJECT [--repeat N] [--budget S] [--memory]

prints one JSON object: ``times`` (seconds, one per run), ``median``,
``peak`` (tracemalloc peak in bytes of the measured call, its input
excluded) or ``over_budget``.  A measurement is cut by SIGALRM once it has
run ``--budget`` seconds; it is then reported as over budget rather than
waited for.

Subjects (what is timed):

``floor``       ``json.loads`` of the fixture file's bytes, joining each call's
                argument fragments, one ``json.loads`` of each call's arguments;
``floor-nogc``  the floor with the cyclic GC paused during ``json.loads`` (as
                toolstream's own fixture parse does);
``floor-events`` the same from the pre-parsed stream (no file parse);
``validate_bytes`` ``toolstream.validate_bytes`` on the file's bytes (strict
                parse, profile, slot machine, strict arguments parse, schema);
``validate_bytes-nogc`` the same with the cyclic GC paused for the whole call
                (the linear target compares it with ``floor-nogc``);
``gate``        ``toolstream.Gate`` fed the pre-parsed chunks one by one, then
                ``close()``;
``openai-python`` ``ChatCompletionStreamState.handle_chunk`` on each chunk built
                with ``construct_type`` as the SDK's ``Stream`` does, then
                ``get_final_completion()`` (non-strict tools: no JSON parse);
``anthropic-python`` ``accumulate_event`` on each event built with
                ``construct_type`` (``ping`` skipped), as ``MessageStream`` does;
(``langchain-core`` is no longer measured here: its adapter now runs the
real integrations over HTTP, whose cost is the client runs' in
docs/performance.md, "Clients over HTTP".)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import streams  # noqa: E402

CACHE = Path(os.environ.get("TOOLSTREAM_BENCH_CACHE", "/tmp/toolstream-bench"))


MIN_TOTAL = 1.0
MAX_RUNS = 41


class OverBudget(Exception):
    pass


def stream_bytes(profile: str, shape: str, chunks: int) -> bytes:
    """The fixture file's bytes, generated once and cached."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{profile}-{shape}-{chunks}.json"
    if not path.exists():
        data = streams.build(profile, shape, chunks).dumps()
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    return path.read_bytes()


# -- subjects: each takes (bytes, parsed fixture) and returns a thunk ----------------


def _fragments_openai(fixture: dict[str, Any]) -> dict[int, list[str]]:
    parts: dict[int, list[str]] = {}
    for chunk in fixture["chunks"]:
        for choice in chunk["choices"]:
            delta = choice.get("delta")
            if not delta:
                continue
            for call in delta.get("tool_calls") or ():
                text = call["function"].get("arguments")
                if text:
                    parts.setdefault(call["index"], []).append(text)
    return parts


def _fragments_anthropic(fixture: dict[str, Any]) -> dict[int, list[str]]:
    parts: dict[int, list[str]] = {}
    for event in fixture["events"]:
        if event["type"] == "content_block_delta":
            delta = event["delta"]
            if delta["type"] == "input_json_delta":
                parts.setdefault(event["index"], []).append(delta["partial_json"])
    return parts


def _reassemble(fixture: dict[str, Any]) -> list[Any]:
    collect = _fragments_openai if fixture["profile"] == "openai" else _fragments_anthropic
    parts = collect(fixture)
    return [json.loads("".join(parts[k])) for k in sorted(parts)]


def subject_floor(data: bytes, fixture: Any) -> Callable[[], Any]:
    return lambda: _reassemble(json.loads(data))


def subject_floor_nogc(data: bytes, fixture: Any) -> Callable[[], Any]:
    """The floor with the cyclic collector paused during the file parse, as
    ``toolstream.envelope.parse_fixture_text`` does."""

    def run() -> Any:
        enabled = gc.isenabled()
        gc.disable()
        try:
            parsed = json.loads(data)
        finally:
            if enabled:
                gc.enable()
        return _reassemble(parsed)

    return run


def subject_floor_events(data: bytes, fixture: Any) -> Callable[[], Any]:
    return lambda: _reassemble(fixture)


def subject_validate_bytes(data: bytes, fixture: Any) -> Callable[[], Any]:
    import toolstream

    def run() -> Any:
        report = toolstream.validate_bytes(data)
        if report.status != "pass":
            raise AssertionError(report.to_json()[:2000])
        return report

    return run


def subject_validate_bytes_nogc(data: bytes, fixture: Any) -> Callable[[], Any]:
    """``validate_bytes`` with the cyclic collector paused for the whole call:
    the numerator of the linear target, whose denominator is ``floor-nogc``
    (a collection's cost grows with the live heap, so with it running neither
    side is linear and the ratio measures the collector)."""
    check = subject_validate_bytes(data, fixture)

    def run() -> Any:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return check()
        finally:
            if enabled:
                gc.enable()

    return run


def subject_gate(data: bytes, fixture: Any) -> Callable[[], Any]:
    import toolstream

    stream = fixture["chunks" if fixture["profile"] == "openai" else "events"]

    def run() -> Any:
        gate = toolstream.Gate(fixture["profile"], fixture["tool_schemas"], fixture.get("request"))
        feed = gate.feed
        for item in stream:
            feed(item)
        report = gate.close()
        if report.status != "pass":
            raise AssertionError(report.to_json()[:2000])
        return report

    return run


def subject_openai_python(data: bytes, fixture: Any) -> Callable[[], Any]:
    from openai._models import construct_type
    from openai._types import omit
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    chunks = fixture["chunks"]
    tools: Any = [
        {"type": "function", "function": {"name": name, "parameters": schema}}
        for name, schema in fixture["tool_schemas"].items()
    ]

    def run() -> Any:
        state = ChatCompletionStreamState(input_tools=tools, response_format=omit)
        handle = state.handle_chunk
        for body in chunks:
            chunk: Any = construct_type(type_=ChatCompletionChunk, value=body)
            handle(chunk)
        completion = state.get_final_completion()
        calls: Any = completion.choices[0].message.tool_calls
        return [c.function.arguments for c in calls]

    return run


def subject_anthropic_python(data: bytes, fixture: Any) -> Callable[[], Any]:
    from anthropic._models import construct_type
    from anthropic.lib.streaming._messages import accumulate_event
    from anthropic.types import RawMessageStreamEvent

    events = fixture["events"]

    def run() -> Any:
        snapshot = None
        bufs: dict[int, bytes] = {}
        for body in events:
            if body["type"] == "ping":
                continue
            event: Any = construct_type(type_=RawMessageStreamEvent, value=body)
            snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=bufs)
        assert snapshot is not None
        return [b.input for b in snapshot.content if b.type == "tool_use"]

    return run


SUBJECTS: dict[str, Callable[[bytes, Any], Callable[[], Any]]] = {
    "floor": subject_floor,
    "floor-nogc": subject_floor_nogc,
    "floor-events": subject_floor_events,
    "validate_bytes": subject_validate_bytes,
    "validate_bytes-nogc": subject_validate_bytes_nogc,
    "gate": subject_gate,
    "openai-python": subject_openai_python,
    "anthropic-python": subject_anthropic_python,
}
LIBRARY_OF = {
    "openai-python": "openai",
    "anthropic-python": "anthropic",
}
PROFILES_OF = {
    "openai-python": ("openai",),
    "anthropic-python": ("anthropic",),
}


def _alarm(signum: int, frame: Any) -> None:
    raise OverBudget


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_rss_peak() -> bool:
    """Reset VmHWM (Linux: ``echo 5 > /proc/self/clear_refs``)."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        return False
    return True


def measure(
    profile: str, shape: str, chunks: int, subject: str, repeat: int, budget: float, memory: bool
) -> dict[str, Any]:
    data = stream_bytes(profile, shape, chunks)
    fixture = json.loads(data)
    thunk = SUBJECTS[subject](data, fixture)
    out: dict[str, Any] = {"profile": profile, "shape": shape, "chunks": chunks, "subject": subject}
    out["stream_chunks"] = len(fixture["chunks" if profile == "openai" else "events"])
    out["file_bytes"] = len(data)
    signal.signal(signal.SIGALRM, _alarm)
    # warm up (lazy imports, pydantic schema building) on the smallest size
    small = stream_bytes(profile, shape, 1000)
    SUBJECTS[subject](small, json.loads(small))()
    if memory:
        # First, in a fresh heap: the resident-set high-water mark above the
        # resident size before the call.  It sees memory that tracemalloc
        # cannot (pydantic-core and jiter allocate in Rust).  This run also
        # counts as the first timed run.
        gc.collect()
        if _reset_rss_peak():
            before = _status_kib("VmRSS")
            try:
                signal.setitimer(signal.ITIMER_REAL, budget)
                start = time.perf_counter()
                result = thunk()
                first = time.perf_counter() - start
                signal.setitimer(signal.ITIMER_REAL, 0)
                out["rss_peak"] = (_status_kib("VmHWM") - before) * 1024
                del result
            except OverBudget:
                out["peak_over_budget"] = True
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    times: list[float] = []
    spent = 0.0
    if "rss_peak" in out:
        times.append(first)
        spent = first
    if out.get("peak_over_budget"):
        out["over_budget"] = True
        repeat = 0
    try:
        # at least ``repeat`` runs (short ones: until MIN_TOTAL seconds, at most
        # MAX_RUNS, for a stable median on a busy machine); never past half the
        # budget
        runs = len(times)
        while runs < MAX_RUNS and (runs < repeat or spent < MIN_TOTAL):
            if spent > budget / 2:
                break
            runs += 1
            gc.collect()
            signal.setitimer(signal.ITIMER_REAL, max(0.01, budget - spent))
            start = time.perf_counter()
            result = thunk()
            elapsed = time.perf_counter() - start
            signal.setitimer(signal.ITIMER_REAL, 0)
            del result
            times.append(elapsed)
            spent += elapsed
    except OverBudget:
        out["over_budget"] = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    out["times"] = times
    out["median"] = statistics.median(times) if times and not out.get("over_budget") else None
    slow = out["median"] is not None and out["median"] * 4 > budget
    if slow:
        out["peak_skipped"] = True  # tracemalloc would take longer than the budget
    if memory and not slow and not out.get("over_budget") and not out.get("peak_over_budget"):
        # tracemalloc slows Python code 2-4x: give it its own, larger budget
        gc.collect()
        tracemalloc.start()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        try:
            signal.setitimer(signal.ITIMER_REAL, budget * 3)
            result = thunk()
            signal.setitimer(signal.ITIMER_REAL, 0)
            out["peak"] = tracemalloc.get_traced_memory()[1] - base
            del result
        except OverBudget:
            out["peak_over_budget"] = True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            tracemalloc.stop()
    return out


def paired(
    profile: str, shape: str, chunks: int, subjects: list[str], budget: float
) -> dict[str, Any]:
    """Time ``subjects`` alternately in one process (same load for all): the
    median of each and the median of each one's ratio to the first, per round."""
    data = stream_bytes(profile, shape, chunks)
    fixture = json.loads(data)
    thunks = [SUBJECTS[name](data, fixture) for name in subjects]
    for thunk in thunks:
        thunk()  # warm up
    times: dict[str, list[float]] = {name: [] for name in subjects}
    ratios: dict[str, list[float]] = {name: [] for name in subjects}
    deadline = time.monotonic() + budget
    rounds = 0
    while rounds < MAX_RUNS and (rounds < 5 or time.monotonic() < deadline - budget * 0.9):
        if rounds >= 5 and time.monotonic() > deadline:
            break
        rounds += 1
        row = []
        for name, thunk in zip(subjects, thunks, strict=True):
            gc.collect()
            start = time.perf_counter()
            thunk()
            row.append(time.perf_counter() - start)
            times[name].append(row[-1])
        for name, elapsed in zip(subjects, row, strict=True):
            ratios[name].append(elapsed / row[0])
    return {
        "profile": profile,
        "shape": shape,
        "chunks": chunks,
        "rounds": rounds,
        "median": {name: statistics.median(t) for name, t in times.items()},
        "ratio": {name: statistics.median(r) for name, r in ratios.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", choices=("openai", "anthropic"))
    parser.add_argument("shape", choices=("single", "par16"))
    parser.add_argument("chunks", type=int)
    parser.add_argument(
        "subject",
        help=f"one of {sorted(SUBJECTS)}; several, comma-separated,"
        " are timed alternately (paired mode, no memory)",
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--memory", action="store_true")
    args = parser.parse_args(argv)
    if "," in args.subject:
        names = args.subject.split(",")
        unknown = sorted(set(names) - set(SUBJECTS))
        if unknown:
            parser.error(f"unknown subjects {unknown}")
        print(json.dumps(paired(args.profile, args.shape, args.chunks, names, args.budget)))
        return 0
    if args.subject not in SUBJECTS:
        parser.error(f"unknown subject {args.subject!r}")
    result = measure(
        args.profile, args.shape, args.chunks, args.subject, args.repeat, args.budget, args.memory
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
