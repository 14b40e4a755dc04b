"""The HTML report of a diff result (``toolstream report``, ``diff --html``):
deterministic bytes, rendered from the JSON only, one self-contained file,
and a one-line error for input it cannot interpret.  The browser test is
``e2e/test_html_report_browser.py``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toolstream
from tests.support.builders import chunk, tc
from tests.support.corpus_cases import write_case
from tests.support.diff_fixtures import END, MISTRAL_FRAGMENTS, PARALLEL, REUSED_INDEX, oai
from toolstream import schema as schema_rules
from toolstream.cli import cli
from toolstream.cli.errors import EX_DATAERR, EX_USAGE
from toolstream.diff.classify import DISAGREEMENTS
from toolstream.diff.html import ReportInputError, render_html

NAIVE = "tests.support.diff_fixtures:naive_accumulate"
CAUTIOUS = "tests.support.diff_fixtures:cautious_accumulate"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, bytes]:
    """A corpus, the diff JSON of two adapters over it and the HTML that
    ``diff --html`` wrote in the same run."""
    folder = tmp_path_factory.mktemp("html")
    corpus = folder / "corpus"
    write_case(corpus, PARALLEL, operator="valid")
    write_case(corpus, MISTRAL_FRAGMENTS, operator="fragmented")
    write_case(corpus, REUSED_INDEX, operator="reused_index")
    unknown = oai(chunk(tc(0, "call_1", "teleport", '{"city":"<b>Paris</b>"}')), END)
    write_case(corpus, unknown, operator="unknown_tool")
    html = folder / "diff.html"
    done = CliRunner().invoke(
        cli,
        [
            "diff", corpus.as_posix(), "--adapter", NAIVE, "--adapter", CAUTIOUS,
            "--format", "json", "-q", "--fail-on", "never", "--html", html.as_posix(),
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    return folder, done.stdout, html.read_bytes()


def test_report_of_the_json_is_what_diff_html_wrote(run: tuple[Path, str, bytes]) -> None:
    folder, text, written = run
    result = folder / "result.json"
    result.write_text(text, encoding="utf-8")
    out = folder / "report.html"
    done = CliRunner().invoke(cli, ["report", result.as_posix(), "-o", out.as_posix()])
    assert done.exit_code == 0, done.output
    assert out.read_bytes() == written
    again = render_html(json.loads(text)).encode("utf-8")
    assert again == written  # the same JSON, the same bytes
    assert not list(folder.glob("*.tmp")) and not [p for p in folder.iterdir() if "tmp" in p.name]


def test_the_page_is_self_contained_and_escapes_the_data(run: tuple[Path, str, bytes]) -> None:
    written = run[2]
    page = written.decode("utf-8")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # nothing that could fetch: no external source, link or stylesheet
    assert not re.search(r"""(src|href)\s*=\s*["'](?!#)""", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    # the case's arguments are data, never markup
    assert "<b>Paris</b>" not in page
    assert "&lt;b&gt;Paris&lt;/b&gt;" in page


def test_every_number_shown_is_the_jsons(run: tuple[Path, str, bytes]) -> None:
    _, text, written = run
    data = json.loads(text)
    page = written.decode("utf-8")
    for name, counts in data["by_layer"].items():
        for layer, count in counts.items():
            cell = f'data-adapter="{name}" data-layer="{layer}">{count}</td>'
            assert cell in page, cell
    for name, counts in data["by_code"].items():
        for code, count in counts.items():
            cell = rf'data-adapter="{re.escape(name)}" data-code="{re.escape(code)}"[^>]*>'
            assert re.search(cell + rf"{count}</td>", page), (name, code)
    disagreeing = sum(
        1 for case in data["cases"] for result in case["results"].values() if "layer" in result
    )
    assert page.count('<tr class="case"') == disagreeing > 0


def _report(tmp_path: Path, data: Any) -> Any:
    source = tmp_path / "in.json"
    source.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return CliRunner().invoke(cli, ["report", source.as_posix(), "-o", str(tmp_path / "o.html")])


def test_input_it_cannot_interpret_is_one_line_and_65(
    tmp_path: Path, run: tuple[Path, str, bytes]
) -> None:
    data = json.loads(run[1])
    for bad, says in [
        ("not json", "is not JSON"),
        ({"format": "something-else/1"}, "is not a toolstream-diff/1 result"),
        ({k: v for k, v in data.items() if k != "by_layer"}, "lacks by_layer"),
    ]:
        done = _report(tmp_path, bad)
        assert done.exit_code == EX_DATAERR, done.output
        assert says in done.output and "Traceback" not in done.output
        assert not (tmp_path / "o.html").exists()
    strange = json.loads(run[1])
    next(iter(strange["cases"][0]["results"].values()))["classification"] = "maybe"
    with pytest.raises(ReportInputError, match="unknown classification 'maybe'"):
        render_html(strange)
    layerless = json.loads(run[1])
    for case in layerless["cases"]:
        for result in case["results"].values():
            result.pop("layer", None)
    with pytest.raises(ReportInputError, match="without a known layer"):
        render_html(layerless)


def test_report_json_follows_its_shipped_schema(run: tuple[Path, str, bytes]) -> None:
    folder, text, _ = run
    result = folder / "for-json.json"
    result.write_text(text, encoding="utf-8")
    out = folder / "json.html"
    done = CliRunner().invoke(
        cli, ["report", result.as_posix(), "-o", out.as_posix(), "--format", "json"]
    )
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)
    shipped = json.loads(
        (Path(toolstream.__file__).parent / "schemas" / "report.json").read_text("utf-8")
    )
    schema_rules.check_schema(shipped)
    assert schema_rules.first_violation(shipped, summary) is None
    data = json.loads(text)
    assert summary["disagreements"] == [
        {"column": name, "disagreements": sum(data["totals"][name][c] for c in DISAGREEMENTS)}
        for name in data["by_layer"]
    ]
    assert out.read_bytes() == run[2]


def test_a_missing_result_file_is_misuse(tmp_path: Path) -> None:
    done = CliRunner().invoke(
        cli, ["report", str(tmp_path / "absent.json"), "-o", str(tmp_path / "o.html")]
    )
    assert done.exit_code == EX_USAGE
