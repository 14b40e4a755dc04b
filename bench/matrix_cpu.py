"""CPU seconds of a whole-corpus single-transport client matrix, on one or more trees.

    python bench/matrix_cpu.py [--tree LABEL=DIR ...] [--rounds 2] [--transport cut-close]
                               [--clients NAME,NAME...] [--jobs 2] [--out DIR]

The measurement of docs/performance.md ("The matrix at scale"): one
``toolstream diff CORPUS --client C1,C2,... --transport TRANSPORT -j JOBS
--format json`` per tree and round, the trees interleaved (round 1: every
tree in the order given, then round 2, ...).  A tree is a checkout (say a
``git worktree`` of an older commit) run as ``PYTHONPATH=DIR python -m``
style: this interpreter, with ``DIR`` first on ``sys.path`` (so every
tree runs under the same installed libraries; a tree that drives JavaScript
clients needs ``toolstream/clients/js/node_modules``, a symlink will do).
Default: this checkout alone, labelled ``after``.

What is measured is CPU, not wall (the machine is shared): user + sys of
the run's process and every process it waited for (its ``-j`` workers and
their node drivers), ``getrusage(RUSAGE_CHILDREN)`` before and after, as
``/usr/bin/time`` reports them.  Wall seconds are printed beside.

Each run's JSON is kept in ``--out`` (``LABEL-ROUND.json``); the results of
every tree are compared byte for byte with the first tree's of the same
round, and when they differ, case by case (which adapter's entry, on how
many cases).  The corpus's counts are printed too: cases, the cases of the
clients' profiles, and the distinct prefixes TRANSPORT delivers among them
(the content addresses ``diff`` judges once, computed with this checkout).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CLIENTS = (
    "openai-chat-stream",
    "openai-responses-stream",
    "anthropic-messages-stream",
    "mistralai-chat-stream",
    "boto3-converse-stream",
    "google-genai-stream",
    "cohere-chat-stream",
    "ai-sdk-openai-chat",
    "litellm-openai",
)
"""The Python SDK client of every wire format a client reads, one
JavaScript client and one LiteLLM route."""

MAIN = "import sys\nfrom toolstream.cli import main\nsys.argv[0] = 'toolstream'\nsys.exit(main())"


def counts(corpus: Path, clients: list[str], transport: str) -> dict[str, Any]:
    """Cases, the cases of the clients' profiles, their distinct prefixes
    under ``transport`` (what this checkout's diff judges once per client),
    and the client runs with and without sharing."""
    from toolstream.clients.harness import cut_id, delivered_cases
    from toolstream.clients.registry import get_client
    from toolstream.diff.cases import load_corpus

    cases, _ = load_corpus([corpus])
    profiles = {name: set(get_client(name).profiles) for name in clients}
    wanted = {profile for names in profiles.values() for profile in names}
    mine = [case for case in cases if case.profile in wanted]
    prefixes = delivered_cases(mine, transport)
    keys = [cut_id(transport, prefix.fixture) for prefix in prefixes]
    runs = shared = 0
    for name in clients:
        own = [key for case, key in zip(mine, keys, strict=True) if case.profile in profiles[name]]
        runs += len(own)
        shared += len(set(own))
    return {
        "cases": len(cases),
        "profile_cases": len(mine),
        "distinct_prefixes": len(set(keys)),
        "client_runs": runs,
        "client_runs_shared": shared,
    }


def one_run(tree: Path, args: argparse.Namespace, out: Path) -> tuple[float, float, float]:
    """(user, sys, wall) seconds of one diff run of ``tree``; its JSON in ``out``."""
    command = [
        sys.executable, "-c", MAIN, "diff", str(args.corpus),
        "--client", ",".join(args.clients), "--transport", args.transport,
        "-j", str(args.jobs), "--format", "json", "-q", "--fail-on", "never",
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(out, "wb") as handle:
        done = subprocess.run(command, cwd=tree, env=env, stdout=handle, check=False)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1) or not out.stat().st_size:  # 1: a run that proves nothing
        raise SystemExit(f"{tree}: diff exited {done.returncode}")
    return after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, wall


def differences(first: Path, other: Path) -> list[str]:
    """What differs between two diff results: top-level members, and per
    adapter the number of cases whose entry differs (one example each)."""
    a, b = json.loads(first.read_bytes()), json.loads(other.read_bytes())
    lines = [
        f"member {key}"
        for key in sorted(set(a) | set(b))
        if key != "cases" and a.get(key) != b.get(key)
    ]
    left = {case["path"]: case for case in a.get("cases", [])}
    right = {case["path"]: case for case in b.get("cases", [])}
    if set(left) != set(right):
        lines.append(f"cases: {len(set(left) ^ set(right))} paths in one result only")
    per: dict[str, list[str]] = collections.defaultdict(list)
    for path in sorted(set(left) & set(right)):
        x, y = left[path], right[path]
        if x.get("reference") != y.get("reference"):
            per["(reference)"].append(path)
        for name in sorted(set(x["results"]) | set(y["results"])):
            if x["results"].get(name) != y["results"].get(name):
                per[name].append(path)
        for key in sorted((set(x) | set(y)) - {"reference", "results"}):
            if x.get(key) != y.get(key):
                per[f"({key})"].append(path)
    for name, paths in sorted(per.items()):
        lines.append(f"{name}: {len(paths)} cases differ, e.g. {paths[0]}")
    return lines


def tree_arg(text: str) -> tuple[str, str]:
    label, sep, tree = text.partition("=")
    if not sep or not label or not tree:
        raise SystemExit(f"--tree {text!r}: LABEL=DIR")
    return label, tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", default=[], metavar="LABEL=DIR")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--transport", default="cut-close")
    parser.add_argument("--clients", type=lambda s: s.split(","), default=list(CLIENTS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus" / "cases")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "matrix-cpu")
    args = parser.parse_args(argv)
    args.corpus = args.corpus.resolve()
    trees = [tree_arg(item) for item in args.tree] or [("after", str(ROOT))]
    args.out.mkdir(parents=True, exist_ok=True)

    tally = counts(args.corpus, args.clients, args.transport)
    print(f"corpus {args.corpus}: {tally['cases']} cases, {tally['profile_cases']} of the clients'")
    print(f"profiles, {tally['distinct_prefixes']} distinct prefixes under {args.transport};")
    print(f"client runs {tally['client_runs']} one per case, {tally['client_runs_shared']} shared")
    print(f"clients ({len(args.clients)}): {', '.join(args.clients)}; -j {args.jobs}")
    print()
    print("| tree | round | user s | sys s | CPU s | wall s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    cpu: dict[str, list[float]] = collections.defaultdict(list)
    rounds = list(range(1, args.rounds + 1))
    for round_ in rounds:
        for label, tree in trees if round_ % 2 else trees[::-1]:  # ABC, CBA, ABC, ...
            out = args.out / f"{label}-{round_}.json"
            user, system, wall = one_run(Path(tree).resolve(), args, out)
            cpu[label].append(user + system)
            row = f"{user:.1f} | {system:.1f} | {user + system:.1f} | {wall:.1f}"
            print(f"| {label} | {round_} | {row} |", flush=True)
    print()
    result = {(label, r): args.out / f"{label}-{r}.json" for label, _ in trees for r in rounds}
    pairs = [((label, r), (trees[0][0], r)) for r in rounds for label, _ in trees[1:]]
    pairs += [((label, r), (label, 1)) for r in rounds[1:] for label, _ in trees]
    for one, other in pairs:  # every tree against the first; each against its own round 1
        same = result[one].read_bytes() == result[other].read_bytes()
        print(f"{one[0]}-{one[1]} vs {other[0]}-{other[1]}: {'identical' if same else 'DIFFERENT'}")
        if not same:
            for line in differences(result[other], result[one]):
                print(f"  {line}")
    for label, values in cpu.items():
        listed = ", ".join(f"{v:.1f}" for v in values)
        print(f"{label}: CPU s {listed}; mean {sum(values) / len(values):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
