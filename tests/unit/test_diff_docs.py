"""docs/adapters.md against the shipped corpus: the measured block is there,
every case it cites exists, and (with the libraries installed) every cited
case still shows what the docs claim about it.  Regenerate the block with
``make adapters-report``."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.diff_fixtures import needs
from toolstream.diff import diff_fixture, load_corpus

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "adapters.md"
SHIPPED = ROOT / "corpus" / "cases"
MODULE = {
    "openai-python": "openai",
    "anthropic-python": "anthropic",
    "langchain-core": "langchain_core",
    "litellm": "litellm",
}

CITE = re.compile(
    r"`(?P<operator>\w+)` (?P<classification>\w+): \d+ of \d+, e\.g\. `(?P<path>[^`]+)`"
)
COMMON = re.compile(
    r"(?P<adapter>[\w-]+) `(?P<operator>\w+)`: \d+ of \d+, e\.g\. `(?P<path>[^`]+)`"
)


def block() -> str:
    text = DOCS.read_text(encoding="utf-8")
    begin, end = "<!-- adapters-report:begin -->", "<!-- adapters-report:end -->"
    assert begin in text and end in text
    return text[text.index(begin) : text.index(end)]


def citations() -> Iterator[tuple[str, str, str, str]]:
    """(adapter, operator, classification, path) for every claim's example."""
    adapter = None
    for line in block().splitlines():
        if line.startswith("#### Tool policy"):  # the claim every adapter shares
            adapter = None
            continue
        heading = re.match(r"#### ([\w-]+) ", line)
        if heading:
            adapter = heading.group(1)
            continue
        if adapter is None:
            for match in COMMON.finditer(line):
                yield match["adapter"], match["operator"], "unsafe_accept", match["path"]
        else:
            for match in CITE.finditer(line):
                yield adapter, match["operator"], match["classification"], match["path"]


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "adapters_report", ROOT / "scripts" / "adapters_report.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["adapters_report"] = module
    spec.loader.exec_module(module)
    return module


def test_the_measured_block_is_there() -> None:
    text = block()
    assert "| operator |" in text and "**total**" in text
    for name in MODULE:
        assert f"#### {name} " in text
    cited = list(citations())
    assert len(cited) >= 20
    assert {adapter for adapter, *_ in cited} == set(MODULE)


def test_every_cited_case_exists() -> None:
    if not SHIPPED.is_dir():
        pytest.skip("no shipped corpus")
    missing = sorted({path for *_, path in citations() if not (ROOT / path).is_file()})
    assert missing == [], "docs/adapters.md cites missing cases: run make adapters-report"


def test_the_table_counts_the_shipped_corpus() -> None:
    if not SHIPPED.is_dir():
        pytest.skip("no shipped corpus")
    match = re.search(r"\((\d+) cases,", block())
    assert match is not None
    cases, _ = load_corpus([SHIPPED])
    assert int(match.group(1)) == len(cases), "stale: run make adapters-report"


@pytest.mark.parametrize("adapter", sorted(MODULE))
def test_cited_cases_still_show_the_claims(adapter: str) -> None:
    needs(MODULE[adapter], extra="litellm" if adapter == "litellm" else "adapters")
    if adapter == "langchain-core":
        needs("openai")
        needs("anthropic")
    cited = sorted({c for c in citations() if c[0] == adapter})
    assert cited
    cases = {c.path: c for c in load_corpus([ROOT / path for *_, path in cited])[0]}
    for _, operator, classification, path in cited:
        case = cases[(ROOT / path).as_posix()]
        outcome = diff_fixture(case.fixture, adapter)
        assert outcome.classification == classification, (path, outcome.detail)
        assert case.operator == operator


def test_every_claim_has_evidence_in_the_script() -> None:
    module = script()
    assert module.ADAPTERS == tuple(MODULE)
    for section in module.SECTIONS:
        assert section.claims
        for claim in section.claims:
            assert claim.evidence and claim.text.endswith(".")


def test_a_docs_page_it_cannot_read_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = script()
    monkeypatch.chdir(Path.cwd())  # main() moves to the repository; put it back after
    missing = tmp_path / "nowhere.md"
    assert module.main(["--docs", str(missing), "--only", "adapters"]) == 2
    err = capsys.readouterr().err
    assert err == f"adapters-report: cannot read {missing}: No such file or directory\n"
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\xff\xfe\x00")
    assert module.main(["--docs", str(binary), "--only", "adapters"]) == 2
    assert capsys.readouterr().err == f"adapters-report: cannot read {binary}: not UTF-8 text\n"
