"""``make field-bugs``: the field's own bug reports as a benchmark.

Each file of ``bench/field_bugs/reports/`` is one public bug report (issue
or pull request), read and checked by hand: where it is, which library,
the stream shape it describes, a fixture of that shape written for this
benchmark (``bench/field_bugs/fixtures/``, never a copy of the report's
data), the client that drives the library here (or none) and the releases
to run it on (``pinned``: the version installed here; others through
``--client NAME==VERSION``).  Each run is judged as ``toolstream diff``
judges a case; the table goes to docs/field-bugs.md.

*detected*: the client disagrees with the reference on the fixture at that
release (the outcome signature says how); *cleared*: it agrees.  A report
with a fixed release is told apart when the buggy one is detected and the
fixed one cleared.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "bench" / "field_bugs"
OUT = ROOT / "docs" / "field-bugs.md"


def judged(fixture: dict[str, Any], client: str, version: str) -> str:
    """The outcome at ``version``: the disagreement's signature, ``agree``,
    or why it did not run."""
    from toolstream.adapters.base import AdapterUnavailable
    from toolstream.clients.versions import VersionError, prepare_env
    from toolstream.diff.session import judge_case

    name = client if version == "pinned" else f"{client}=={version}"
    try:
        if version != "pinned":
            from toolstream.clients.registry import get_client

            prepare_env(get_client(client), version)
        row = judge_case(fixture, f"client:{name}")
    except (AdapterUnavailable, VersionError, KeyError) as error:
        return f"not run: {str(error).splitlines()[0]}"
    (outcome,) = row.outcomes.values()
    if outcome.classification == "not_run":
        return f"not run: {outcome.detail}"
    signature: str | None = outcome.signature
    return f"detected `{signature}`" if signature is not None else "cleared (agree)"


def main() -> int:
    from toolstream import validate

    reports = [json.loads(p.read_text("utf-8")) for p in sorted((HERE / "reports").glob("*.json"))]
    rows = []
    ran = detected = 0
    apart: list[str] = []
    for report in reports:
        fixture = json.loads((HERE / report["fixture"]).read_text("utf-8"))
        verdict = validate(fixture)
        reference = verdict.status.value + (
            f" ({', '.join(verdict.codes)})" if verdict.codes else ""
        )
        outcomes = []
        for version in report["run"]:
            text = judged(fixture, report["client"], version)
            outcomes.append(f"{version}: {text}")
            if not text.startswith("not run"):
                ran += 1
                detected += text.startswith("detected")
            print(f"{report['repository']}#{report['number']} {version}: {text}", file=sys.stderr)
        if any("detected" in o for o in outcomes) and any("cleared" in o for o in outcomes):
            apart.append(f"{report['repository']}#{report['number']}")
        runs = "; ".join(outcomes) if outcomes else f"not run: {report['note']}"
        fixed = report["fixed_release"] or "none named"
        rows.append(
            f"| [{report['repository']}#{report['number']}]({report['url']}) | {report['library']}"
            f" | {report['shape']} | `{Path(report['fixture']).stem}`: {reference}"
            f" | {fixed} | {runs} |"
        )
    text = "\n".join(
        [
            "# The field's bug reports",
            "",
            "Written by `make field-bugs` (`bench/field_bugs.py`). One row per public bug report",
            "(`bench/field_bugs/reports/`), each read by hand; the fixture is this benchmark's",
            "own stream of the shape the report describes (`bench/field_bugs/fixtures/`), with",
            "the reference's verdict on it. A run is the report's library, through its client",
            "here, at a release (`pinned`: the one installed here), judged as `toolstream diff`",
            "judges: *detected* (it disagrees with the reference; the outcome signature says",
            "how) or *cleared* (it agrees).",
            "",
            f"{len(reports)} reports; {ran} runs on a client here, {detected} of them detected.",
            "No report that runs here names a fixed release this kit can install (each file's",
            "note says why), so `fixed release` stays empty; the runs on two releases that the",
            "kit tells apart (detected on the older, cleared on the newer): "
            + (", ".join(apart) if apart else "none")
            + ". The bisect of docs/client-versions.md is a change found between releases.",
            "",
            "| report | library | shape | fixture: reference | fixed release | runs |",
            "| --- | --- | --- | --- | --- | --- |",
            *rows,
            "",
        ]
    )
    OUT.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
