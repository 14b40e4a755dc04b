"""The HTML report of a real ``toolstream diff`` run, opened in a real browser.

A few shipped corpus cases go through openai-python's and anthropic-python's
stream handling (in process) and the real openai client over HTTP (plain and
a cut transport); ``diff --html --case-details --repro-dir`` writes the
report, and headless Chromium (Debian's ``chromium`` package) opens it from
``file://``, once with a filter in the address and once at a case page: the
test reads the DOM after the page's script ran and checks every number shown
against the diff JSON, that the filter hides exactly the rows it should, that
the case page is shown alone with its stream (one row per event, each with
the JSON's slot), the reference's verdict and each column's, and links that
resolve to the reproducers written, and, from Chromium's own network log,
that the page asked for nothing.  Chromium is pointed at a closed loopback proxy and resolves no
name, so its own background requests go nowhere either.

Chromium absent: skipped with the package to install, except under CI (``CI``
set), where ``.ci/run`` installs it and its absence fails the test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from tests.support.diff_fixtures import needs
from toolstream.cli import cli
from toolstream.diff.classify import DISAGREEMENTS
from toolstream.diff.html import slot_label

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus" / "cases"
OPERATORS = ("reuse_slot", "corrupt_json", "schema_violation", "truncate", "drop_id", "refragment")
PER_OPERATOR = 1
FILTER = {"client": "openai-chat-create", "layer": "reassembly"}


def chromium() -> str:
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if found is None:
        message = "headless Chromium is needed: install Debian's chromium package"
        if os.environ.get("CI"):
            pytest.fail(message + " (.ci/run installs it)")
        pytest.skip(message + " (apt-get install chromium)")
    return found


def cases() -> list[str]:
    """The first cases, in path order, of a few operators, on the wires the
    columns take (OpenAI and Anthropic)."""
    out = []
    for operator in OPERATORS:
        taken = 0
        for path in sorted((CORPUS / operator).glob("*.json")):
            profile = json.loads(path.read_text(encoding="utf-8")).get("profile")
            if profile in ("openai", "anthropic") and taken < PER_OPERATOR:
                out.append(path.relative_to(ROOT).as_posix())
                taken += 1
    return out


class Dom(HTMLParser):
    """Every element's attributes and its direct text, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[dict[str, Any]] = []
        self.open: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(element)
        if tag not in ("meta", "br", "input", "img", "link"):
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()["tag"] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1]["text"] += data

    def find(self, tag: str, **wanted: str) -> list[dict[str, Any]]:
        return [
            e
            for e in self.elements
            if e["tag"] == tag
            and all(e["attrs"].get(k.replace("_", "-")) == v for k, v in wanted.items())
        ]


