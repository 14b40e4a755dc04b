"""``make client-versions``: three releases of each client that supports
``--client NAME==VERSION`` over a sample of the shipped corpus, and one real
``toolstream bisect``; writes docs/client-versions.md.

Each release runs in its cached environment (built from the package index
on the first run: minutes; an npm folder for a JavaScript client).  The
table counts each release's classifications, and how many cases it judges
otherwise than the pinned release (another outcome signature).

``--only NAME[,NAME...]`` runs those clients' rows alone and keeps every
other row, and the bisect, as docs/client-versions.md has them (a row's
environment need not be rebuilt to add another client's).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "corpus" / "cases"
OUT = ROOT / "docs" / "client-versions.md"

MATRIX = {
    "openai-chat-create": ["1.40.0", "2.8.0", "3.19.0"],
    "openai-chat-stream": ["1.40.0", "2.8.0", "3.19.0"],
    "langchain-openai": ["1.0.0", "1.3.0", "1.6.0"],
    "pydantic-ai-openai": ["1.0.0", "2.0.0", "2.20.0", "2.40.0"],
    "litellm-openai": ["1.60.0", "1.80.0", "1.110.2"],
    "langchain-core-openai": ["1.0.0", "1.3.0", "1.6.0"],
    "openai-node-chat-stream": ["4.16.0", "4.104.0", "5.23.2"],
    "openai-node-chat-create": ["4.16.0", "4.104.0", "5.23.2"],
    "ai-sdk-openai-compatible": ["0.2.16", "1.0.61", "2.0.58"],
}
"""Client -> the releases run beside its pinned one."""

OPERATORS = (
    "reuse_slot",
    "gap_index",
    "repeat_identity",
    "bad_index",
    "interleave",
    "duplicate_id",
    "object_fragment",
    "truncate",
    "double_arguments",
    "drop_name",
)
PER_OPERATOR = 3

BISECT = {
    "case": "object_fragment/8b24eb4fb73aaa0c.json",
    "client": "openai-chat-create",
    "good": "2.8.0",
    "bad": "3.57.0",
}


def sample() -> list[Path]:
    """The first openai-profile cases (by name) of each operator folder."""
    out: list[Path] = []
    for operator in OPERATORS:
        chosen = [
            path
            for path in sorted((CASES / operator).glob("*.json"))
            if json.loads(path.read_text("utf-8")).get("profile") == "openai"
        ]
        out.extend(chosen[:PER_OPERATOR])
    return out


def toolstream(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from toolstream.cli import main; main()", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def signature(result: dict[str, Any]) -> str:
    from toolstream.baseline import signature_of

    return signature_of(result) or str(result["classification"])


def companions(name: str) -> str:
    """For ``NAME==VERSION`` of a Python client: the other distributions its
    environment holds where they are not the versions installed here (the
    installer chose them), as `` (with langchain-openai 1.0.1, ...)``."""
    from importlib import metadata

    from toolstream.clients.registry import PYTHON_CLIENTS
    from toolstream.clients.versions import _DONE, _env_dir

    base, _, version = name.partition("==")
    if not version or base not in PYTHON_CLIENTS:
        return ""
    client = PYTHON_CLIENTS[base]()
    done = _env_dir(client, version) / _DONE
    if not done.is_file():
        return ""
    installed = json.loads(done.read_text("utf-8")).get("installed", {})
    chosen = []
    for package in client.packages[1:]:
        try:
            here: str | None = metadata.version(package)
        except metadata.PackageNotFoundError:
            here = None
        if installed.get(package) and installed[package] != here:
            chosen.append(f"{package} {installed[package]}")
    return f" (with {', '.join(chosen)})" if chosen else ""


def written_rows() -> dict[str, list[str]]:
    """The table rows docs/client-versions.md has now, by client (the name
    before ``==`` in the first cell)."""
    rows: dict[str, list[str]] = {}
    if not OUT.is_file():
        return rows
    for line in OUT.read_text("utf-8").splitlines():
        if line.startswith("| `"):
            client = line.split("`")[1].partition("==")[0]
            rows.setdefault(client, []).append(line)
    return rows


def written_notes() -> list[str]:
    """The paragraphs docs/client-versions.md has between its table and its
    bisect (a note on rows measured apart), kept by ``--only``."""
    if not OUT.is_file():
        return []
    lines = OUT.read_text("utf-8").partition("\n## A bisect")[0].splitlines()
    last_row = max((i for i, line in enumerate(lines) if line.startswith("| ")), default=None)
    if last_row is None:
        return []
    notes = "\n".join(lines[last_row + 1 :]).strip()
    return [notes, ""] if notes else []


def written_bisect() -> str | None:
    """The bisect paragraph docs/client-versions.md has now."""
    if not OUT.is_file():
        return None
    _, found, rest = OUT.read_text("utf-8").partition("## A bisect\n\n")
    return rest.strip() if found and rest.strip() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run these clients' rows alone (comma list)")
    only = [n for n in parser.parse_args(argv).only.split(",") if n]
    unknown = [n for n in only if n not in MATRIX]
    if unknown:
        parser.error(f"not in the matrix: {', '.join(unknown)} (known: {', '.join(MATRIX)})")
    kept = written_rows() if only else {}
    cases = sample()
    rows = []
    for client, versions in MATRIX.items():
        if only and client not in only:
            rows.extend(kept.get(client, []))
            continue
        started = time.monotonic()
        done = toolstream(
            "diff", *map(str, cases), "--client", f"{client}=={','.join(versions)}",
            "--client", client, "--format", "json", "--fail-on", "never",
        )  # fmt: skip
        seconds = time.monotonic() - started
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            rows.append(f"| `{client}` | {', '.join(versions)} | not run: {last} | | |")
            continue
        data = json.loads(done.stdout)
        names = [a["name"] for a in data["adapters"]]
        versions_of = {a["name"]: a.get("version") or a.get("skipped") for a in data["adapters"]}
        for name in names:
            counts = Counter(
                c["results"][name]["classification"] for c in data["cases"] if name in c["results"]
            )
            pinned = [c["results"].get(client) for c in data["cases"]]
            changed: int | str = sum(
                1
                for c, base in zip(data["cases"], pinned, strict=True)
                if name in c["results"]
                and base is not None
                and base["classification"] != "not_run"
                and signature(c["results"][name]) != signature(base)
            )
            if name == client:
                changed = "-"
            elif not any(p and p["classification"] != "not_run" for p in pinned):
                changed = "no pinned run"
            cell = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "skipped"
            rows.append(
                f"| `{name}` | {versions_of[name]}{companions(name)} | {cell} | {changed}"
                f" | {seconds:.0f} s |"
            )
    kept_bisect = written_bisect() if only else None
    started = time.monotonic()
    bisected = None if kept_bisect is not None else toolstream(
        "bisect", str(CASES / BISECT["case"]), "--client", BISECT["client"],
        "--good", BISECT["good"], "--bad", BISECT["bad"], "--format", "json",
    )  # fmt: skip
    bisect_seconds = time.monotonic() - started
    if bisected is None:
        bisect_text = str(kept_bisect)
    elif bisected.returncode == 0:
        answer = json.loads(bisected.stdout)
        tested = ", ".join(f"{v}: `{s}`" for v, s in answer["tested"].items())
        bisect_text = (
            f"`toolstream bisect corpus/cases/{BISECT['case']} --client {BISECT['client']}"
            f" --good {BISECT['good']} --bad {BISECT['bad']}`: first changed"
            f" **{answer['package']} {answer['first_changed']}**"
            f" (`{answer['signature_after']}`; {answer['last_unchanged']} and before:"
            f" `{answer['signature_before']}`), {len(answer['tested'])} releases judged in"
            f" {bisect_seconds:.0f} s: {tested}."
        )
    else:
        last = (bisected.stderr.strip().splitlines() or ["(no message)"])[-1]
        bisect_text = f"bisect exited {bisected.returncode}: {last}"
    text = "\n".join(
        [
            "# Client releases: `--client NAME==VERSION`",
            "",
            "Written by `make client-versions` (`bench/client_versions.py`): each client that",
            "supports other releases (docs/versions.md), at three releases beside its pinned",
            f"one, over {len(cases)} openai-profile cases of the shipped corpus (the first",
            f"{PER_OPERATOR} of each of {', '.join(f'`{o}`' for o in OPERATORS)}).",
            "`changed`: the cases the release judges otherwise than the pinned one (another",
            "outcome signature). The time is the whole diff run of the client's rows,",
            "building its environments on a first run included (langchain-openai's).",
            "`langchain-core-openai` is langchain-openai's driver versioned by langchain-core",
            "(with the langchain-openai and openai that resolve with that release); the",
            "`openai-node-*` rows are the npm package `openai`, each release in its npm folder;",
            "the `ai-sdk-openai-compatible` rows each major line of @ai-sdk/openai-compatible",
            "beside the `ai` of its provider specification (0.x: ai 4.3.19, 1.x: ai 5.0.277).",
            *(
                [
                    "",
                    f"This run (`--only {','.join(only)}`) measured the rows of"
                    f" {', '.join(f'`{n}`' for n in only)} on the corpus as it is now; the other"
                    " rows are kept from an earlier run, which may have sampled an earlier corpus"
                    " (compare a client's pinned row with another row of the same driver before"
                    " reading across runs).",
                ]
                if only
                else []
            ),
            "",
            "| client | version | classifications | changed | time |",
            "| --- | --- | --- | --- | --- |",
            *rows,
            "",
            *(written_notes() if only else []),
            "## A bisect",
            "",
            bisect_text,
            "",
        ]
    )
    OUT.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
