"""User adapters over the shipped corpus: ``make bench-adapters``.

    python bench/adapters.py [--corpus corpus/cases] [--per-case-sample 400]

Times ``toolstream diff`` (the library call ``run_cases``, as the command
runs it, serially) over the corpus with the examples of ``docs/adapters.md``
("Your own adapter"), taken from the docs as written:

* ``reference``: no adapter, the reference verdict of every case only (what
  every row below includes);
* ``python callable``: ``my_accumulator:calls``;
* ``node, --protocol lines``: ``accumulate.js``, one process for the run;
* ``node, --protocol per-case``: the same script wrapped to read one fixture
  until end of file, one process per case.  Over the whole corpus this takes
  minutes, so it runs on every k-th case (``--per-case-sample`` cases; 0:
  all) and the total is extrapolated from its per-case time, marked so.

Every adapter takes every profile (the default), so every case is fed to
it.  Prints one line per row: cases, wall seconds, milliseconds per case.
Needs ``node`` on PATH for the node rows (skipped with a note otherwise).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from toolstream.diff import load_corpus, resolve_adapters, run_cases  # noqa: E402

DOCS = ROOT / "docs" / "adapters.md"

PER_CASE_WRAPPER = """
// the line-protocol example, read as one fixture per process (--protocol per-case)
let input = "";
process.stdin.on("data", (d) => (input += d)).on("end", () => {
  process.stdout.write(JSON.stringify(answer(JSON.parse(input))));
});
"""


def example(name: str) -> str:
    match = re.search(
        rf"<!-- example: {re.escape(name)} -->\n```\w+\n(.*?)\n```", DOCS.read_text("utf-8"), re.S
    )
    if match is None:
        raise SystemExit(f"docs/adapters.md has no example {name}")
    return match[1] + "\n"


def timed(
    label: str, cases: list[Any], specs: list[str], note: str = "", scale: int = 0
) -> None:
    loaded = resolve_adapters(specs, timeout=30.0)
    for item in loaded:
        if item.adapter is None:
            raise SystemExit(f"{label}: {item.info.skipped}")
    start = time.perf_counter()
    results = run_cases(cases, loaded)
    seconds = time.perf_counter() - start
    crashes = sum(
        1 for r in results for o in r.outcomes.values() if o.classification == "adapter_crash"
    )
    per_case = 1000 * seconds / max(len(cases), 1)
    line = f"{label:<28} {len(cases):>5} cases  {seconds:8.2f} s  {per_case:7.2f} ms/case"
    if scale:
        line += f"  (~{per_case * scale / 1000:.0f} s for all {scale}, extrapolated)"
    if crashes:
        line += f"  [{crashes} adapter_crash]"
    print(line + (f"  {note}" if note else ""), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT / "corpus" / "cases"))
    parser.add_argument("--per-case-sample", type=int, default=400)
    args = parser.parse_args(argv)
    cases, unreadable = load_corpus([args.corpus])
    if unreadable:
        raise SystemExit(f"{len(unreadable)} unreadable case(s) in {args.corpus}")
    print(f"corpus {args.corpus}: {len(cases)} cases; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="toolstream-bench-adapters-") as scratch:
        folder = Path(scratch)
        (folder / "my_accumulator.py").write_text(example("my_accumulator.py"), "utf-8")
        lines_js = example("accumulate.js")
        (folder / "accumulate.js").write_text(lines_js, "utf-8")
        body = lines_js[: lines_js.index("readline.createInterface")]
        (folder / "per_case.js").write_text(body + PER_CASE_WRAPPER, "utf-8")
        sys.path.insert(0, scratch)
        os.chdir(scratch)

        timed("reference only", cases, [])
        timed("python callable", cases, ["my_accumulator:calls"])
        node = shutil.which("node")
        if node is None:
            print("node is not on PATH: the node rows are skipped")
            return 0
        timed("node, --protocol lines", cases, [f"lines:{node} accumulate.js"])
        sample = cases
        if 0 < args.per_case_sample < len(cases):
            step = len(cases) / args.per_case_sample
            sample = [cases[int(i * step)] for i in range(args.per_case_sample)]
        timed(
            "node, --protocol per-case",
            sample,
            [f"cmd:{node} per_case.js"],
            scale=len(cases) if len(sample) < len(cases) else 0,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
