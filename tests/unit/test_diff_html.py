"""The HTML report of a diff result (``toolstream report``, ``diff --html``):
deterministic bytes, rendered from the JSON only (``--case-details`` adds the
streams it shows, nothing else changes the JSON), one self-contained file,
case pages with each stream's slots as the profile reads them, and a one-line
error for input it cannot interpret.  The browser test is
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
from toolstream.diff.html import ReportInputError, render_html, slot_label
from toolstream.diff.stream import MAX_ITEMS, stream_rows

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
    text_only = oai(
        {"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "stop"}]}
    )
    write_case(corpus, text_only, operator="text_only")  # every column agrees
    html = folder / "diff.html"
    done = CliRunner().invoke(
        cli,
        [
            "diff", corpus.as_posix(), "--adapter", NAIVE, "--adapter", CAUTIOUS,
            "--format", "json", "-q", "--fail-on", "never", "--html", html.as_posix(),
            "--case-details",
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    return folder, done.stdout, html.read_bytes()


def test_without_case_details_the_json_is_what_it_was(run: tuple[Path, str, bytes]) -> None:
    """--html gathers the streams for the page; the JSON carries them only
    when --case-details asks, and is otherwise the run's plain JSON."""
    folder, detailed, _ = run
    args = ["diff", (folder / "corpus").as_posix(), "--adapter", NAIVE, "--adapter", CAUTIOUS]
    args += ["--format", "json", "-q", "--fail-on", "never"]
    plain = CliRunner().invoke(cli, args)
    with_html = CliRunner().invoke(cli, [*args, "--html", str(folder / "other.html")])
    assert plain.exit_code == with_html.exit_code == 0
    assert plain.stdout == with_html.stdout
    data, more = json.loads(plain.stdout), json.loads(detailed)
    assert all("stream" not in case for case in data["cases"])
    assert "findings" not in json.dumps(data["cases"])
    # --case-details only adds members, on the cases with a disagreement
    for case, extended in zip(data["cases"], more["cases"], strict=True):
        disagrees = any("layer" in r for r in case["results"].values())
        assert ("stream" in extended) == disagrees
        for key, value in case.items():
            if key != "reference":
                assert extended[key] == value or key == "results"
        assert {k: v for k, v in extended["reference"].items() if k != "findings"} == case[
            "reference"
        ]


def test_the_stream_rows_put_each_fragment_in_the_slot_the_verdict_reassembles() -> None:
    """The slots come from the profile's own reading: the texts of each
    slot's fragments, joined, are the arguments of the reference's call."""
    rows = stream_rows(PARALLEL)
    assert [row["pos"] for row in rows] == list(range(len(PARALLEL["chunks"])))
    texts: dict[str, str] = {}
    ids: dict[str, str] = {}
    for row in rows:
        for event in row["events"]:
            if event["event"] in ("open", "fragment") and event.get("id"):
                ids[slot_label(event["slot"])] = event["id"]
            if event["event"] == "fragment" and event.get("text") is not None:
                key = slot_label(event["slot"])
                texts[key] = texts.get(key, "") + event["text"]
    calls = toolstream.validate(PARALLEL).client_calls()
    assert {ids[k]: v for k, v in texts.items()} == {c.id: c.arguments for c in calls}
    assert len(texts) == 2
    # the reused index: both calls' fragments land in one slot, as the verdict says
    reused = stream_rows(REUSED_INDEX)
    assert {slot_label(e["slot"]) for r in reused for e in r["events"] if "slot" in e} == {"0"}


def test_stream_rows_are_bounded_and_never_raise() -> None:
    long = oai(*[chunk(tc(0, args="x" * 1000)) for _ in range(MAX_ITEMS + 5)], END)
    rows = stream_rows(long)
    assert len(rows) == MAX_ITEMS + 1 and rows[-1] == {"pos": MAX_ITEMS, "more": 6}
    assert all(len(r["item"]) < 500 for r in rows[:-1])
    assert stream_rows({"profile": "nope"}) == []
    # the members every chunk repeats are named, not shown again
    envelope = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m"}
    repeating = oai(*({**c, **envelope} for c in PARALLEL["chunks"]))
    again = stream_rows(repeating)
    assert "repeats" not in again[0] and '"id":"chatcmpl-1"' in again[0]["item"]
    assert all(r["repeats"] == ["id", "object", "model"] for r in again[1:])
    assert all("chatcmpl-1" not in r["item"] for r in again[1:])
    assert [r["events"] for r in again] == [r["events"] for r in stream_rows(PARALLEL)]
    refused = stream_rows(oai(chunk(tc(0, "call_1", "weather", "{}")), {"choices": "x"}))
    assert refused[1].get("error") and refused[1]["events"] == []


def test_case_pages_show_the_stream_and_both_verdicts(run: tuple[Path, str, bytes]) -> None:
    _, text, written = run
    data = json.loads(text)
    page = written.decode("utf-8")
    disagreeing = [
        (number, case)
        for number, case in enumerate(data["cases"])
        if any("layer" in r for r in case["results"].values())
    ]
    assert page.count('<section class="case-page"') == len(disagreeing) > 0
    for number, case in disagreeing:
        section = page.split(f'id="case-{number}"', 1)[1].split("</section>", 1)[0]
        slots = [slot_label(e["slot"]) for r in case["stream"] for e in r["events"] if "slot" in e]
        assert re.findall(r'<tr class="event[^"]*" data-slot="([^"]*)"', section) == slots
        assert f'data-status="{case["reference"]["status"]}"' in section
        for code in case["reference"]["codes"]:
            assert f'<li class="finding" data-code="{code}">' in section
        shown = re.findall(r'<span class="column" data-adapter="([^"]+)">', section)
        assert sorted(shown) == sorted(case["results"])
    # a case every column agrees on has no page
    agreed = [n for n, c in enumerate(data["cases"]) if (n, c) not in disagreeing]
    assert agreed and all(f'id="case-{n}"' not in page for n in agreed)


