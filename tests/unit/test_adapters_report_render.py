"""The renderer of docs/adapters.md's measured blocks (``make adapters-report``)
on a small hand-built result: a client's section leads with its reassembly and
strictness findings, says which rows are the application's job (tool policy),
and counts each disagreement under one layer (a cut client's under its
prefix's verdict)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from toolstream.adapters.base import AdapterCall
from toolstream.diff.classify import UNSAFE_ACCEPT, WRONG_CALLS, CallDifference, Outcome
from toolstream.diff.results import DiffResult
from toolstream.diff.runner import AdapterInfo, CaseResult
from toolstream.findings import Layer

ROOT = Path(__file__).resolve().parents[2]
CLIENT = "openai-chat-create"
CUT = f"{CLIENT}@cut-close"


@pytest.fixture(scope="module")
def render() -> Iterator[ModuleType]:
    scripts = str(ROOT / "scripts")
    sys.path.insert(0, scripts)
    try:
        import adapters_report_render

        yield adapters_report_render
    finally:
        sys.path.remove(scripts)


def _unsafe(name: str) -> Outcome:
    return Outcome(
        UNSAFE_ACCEPT,
        detail=f"hands over 1 call(s) [{name}]",
        handed=(AdapterCall(id="call_1", name=name, arguments="{}"),),
    )


def _case(path: str, codes: tuple[str, ...], outcome: Outcome, **extra: object) -> CaseResult:
    operator = path.split("/")[0]
    status = "pass" if not codes else "blocked"
    row = CaseResult(f"corpus/cases/{path}.json", operator, "openai", status, codes, {})
    prefix = CaseResult(row.path, operator, "openai", "blocked", ("missing_terminal",), {})
    return CaseResult(
        row.path,
        operator,
        "openai",
        status,
        codes,
        outcomes={CLIENT: outcome, CUT: _unsafe("weather")},
        judged={CUT: ("cut-close", prefix)},
        **extra,  # type: ignore[arg-type]
    )


def result() -> DiffResult:
    wrong = Outcome(
        WRONG_CALLS,
        detail="call 0: id differs",
        differences=(CallDifference("id", "id", 0, "call_1call_1", "call_1"),),
        handed=(AdapterCall(id="call_1call_1", name="weather", arguments="{}"),),
    )
    cases = [
        _case("reuse_slot/a1", ("identity_collision",), _unsafe("weatherweather")),
        _case("corrupt_json/b1", ("malformed_json",), _unsafe("weather")),
        _case("rename_tool/c1", ("unknown_tool",), _unsafe("teleport")),
        _case("rename_tool/c2", ("unknown_tool",), _unsafe("teleport")),
        _case("repeat_identity/d1", (), wrong),
        # a truncated call that also breaks its schema: the truncation counts
        _case("truncate/e1", ("missing_terminal", "schema_violation"), _unsafe("weather")),
    ]
    adapters = [
        AdapterInfo(f"client:{CLIENT}", CLIENT, "openai", "3.57.0", ("openai",)),
        AdapterInfo(f"client:{CUT}", CUT, "openai", "3.57.0", ("openai",)),
    ]
    return DiffResult(corpus=["corpus/cases"], adapters=adapters, cases=cases)


def test_a_client_section_leads_with_its_own_layers(render: ModuleType) -> None:
    block = render.render_clients(
        result(), Path("corpus/cases"), [CLIENT], ["plain", "cut-close"], {}
    )
    lines = block.splitlines()
    table = lines.index(
        "| transport | reassembly | strictness | transport layer"
        " | tool policy (the application's job) |"
    )
    assert lines[table + 2] == "| `plain` | 3 | 1 | 0 | 2 |"
    assert lines[table + 3] == "| `cut-close` | 6 | 0 | 0 | 0 |"  # every prefix: missing_terminal
    headings = [line for line in lines if line.startswith("**")]
    assert [h.split(" (")[0].split(":")[0] for h in headings] == [
        "**Reassembly",
        "**Argument strictness",
        "**Tool policy",
    ]
    assert "the application must check this; the library does not claim to" in headings[-1]

    def under(heading: str) -> list[str]:
        start = lines.index(next(h for h in headings if h.startswith(heading)))
        rest = lines[start + 1 :]
        stop = next((i for i, line in enumerate(rest) if line.startswith("**")), len(rest))
        return [line for line in rest[:stop] if line.startswith("- ")]

    reassembly = under("**Reassembly")
    assert any("`identity_collision`" in line for line in reassembly)
    assert any("`missing_terminal`, `schema_violation`" in line for line in reassembly)
    assert any("hands over wrong calls (id)" in line for line in reassembly)
    assert any("`cut-close`" in line for line in reassembly)
    assert under("**Argument strictness") == [
        "- `plain`: hands over calls the reference blocks (`malformed_json`): 1 cases,"
        " e.g. `corpus/cases/corrupt_json/b1.json`"
    ]
    assert under("**Tool policy") == [
        "- `plain`: hands over calls the reference blocks (`unknown_tool`): 2 cases,"
        " e.g. `corpus/cases/rename_tool/c1.json`"
    ]


def test_a_claim_takes_the_layer_of_the_cases_that_show_it(
    render: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = result()
    monkeypatch.chdir(tmp_path)  # a claim's predicate may read the case file
    for case in data.cases:
        (tmp_path / case.path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / case.path).write_text("{}", encoding="utf-8")
    policy = render.Claim("Unknown tools.", (render.Evidence("rename_tool", UNSAFE_ACCEPT),))
    merge = render.Claim("Merges reused slots.", (render.Evidence("reuse_slot", UNSAFE_ACCEPT),))
    assert render.claim_layer(data, CLIENT, policy) is Layer.TOOL_POLICY
    assert render.claim_layer(data, CLIENT, merge) is Layer.REASSEMBLY
    assert render.layer_line(data, CLIENT) == (
        "Disagreements by layer: reassembly 3, strictness 1, transport 0; tool policy 2"
        " (the application's job: the library does not claim to check it)."
    )


def test_the_matrix_runs_over_the_cases_a_distill_manifest_keeps(
    render: ModuleType, tmp_path: Path
) -> None:
    from types import SimpleNamespace

    from toolstream.corpus.distill import Behaviour, Distilled

    corpus = Path("corpus/cases")
    cases = [SimpleNamespace(path=f"corpus/cases/op/{n}.json") for n in "abcd"]
    witness = (Behaviour("(case)", "pass", "op", "openai", "agree"),)
    written = Distilled((("op/b.json", witness), ("op/d.json", witness)), 4, 7)
    manifest = tmp_path / "DISTILL.jsonl"
    manifest.write_text("\n".join(written.manifest_lines()) + "\n", encoding="utf-8")

    kept = render.read_distilled(manifest, corpus)
    assert (kept.cases_total, kept.behaviours) == (4, 7)
    assert [c.path for c in kept.select(cases, corpus)] == [cases[1].path, cases[3].path]
    # distilled from another corpus: refused, never a matrix over part of it
    with pytest.raises(ValueError, match="distilled from a corpus of 4 cases"):
        kept.select(cases[:3], corpus)
    stale = Distilled((("op/b.json", witness), ("op/z.json", witness)), 4, 7)
    manifest.write_text("\n".join(stale.manifest_lines()) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"keeps op/z\.json"):
        render.read_distilled(manifest, corpus).select(cases, corpus)
    manifest.write_text('{"format": "toolstream-diff/1"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a distill manifest"):
        render.read_distilled(manifest, corpus)


def test_the_shipped_distill_manifest_is_of_the_shipped_corpus(render: ModuleType) -> None:
    """corpus/DISTILL.jsonl (make adapters-report distills it) names cases of
    corpus/cases only and was made from a corpus of its size: the matrix block
    refuses a stale one, and so does this test before anyone runs the matrix."""
    from types import SimpleNamespace

    from toolstream.caseio import case_files

    corpus = Path("corpus/cases")
    cases = [
        SimpleNamespace(path=(corpus / p.relative_to(ROOT / corpus)).as_posix())
        for p in case_files(ROOT / corpus)
    ]
    kept = render.read_distilled(ROOT / "corpus" / "DISTILL.jsonl", corpus)
    chosen = kept.select(cases, corpus)
    assert 0 < len(chosen) == len(kept.paths) < len(cases)