def browse(binary: str, page: Path, tmp_path: Path, fragment: str = "") -> tuple[Dom, list[str]]:
    """The DOM after the page's script ran, and the URLs the page itself
    requested (Chromium's network log: requests made for a ``file://`` page)."""
    net_log = tmp_path / f"net-{page.stem}.json"
    done = subprocess.run(
        [
            binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
            # nothing leaves the machine: every request goes to a closed loopback port
            "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--log-net-log={net_log}", "--dump-dom", page.as_uri() + fragment,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    dom = Dom()
    dom.feed(done.stdout)
    log = json.loads(net_log.read_text(encoding="utf-8"))
    names = {number: name for name, number in log["constants"]["logEventTypes"].items()}
    requested = [
        event["params"]["url"]
        for event in log["events"]
        if names.get(event["type"]) == "URL_REQUEST_START_JOB"
        and "file://" in str(event.get("params", {}).get("network_isolation_key", ""))
    ]
    return dom, requested


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    needs("openai")
    needs("anthropic")
    folder = tmp_path_factory.mktemp("html-report")
    page = folder / "report.html"
    done = CliRunner().invoke(
        cli,
        [
            "diff", *cases(), "--adapter", "openai-python", "--adapter", "anthropic-python",
            "--client", "openai-chat-create", "--transport", "plain,cut-close",
            "--format", "json", "-q", "--fail-on", "never", "--html", page.as_posix(),
            "--case-details", "--repro-dir", (folder / "repros").as_posix(),
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout), page


def test_the_browser_shows_the_jsons_numbers_and_fetches_nothing(
    report: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    binary = chromium()
    data, page = report
    fragment = "#" + "&".join(f"{k}={v}" for k, v in FILTER.items())
    dom, requested = browse(binary, page, tmp_path, fragment)
    assert requested == [], f"the report requested {requested}"

    ran = [a["name"] for a in data["adapters"] if a["skipped"] is None]
    assert len(ran) == 4
    for name in ran:
        for classification, count in data["totals"][name].items():
            shown = dom.find("b", data_adapter=name, data_classification=classification)
            assert [int(e["text"]) for e in shown] == ([count] if count else []), (
                name,
                classification,
            )
        for layer, count in data["by_layer"][name].items():
            (cell,) = dom.find("td", data_adapter=name, data_layer=layer)
            assert int(cell["text"]) == count
        disagreements = sum(data["totals"][name][c] for c in DISAGREEMENTS)
        (total,) = dom.find("td", data_adapter=name, data_layer="total")
        assert int(total["text"]) == disagreements == sum(data["by_layer"][name].values())
        for code, count in data["by_code"][name].items():
            (cell,) = dom.find("td", data_adapter=name, data_code=code)
            assert int(cell["text"]) == count
        assert len(dom.find("tr", **{"class": "case"}, data_adapter=name)) == disagreements

    rows = [e for e in dom.elements if e["tag"] == "tr" and e["attrs"].get("class") == "case"]
    visible = [r for r in rows if "hidden" not in r["attrs"]]
    wanted = [
        r
        for r in rows
        if r["attrs"]["data-client"] == FILTER["client"]
        and r["attrs"]["data-layer"] == FILTER["layer"]
    ]
    assert visible == wanted and 0 < len(visible) < len(rows)
    (counter,) = dom.find("span", id="shown")
    assert counter["text"] == f"{len(visible)} of {len(rows)} disagreement(s) shown"
    heat = dom.find("tr", **{"class": "heat-row"})
    assert any("hidden" in h["attrs"] for h in heat) and any(
        "hidden" not in h["attrs"] for h in heat
    )
    # no case page is shown while the address names a filter
    pages = dom.find("section", **{"class": "case-page"})
    assert pages and all("hidden" in p["attrs"] for p in pages)


def test_a_case_page_shows_the_stream_and_both_verdicts(
    report: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    binary = chromium()
    data, page = report
    number, case = next(
        (n, c)
        for n, c in enumerate(data["cases"])
        if any(r.get("reproducer") for r in c["results"].values())
    )
    dom, requested = browse(binary, page, tmp_path, f"#case-{number}")
    assert requested == [], f"the report requested {requested}"
    pages = dom.find("section", **{"class": "case-page"})
    assert [p["attrs"]["id"] for p in pages if "hidden" not in p["attrs"]] == [f"case-{number}"]
    start = dom.elements.index(next(p for p in pages if p["attrs"]["id"] == f"case-{number}"))
    end = next(
        (dom.elements.index(p) for p in pages if dom.elements.index(p) > start),
        len(dom.elements),
    )
    inside = dom.elements[start:end]
    events = [e for e in inside if e["tag"] == "tr" and "event" in e["attrs"].get("class", "")]
    expected = [e for item in case["stream"] for e in (item["events"] or [None])]
    assert len(events) == len(expected) > 0
    with_slot = [e["attrs"].get("data-slot") for e in events if "data-slot" in e["attrs"]]
    assert with_slot == [slot_label(e["slot"]) for e in expected if e and "slot" in e]
    assert with_slot, "a case page without any slot"
    (reference,) = [e for e in inside if e["attrs"].get("class") == "verdict reference"]
    assert reference["attrs"]["data-status"] == case["reference"]["status"]
    shown = {e["attrs"]["data-adapter"] for e in inside if e["attrs"].get("class") == "column"}
    assert shown == {n for n, r in case["results"].items() if r["classification"] != "not_run"}
    verdicts = [e for e in inside if e["attrs"].get("class") == "verdict handover"]
    assert {v["attrs"]["data-classification"] for v in verdicts} == {
        r["classification"] for r in case["results"].values() if r["classification"] != "not_run"
    }
    links = [e["attrs"]["href"] for e in inside if e["attrs"].get("class") == "reproducer"]
    wanted = {r["reproducer"] for r in case["results"].values() if "reproducer" in r}
    assert {(page.parent / unquote(h)).resolve() for h in links} == {
        Path(w).resolve() for w in wanted
    }
    assert all(Path(w).is_file() for w in wanted)


def test_the_network_check_sees_a_page_that_fetches(tmp_path: Path) -> None:
    """The check above can fail: a page with an image from elsewhere is seen
    asking for it (the request goes to the closed loopback proxy)."""
    binary = chromium()
    probe = tmp_path / "probe.html"
    probe.write_text('<img src="http://asset.invalid/x.png">', encoding="utf-8")
    _, requested = browse(binary, probe, tmp_path)
    assert requested == ["http://asset.invalid/x.png"]
