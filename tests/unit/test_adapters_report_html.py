"""The HTML page ``make adapters-report`` writes for its matrix run
(``scripts/adapters_report_html.py``), on a tiny run: the page lands in
``docs/`` under the size limit and in ``out/`` over it (no old copy left in
``docs/``), the line in docs/adapters.md names where, and the same run
writes the same bytes and the same line."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.corpus_cases import write_case
from tests.support.diff_fixtures import MISTRAL_FRAGMENTS, PARALLEL, REUSED_INDEX
from toolstream.diff import DiffResult
from toolstream.diff.session import DiffSession
from toolstream.diff.stream import case_details

ROOT = Path(__file__).resolve().parents[2]
NAIVE = "tests.support.diff_fixtures:naive_accumulate"
CAUTIOUS = "tests.support.diff_fixtures:cautious_accumulate"


@pytest.fixture(scope="module")
def page_module() -> Iterator[ModuleType]:
    scripts = str(ROOT / "scripts")
    sys.path.insert(0, scripts)
    try:
        import adapters_report_html

        yield adapters_report_html
    finally:
        sys.path.remove(scripts)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> DiffResult:
    corpus = tmp_path_factory.mktemp("tiny") / "corpus"
    write_case(corpus, PARALLEL, operator="valid")
    write_case(corpus, MISTRAL_FRAGMENTS, operator="fragmented")
    write_case(corpus, REUSED_INDEX, operator="reused_index")
    session = DiffSession.open(corpus.as_posix(), [NAIVE, CAUTIOUS])
    result = session.run()
    disagreeing = {c.path for c in result.cases if any(o.disagrees for o in c.outcomes.values())}
    assert disagreeing
    result.details = case_details(session.cases, disagreeing)
    return result


def _document(module: ModuleType) -> str:
    return f"# Adapters\n\n{module.BEGIN}\nnot yet\n{module.END}\n\nthe rest\n"


def test_the_page_goes_to_docs_and_the_docs_link_it(
    page_module: ModuleType, tiny: DiffResult, tmp_path: Path
) -> None:
    updated = page_module.write_page(tiny, tmp_path, _document(page_module), check=False)
    page = tmp_path / "docs" / page_module.NAME
    written = page.read_bytes()
    assert b'<section class="case-page"' in written and b"data-slot=" in written
    assert f"[{page_module.NAME}]({page_module.NAME})" in updated
    size = re.search(r"\((\d+\.\d) MB", updated)
    assert size and float(size.group(1)) == round(len(written) / 1e6, 1)
    assert updated.endswith("\n\nthe rest\n") and "not yet" not in updated
    # the same run: the same bytes, the same line; --check writes nothing
    page.unlink()
    assert page_module.write_page(tiny, tmp_path, _document(page_module), check=True) == updated
    assert not page.exists()
    assert page_module.write_page(tiny, tmp_path, _document(page_module), check=False) == updated
    assert page.read_bytes() == written


def test_a_page_over_the_limit_goes_to_out(
    page_module: ModuleType, tiny: DiffResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page_module.write_page(tiny, tmp_path, _document(page_module), check=False)
    assert (tmp_path / "docs" / page_module.NAME).exists()
    monkeypatch.setattr(page_module, "SIZE_LIMIT", 1000)
    updated = page_module.write_page(tiny, tmp_path, _document(page_module), check=False)
    assert (tmp_path / "out" / page_module.NAME).stat().st_size >= 1000
    assert not (tmp_path / "docs" / page_module.NAME).exists()
    assert f"`out/{page_module.NAME}`" in updated and "make adapters-report" in updated
    assert f"first {page_module.CASES_PER_GROUP[0]} case(s)" in updated


def test_a_smaller_cap_is_tried_before_out(
    page_module: ModuleType, tiny: DiffResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes = [len(page_module.page_for(tiny, tmp_path)[1])]
    monkeypatch.setattr(page_module, "CASES_PER_GROUP", (1,))
    sizes.append(len(page_module.page_for(tiny, tmp_path)[1]))
    assert sizes[1] < sizes[0]
    monkeypatch.setattr(page_module, "CASES_PER_GROUP", (2, 1))
    monkeypatch.setattr(page_module, "SIZE_LIMIT", sizes[1] + 1)
    target, page, per = page_module.page_for(tiny, tmp_path)
    assert (target, len(page), per) == (tmp_path / "docs" / page_module.NAME, sizes[1], 1)
