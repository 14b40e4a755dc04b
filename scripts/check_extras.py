"""Install each optional extra of pyproject.toml into a fresh virtual
environment, as a user would (``pip install '.[EXTRA]'``, from the package
index), and run what the extra is for once: its modules import, and one
case goes through it.  ``make extras-check`` runs it (it downloads; run it
before a release) and writes docs/extras.md.

    python scripts/check_extras.py [EXTRA...] [--write docs/extras.md]

Exit status 0 when every extra checked passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "corpus" / "seeds" / "openai-parallel.json"

IMPORTS = {
    "adapters": ["openai", "anthropic", "langchain_core", "langchain_openai",
                 "langchain_anthropic", "langchain_mistralai", "langchain_google_genai",
                 "google.genai", "cohere"],
    "clients": ["openai", "anthropic", "langchain_openai", "boto3", "google.genai", "cohere",
                "mistralai", "pydantic_ai"],
    "litellm": ["litellm"],
    "dask": ["dask", "distributed"],
    # the LiteLLM proxy's own module: what `litellm --config` imports to start
    "gateways": ["litellm", "litellm.proxy.proxy_server"],
    "test": ["pytest", "hypothesis", "yaml", "importlinter", "openai", "anthropic", "boto3"],
}  # fmt: skip
"""The modules each extra exists for."""

ONE_CASE: dict[str, list[str] | None] = {
    "adapters": ["diff", "{cases}", "--adapter", "openai-python", "--adapter", "langchain-core"],
    "clients": ["diff", "{cases}", "--client", "openai-chat-stream"],
    "litellm": ["diff", "{cases}", "--adapter", "litellm"],
    # the dask extra has no adapter of its own; a case on it needs a running
    # cluster (diff --executor dask://HOST:PORT), which this check does not start
    "dask": None,
    "gateways": ["diff", "{cases}", "--adapter", "litellm"],
    "test": ["diff", "{cases}", "--adapter", "openai-python"],
}
"""One ``toolstream`` run through what the extra installs (every column must run
the case and agree with the reference on the valid seed)."""


@dataclass
class Outcome:
    extra: str
    ok: bool
    seconds: float
    what: str


def run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done: subprocess.CompletedProcess[str] = subprocess.run(
        args, capture_output=True, text=True, check=False, **kwargs
    )
    return done


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def check(extra: str, scratch: Path) -> Outcome:
    started = time.monotonic()
    venv = scratch / extra
    python = venv / "bin" / "python"

    def failed(what: str) -> Outcome:
        return Outcome(extra, False, time.monotonic() - started, what)

    made = run([sys.executable, "-m", "venv", str(venv)])
    if made.returncode:
        return failed(f"venv: {last_line(made.stderr)}")
    installed = run([str(python), "-m", "pip", "install", "--quiet", f"{ROOT}[{extra}]"])
    if installed.returncode:
        return failed(f"pip install: {last_line(installed.stderr)}")
    for module in IMPORTS[extra]:
        imported = run([str(python), "-c", f"import {module}"], cwd=scratch)
        if imported.returncode:
            return failed(f"import {module}: {last_line(imported.stderr)}")
    one_case = ONE_CASE[extra]
    if one_case is None:
        return Outcome(extra, True, time.monotonic() - started, "imports (no case: see ONE_CASE)")
    cases = scratch / f"{extra}-cases"
    cases.mkdir()
    (cases / SEED.name).write_bytes(SEED.read_bytes())
    words = [w.replace("{cases}", str(cases)) for w in one_case]
    done = run(
        [str(venv / "bin" / "toolstream"), *words, "--format", "json", "-q"],
        cwd=scratch,
        timeout=600,
    )
    if done.returncode:
        return failed(f"toolstream {' '.join(one_case)}: {last_line(done.stderr)}")
    totals = json.loads(done.stdout)["totals"]
    columns = ", ".join(sorted(totals))
    if any(counts.get("agree") != 1 for counts in totals.values()):
        return failed(f"toolstream {words[0]}: not every column agreed on the seed: {totals}")
    return Outcome(extra, True, time.monotonic() - started, f"imports; {columns} agree")


def render(outcomes: list[Outcome], python: str) -> str:
    rows = "\n".join(
        f"| `{o.extra}` | {'ok' if o.ok else 'FAILED'} | {o.seconds:.0f} s | {o.what} |"
        for o in outcomes
    )
    return f"""# Every extra from a fresh environment

`make extras-check` (`scripts/check_extras.py`) installs each optional extra of
`pyproject.toml` into a new virtual environment from the package index
(`pip install '.[EXTRA]'`, nothing of the project's own environment), imports
the modules the extra is for, and runs one case through it (`toolstream diff`
over `corpus/seeds/openai-parallel.json` with the extra's adapters or clients;
every column must agree with the reference). It downloads, so it is not part of
`make test`; run it before a release. The time includes pip's download and install
(a warm pip cache makes it much shorter).

Last run ({python}):

| extra | result | time | what ran |
|---|---|---|---|
{rows}
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("extras", nargs="*", help="extras to check (default: all)")
    parser.add_argument("--write", type=Path, help="write the results as this markdown file")
    args = parser.parse_args()
    try:
        import tomllib
    except ImportError:  # Python 3.10
        print("extras-check reads pyproject.toml with tomllib: Python 3.11+", file=sys.stderr)
        return 64
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    unknown = sorted(set(declared) - set(IMPORTS))
    if unknown:
        print(f"no check for extra(s) {', '.join(unknown)}: add them to IMPORTS", file=sys.stderr)
        return 1
    chosen = args.extras or sorted(declared)
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="toolstream-extras-") as scratch:
        for extra in chosen:
            print(f"extras-check: {extra} ...", file=sys.stderr, flush=True)
            outcome = check(extra, Path(scratch))
            print(f"  {'ok' if outcome.ok else 'FAILED'} ({outcome.seconds:.0f} s): {outcome.what}",
                  file=sys.stderr, flush=True)  # fmt: skip
            outcomes.append(outcome)
    if args.write is not None:
        version = f"Python {sys.version.split()[0]}"
        args.write.write_text(render(outcomes, version), encoding="utf-8")
    return 0 if all(o.ok for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
