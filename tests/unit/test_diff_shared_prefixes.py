"""Cases whose cut transport delivers the same prefix to a client are judged
once for that cut: the run's rows are those of each case judged alone, and
the client ran once per distinct prefix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.corpus_cases import seed, variants, write_case
from toolstream.clients.harness import cut_id, delivered_cases
from toolstream.diff import runner
from toolstream.diff.cases import load_corpus
from toolstream.diff.session import CaseFinished, DiffSession, judge_case

CUT = "client:openai-chat-create@cut-close"
COLUMN = "openai-chat-create@cut-close"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A seed and its drop-one variants: several end alike before the cut."""
    folder = tmp_path_factory.mktemp("corpus")
    fixture = seed("openai-parallel")
    write_case(folder, fixture, operator="seed")
    for variant in variants(fixture):
        write_case(folder, variant, operator="drop_item")
    return folder


def test_a_shared_prefix_is_judged_once_and_every_row_is_its_case_judged_alone(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("openai")
    cases, _ = load_corpus([corpus])
    prefixes = {cut_id("cut-close", c.fixture) for c in delivered_cases(cases, "cut-close")}
    assert len(prefixes) < len(cases)  # the corpus has prefixes to share

    ran: list[str] = []
    original = runner._outcome

    def counted(adapter: Any, case: Any, report: Any) -> Any:
        ran.append(adapter.name)
        return original(adapter, case, report)

    monkeypatch.setattr(runner, "_outcome", counted)
    events: list[Any] = []
    result = DiffSession.open(corpus, [CUT], timeout=10.0).run(events.append)
    assert ran.count(COLUMN) == len(prefixes)
    assert sum(e.runs for e in events if isinstance(e, CaseFinished)) == len(cases)
    monkeypatch.setattr(runner, "_outcome", original)

    rows = json.loads(result.to_json())["cases"]
    for case, row in zip(cases, rows, strict=True):
        alone = judge_case(json.loads(Path(case.path).read_text("utf-8")), CUT, case_id=case.path)
        assert row["results"][COLUMN] == alone.to_dict()["results"][COLUMN], case.path