def test_a_cap_lists_the_first_cases_of_each_group(run: tuple[Path, str, bytes]) -> None:
    data = json.loads(run[1])
    full = render_html(data)
    capped = render_html(data, cases_per_group=1)
    group_count = re.compile(r'<tr class="group"[^>]*>.*?<td class="num">(\d+)</td>', re.S)
    groups = group_count.findall(full)
    assert sum(map(int, groups)) == full.count('<tr class="case"')
    # no case rows: each group links its first case, and the page says so
    assert '<tr class="case"' not in capped and any(int(n) > 1 for n in groups)
    examples = re.findall(r'<a class="example" href="#(case-\d+)"', capped)
    assert len(examples) == len(groups) < full.count('<tr class="case"')
    assert "each group lists its first 1 case(s)" in capped
    # the counts shown stay the JSON's
    assert group_count.findall(capped) == groups
    assert set(re.findall(r'<section class="case-page" id="(case-\d+)"', capped)) == set(examples)
    assert len(re.findall(r'<a class="example"', render_html(data, cases_per_group=2))) > len(
        examples
    )


def test_links_are_relative_to_the_html_file(run: tuple[Path, str, bytes], tmp_path: Path) -> None:
    data = json.loads(run[1])
    case = next(c for c in data["cases"] if "stream" in c)
    name = next(iter(case["results"]))
    script = tmp_path / "repros" / "x y.py"
    script.parent.mkdir()
    script.write_text("", encoding="utf-8")
    case["results"][name]["reproducer"] = script.as_posix()
    page = render_html(data, location=tmp_path / "out" / "report.html")
    assert 'class="reproducer" href="../repros/x%20y.py"' in page
    case_link = Path(case["path"]).resolve()
    hrefs = re.findall(r'<a href="([^"#][^"]*)">the case file</a>', page)
    assert hrefs and all((tmp_path / "out" / h).resolve() == case_link for h in hrefs[:1])


def test_report_of_the_json_is_what_diff_html_wrote(run: tuple[Path, str, bytes]) -> None:
    folder, text, written = run
    result = folder / "result.json"
    result.write_text(text, encoding="utf-8")
    out = folder / "report.html"  # beside diff.html: the same relative links
    done = CliRunner().invoke(cli, ["report", result.as_posix(), "-o", out.as_posix()])
    assert done.exit_code == 0, done.output
    assert out.read_bytes() == written
    again = render_html(json.loads(text), location=out).encode("utf-8")
    assert again == written  # the same JSON, the same bytes
    assert not list(folder.glob("*.tmp")) and not [p for p in folder.iterdir() if "tmp" in p.name]


def test_the_page_is_self_contained_and_escapes_the_data(run: tuple[Path, str, bytes]) -> None:
    written = run[2]
    page = written.decode("utf-8")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # nothing that could fetch: no source at all, links only within the page
    # or to relative files (the case file, a reproducer), never to a host
    assert not re.search(r"""\ssrc\s*=""", page)
    hrefs = re.findall(r"""href\s*=\s*["']([^"']*)""", page)
    assert hrefs and all(h.startswith("#") or not re.match(r"^([a-z]+:|//|/)", h) for h in hrefs)
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


def test_case_details_json_follows_the_shipped_diff_schema(run: tuple[Path, str, bytes]) -> None:
    shipped = json.loads(
        (Path(toolstream.__file__).parent / "schemas" / "diff.json").read_text("utf-8")
    )
    data = json.loads(run[1])
    assert any("stream" in case for case in data["cases"])
    assert schema_rules.first_violation(shipped, data) is None
    data["cases"][0]["stream"] = [{"pos": 0, "slot": "not a member"}]
    assert schema_rules.first_violation(shipped, data) is not None


def test_a_column_without_a_disagreement_is_shown_empty(run: tuple[Path, str, bytes]) -> None:
    data = json.loads(run[1])
    quiet = data["adapters"][0]["name"]
    data["by_code"][quiet] = {}
    for case in data["cases"]:
        case["results"][quiet] = {"classification": "agree", "detail": "agrees"}
    page = render_html(data)
    assert f'data-adapter="{quiet}" data-code=' in page
    assert not re.search(rf'data-adapter="{re.escape(quiet)}" data-code="[^"]*"[^>]*>\d', page)


def test_an_empty_stream_is_said_so(run: tuple[Path, str, bytes]) -> None:
    data = json.loads(run[1])
    case = next(c for c in data["cases"] if "stream" in c)
    case["stream"] = []
    assert "The stream has no item." in render_html(data)


def test_a_lone_surrogate_in_a_case_is_shown_as_its_escape(tmp_path: Path) -> None:
    """UTF-8 cannot hold a lone surrogate (the lone_surrogate operator's,
    decoded from a JSON escape): the page writes it as its JSON escape."""
    corpus = tmp_path / "corpus"
    write_case(corpus, oai(chunk(tc(0, "call_1", "weather", '{"city":"\ud800"}')), END))
    html = tmp_path / "diff.html"
    done = CliRunner().invoke(
        cli,
        [
            "diff", corpus.as_posix(), "--adapter", NAIVE, "--format", "json", "-q",
            "--fail-on", "never", "--html", html.as_posix(), "--case-details",
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    page = html.read_bytes().decode("utf-8")
    assert "\\ud800" in page
