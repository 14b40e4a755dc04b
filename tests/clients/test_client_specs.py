"""``--client NAME[@TRANSPORT]``: one parse for ``diff``, ``shrink`` and
``repro``; an unknown transport is a usage error before anything runs (a
server refusing every case would otherwise read as the library refusing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolstream.adapters.spec import RunSpec, client_specs, parse_client
from toolstream.cli import cli
from toolstream.clients import CLIENTS, TRANSPORTS

SEED = Path(__file__).resolve().parents[2] / "corpus" / "seeds" / "openai-parallel.json"


def test_a_client_value_parses_as_a_client_spec() -> None:
    assert parse_client("a") == RunSpec("client", "a", "plain")
    assert parse_client("a@cut-close") == RunSpec("client", "a", "cut-close")
    assert parse_client("a@every:7,crlf") == RunSpec("client", "a", "every:7,crlf")
    assert parse_client("a@plain").text == "client:a"


def test_a_transport_written_with_the_name_is_not_crossed_with_the_others() -> None:
    specs = client_specs(["a@cut-close", "b", "a@cut-close"], ["plain", "split"])
    assert [s.text for s in specs] == ["client:a@cut-close", "client:b", "client:b@split"]
    # the same column asked twice (b, b@plain) runs once
    assert [s.text for s in client_specs(["b", "b@plain"], ["plain"])] == ["client:b"]


def test_diff_takes_a_client_with_its_transport() -> None:
    pytest.importorskip("openai")
    done = CliRunner().invoke(
        cli,
        ["diff", str(SEED), "--client", "openai-chat-create@split", "--transport", "cut-close",
         "--format", "json", "-q"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    names = [a["name"] for a in json.loads(done.stdout)["adapters"]]
    assert names == ["openai-chat-create@split"]


@pytest.mark.parametrize("command", ["diff", "shrink", "repro"])
def test_an_unknown_transport_is_misuse_everywhere(tmp_path: Path, command: str) -> None:
    pytest.importorskip("openai")
    argv = {
        "diff": ["diff", str(SEED), "--client", "openai-chat-create", "--transport", "nope"],
        "shrink": ["shrink", str(SEED), "--client", "openai-chat-create@nope",
                   "-o", str(tmp_path / "min.json")],
        "repro": ["repro", str(SEED), "--client", "openai-chat-create@nope",
                  "-o", str(tmp_path / "repro.py")],
    }[command]  # fmt: skip
    done = CliRunner().invoke(cli, argv)
    assert done.exit_code == 64, done.output
    assert "transport 'nope' is not one of plain, split" in done.output
    assert "Traceback" not in done.output
    assert not list(tmp_path.iterdir())


def _pairs(clients: list[str], transports: list[str]) -> list[str]:
    return [f"{c}@{t}" for c in clients for t in transports]


# every client under plain and one cut; every transport for an SSE, an
# event-stream and a JavaScript client; the whole grid is slow (about 30 s)
SPOT = sorted(
    {
        *_pairs(list(CLIENTS), ["plain", "cut-close"]),
        *_pairs(["openai-chat-create", "boto3-converse-stream", "ai-sdk-openai-chat"],
                list(TRANSPORTS)),
    }
)  # fmt: skip
GRID = sorted(set(_pairs(list(CLIENTS), list(TRANSPORTS))) - set(SPOT))


@pytest.mark.parametrize("spec", [*SPOT, *(pytest.param(s, marks=pytest.mark.slow) for s in GRID)])
def test_shrink_takes_every_client_and_transport_diff_runs(spec: str) -> None:
    """``shrink --client NAME@TRANSPORT`` loads the pair exactly when ``diff
    --client`` runs it, and otherwise refuses it with diff's own reason (a
    missing library, a transport the client cannot receive): never a pair
    diff runs and shrink refuses, nor one shrink takes and diff skips."""
    from toolstream.corpus import shrink as shrinking
    from toolstream.diff.runner import resolve_adapters

    (diff_side,) = resolve_adapters([f"client:{spec}"])
    try:
        loaded = shrinking.load_client(spec)
    except shrinking.ShrinkError as refused:
        assert refused.usage
        assert str(refused) == diff_side.info.skipped
    else:
        assert diff_side.info.skipped is None
        assert f"{loaded.client.name}@{loaded.transport}" == spec
