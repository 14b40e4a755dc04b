"""The Python API and ``toolstream diff`` are one run: for the same corpus and
specs, ``diff_corpus(...).to_json()`` is byte for byte what ``--format json``
prints, for every transport (the cut ones judged against their prefix in both)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.corpus_cases import seed, variants, write_case
from tests.support.diff_fixtures import needs
from toolstream.cli import cli
from toolstream.clients.transports import TRANSPORTS
from toolstream.diff import diff_corpus, judge_case
from toolstream.diff.session import RunSpec, client_specs, cut_of, parse_spec

CLIENT = "openai-chat-create"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("api-cli")
    parallel = seed("openai-parallel")
    write_case(folder, parallel, operator="seed")
    for variant in variants(parallel)[:2]:
        write_case(folder, variant, operator="drop_item")
    write_case(folder, seed("anthropic-text-and-tools"), operator="seed")  # not_run for the client
    return folder.as_posix()


def cli_json(corpus: str, transports: str) -> str:
    result = CliRunner().invoke(
        cli,
        [
            "diff", corpus, "--adapter", "openai-python", "--client", CLIENT,
            "--transport", transports, "--format", "json", "-q", "--fail-on", "never",
        ],
    )  # fmt: skip
    # 1: a cut client that refuses every prefix for one reason "proves nothing"
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def api_json(corpus: str, transports: list[str]) -> str:
    specs: list[str | RunSpec] = ["openai-python", *client_specs([CLIENT], transports)]
    return diff_corpus(corpus, specs).to_json()


@pytest.mark.parametrize("transport", list(TRANSPORTS))
def test_api_and_cli_give_the_same_bytes(corpus: str, transport: str) -> None:
    needs("openai")
    cli_out = cli_json(corpus, transport)
    assert api_json(corpus, [transport]) == cli_out
    report = json.loads(cli_out)
    assert "groups" not in report
    column = parse_spec(f"client:{CLIENT}@{transport}").text.removeprefix("client:")
    assert column in report["totals"]
    assert report["totals"][column]["agree"] + report["totals"][column]["not_run"] >= 1


def test_every_transport_at_once_is_one_object(corpus: str) -> None:
    needs("openai")
    transports = list(TRANSPORTS)
    cli_out = cli_json(corpus, ",".join(transports))
    assert api_json(corpus, transports) == cli_out
    report = json.loads(cli_out)
    assert len(report["totals"]) == 1 + len(transports)
    cut_rows = [
        row
        for case in report["cases"]
        for name, row in case["results"].items()
        if name.endswith(("@cut-chunked", "@cut-close"))
    ]
    assert cut_rows and all(r["transport"] in ("cut-chunked", "cut-close") for r in cut_rows)
    assert all("reference" in r for r in cut_rows)


def test_judge_case_is_the_row_diff_gives(corpus: str) -> None:
    """One fixture through ``judge_case`` gives the row of that case in a
    corpus run, cut transport included."""
    needs("openai")
    path = sorted(Path(corpus).glob("seed/*.json"))
    openai_case = next(p for p in path if json.loads(p.read_text())["profile"] == "openai")
    fixture: dict[str, Any] = json.loads(openai_case.read_text())
    spec = f"client:{CLIENT}@cut-chunked"
    row = judge_case(fixture, spec, case_id="one").to_dict()
    whole = json.loads(diff_corpus(openai_case.as_posix(), [spec]).to_json())
    (case,) = whole["cases"]
    assert row["results"] == case["results"]
    assert row["reference"] == case["reference"] and row["path"] == "one"


def test_spec_text_round_trips() -> None:
    texts = (
        "openai-python",
        "cmd:python x.py",
        "lines:node a.js",
        "client:a",
        "client:b@cut-close",
    )
    for text in texts:
        assert parse_spec(text).text == text
    assert parse_spec("client:a@plain").text == "client:a"
    assert cut_of(parse_spec("client:a@cut-close")) == "cut-close"
    assert cut_of(parse_spec("client:a@split")) is None
    assert cut_of(parse_spec("cmd:python x.py")) is None
