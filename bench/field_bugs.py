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
release (the outcome signature says how); *cleared*: it agrees.  Two
releases are told apart when their outcomes differ (another signature, or
detected on one and cleared on the other): where the reference blocks the
turn, a fix shows as another hand-over signature, not as an agreement.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "bench" / "field_bugs"
OUT = ROOT / "docs" / "field-bugs.md"


BISECT_TEXT = (
    "Two bisects. A Python one (measured 2026-12-02, each release in its cached environment):",
    "`toolstream bisect bench/field_bugs/fixtures/interleaved_parallel.json --client"
    " litellm-openai --good 1.60.0 --bad 1.110.2` judged 10 of 341 releases and found",
    "**litellm 1.66.2**: up to 1.66.1 `wrong_calls:arguments-value` (the two interleaved",
    "calls of BerriAI/litellm#10034 handed over with other arguments than the wire's),",
    "from 1.66.2 `agree`.",
    "Tested: 1.60.0, 1.65.5, 1.66.1: `wrong_calls:arguments-value`; 1.66.2, 1.66.3, 1.67.2,",
    "1.70.0, 1.74.2, 1.83.10, 1.110.2: `agree`. The report's row runs the two releases",
    "around it (tests/unit/test_bisect.py repeats the search on those cached environments).",
    "",
    "A JavaScript one (measured 2026-12-02): `toolstream bisect"
    " bench/field_bugs/fixtures/no_index.json --client ai-sdk-openai-compatible --good 2.0.58"
    " --bad 2.0.92` judged 7 of 29 releases in 42 s and found",
    "**@ai-sdk/openai-compatible 2.0.80**: up to 2.0.79 `agree` (the 2.x line refuses the",
    "index-less continuation of vercel/ai#7238's shape, as the reference blocks it), from 2.0.80",
    "`unsafe_accept:extra_call`. Tested: 2.0.58, 2.0.72, 2.0.75, 2.0.78, 2.0.79: `agree`;",
    "2.0.80, 2.0.92: `unsafe_accept:extra_call`. The report's row runs the two releases around it.",
)
"""The recorded bisects (re-run each with the command it names)."""


ON_NODE = " (on Node.js "
"""How a run on a Node.js from npm says so (:func:`judged`)."""


def distinct_outcomes(outcomes: list[str]) -> set[str]:
    """The distinct outcomes of the ``VERSION: outcome`` runs that ran: the
    outcome alone (which Node.js ran a release is no outcome of its own);
    two or more tell releases apart."""
    return {
        o.split(": ", 1)[1].split(ON_NODE, 1)[0]
        for o in outcomes
        if not o.split(": ", 1)[1].startswith("not run")
    }


def judged(fixture: dict[str, Any], client: str, version: str) -> str:
    """The outcome at ``version``: the disagreement's signature, ``agree``,
    or why it did not run."""
    from toolstream.adapters.base import AdapterUnavailable
    from toolstream.clients.versions import VersionError, prepare_env
    from toolstream.diff.session import judge_case

    name = client if version == "pinned" else f"{client}=={version}"
    on = ""
    try:
        if version != "pinned":
            from toolstream.clients.node import NodeClient
            from toolstream.clients.registry import get_client
            from toolstream.clients.versions import release_node

            base = get_client(client)
            env = prepare_env(base, version)
            node = release_node(base, version, env) if isinstance(base, NodeClient) else None
            on = f"{ON_NODE}{node[1]} from npm)" if node is not None else ""
        row = judge_case(fixture, f"client:{name}")
    except (AdapterUnavailable, VersionError, KeyError) as error:
        return f"not run: {str(error).splitlines()[0]}"
    (outcome,) = row.outcomes.values()
    if outcome.classification == "not_run":
        return f"not run: {outcome.detail}"
    signature: str | None = outcome.signature
    return (f"detected `{signature}`" if signature is not None else "cleared (agree)") + on


def main() -> int:
    from toolstream import validate

    reports = [json.loads(p.read_text("utf-8")) for p in sorted((HERE / "reports").glob("*.json"))]
    rows = []
    ran = detected = 0
    apart: list[str] = []
    with_fix: list[str] = []
    untold: list[str] = []  # a fix named, no two releases told apart here: why
    unreleased: list[str] = []  # a fix proposed that no release carries: why, and the runs
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
        ran_outcomes = distinct_outcomes(outcomes)
        if len(ran_outcomes) > 1:
            apart.append(f"{report['repository']}#{report['number']}")
        if report["fixed_release"]:
            with_fix.append(f"{report['repository']}#{report['number']}")
            if len(ran_outcomes) < 2:
                untold.append(f"- {report['repository']}#{report['number']}: {report['note']}.")
        elif report.get("fix_unreleased"):
            told = "told apart" if len(ran_outcomes) > 1 else "one outcome on every release run"
            unreleased.append(
                f"- {report['repository']}#{report['number']}: {report['fix_unreleased']}"
                f" ({told}: {'; '.join(outcomes)}). {report['note']}."
            )
        runs = "; ".join(outcomes) if outcomes else f"not run: {report['note']}"
        fixed = report["fixed_release"] or (
            f"none: {report['fix_unreleased']}" if report.get("fix_unreleased") else "none named"
        )
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
            f"{len(with_fix)} name a fixed release or pull request ({', '.join(with_fix)});"
            " each file's note says where it was found and whether both sides run here.",
            "The reports whose releases the kit tells apart (another outcome on another"
            " release): " + (", ".join(apart) if apart else "none") + ".",
            *(
                [
                    "The others that name a fix, and why the kit does not tell two releases apart:",
                    "",
                    *untold,
                    "",
                ]
                if untold
                else ["Every report that names a fixed release is told apart.", ""]
            ),
            *(
                [
                    f"{len(unreleased)} name a fix that no release carries (so no fixed release"
                    " to tell apart):",
                    "",
                    *unreleased,
                    "",
                ]
                if unreleased
                else []
            ),
            *BISECT_TEXT,
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
