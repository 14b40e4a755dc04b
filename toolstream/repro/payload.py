"""What a reproducer embeds: the exact response ``toolstream serve`` gives
for one case under one transport, the request the driver sends, and the
reference's verdict and the diff's classification, all computed at
generation time so that the script needs neither toolstream nor a network."""

from __future__ import annotations

import ast
import base64
import itertools
import json
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "Judgement",
    "ReproError",
    "Wire",
    "code_words",
    "judge",
    "judgement_of",
    "payload",
    "wire_of",
]


class ReproError(Exception):
    """A reproducer that cannot be written; the message is one line."""


@dataclass(frozen=True)
class Wire:
    """The response, write for write: its headers, each body write (before
    chunk framing), whether the body is chunked, whether it ends properly
    (a cut body is followed by closing the connection) and the pause
    between writes."""

    headers: list[tuple[str, str]]
    writes: list[bytes]
    chunked: bool
    complete: bool
    pause: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "headers": [list(h) for h in self.headers],
            "writes": [base64.b64encode(w).decode("ascii") for w in self.writes],
            "chunked": self.chunked,
            "complete": self.complete,
            "pause": self.pause,
        }


def wire_of(source: Any, transport_name: str) -> Wire:
    """The bytes ``toolstream serve`` writes for ``source`` (a case file, read
    as serve reads it, or a fixture) under the
    transport (a ``diff --transport`` name or a serve spec): the same
    records, the same cut into writes (split, chop, cut points) as
    :func:`toolstream.serve.transport.plan` makes for the server."""
    from toolstream.clients.transports import serve_spec
    from toolstream.serve.cases import collect
    from toolstream.serve.endpoints import ENDPOINTS
    from toolstream.serve.server import CASE_HEADER
    from toolstream.serve.transport import TransportError, parse_transport, plan

    try:
        transport = parse_transport(serve_spec(transport_name))
    except TransportError as error:
        raise ReproError(f"transport {transport_name!r}: {error}") from None
    (served,) = collect(source if isinstance(source, (str, Path)) else ("repro", dict(source)))
    endpoint = ENDPOINTS.get(served.profile)
    if endpoint is None or served.problem is not None:
        raise ReproError(f"the case cannot be served: {served.problem or served.profile}")
    inapplicable = transport.applies_to(endpoint)
    if inapplicable is not None:
        raise ReproError(f"transport {transport_name!r}: {inapplicable}")
    writes = plan(endpoint.records(served.stream), endpoint, transport)
    headers = [(k, v) for k, v in endpoint.response_headers("req_repro").items()]
    headers.append(("Cache-Control", "no-cache"))
    headers.append((CASE_HEADER, "repro"))
    if writes.close_delimited:
        headers.append(("Connection", "close"))
    else:
        headers.append(("Transfer-Encoding", "chunked"))
    return Wire(
        headers, list(writes.writes), not writes.close_delimited, writes.complete, writes.pause
    )


@cache
def _code_docs() -> dict[str, str]:
    """Finding code -> the first sentence of its docstring in findings.py."""
    import toolstream.findings as findings

    tree = ast.parse(Path(findings.__file__).read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or node.name != "Code":
            continue
        body = node.body
        for here, after in itertools.pairwise(body):
            if (
                isinstance(here, ast.Assign)
                and isinstance(here.value, ast.Constant)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                text = " ".join(after.value.value.split())
                out[str(here.value.value)] = text.split(". ")[0].rstrip(".") + "."
    return out


def code_words(codes: list[str]) -> dict[str, str]:
    """Each finding code with what it means, in words."""
    docs = _code_docs()
    return {code: docs.get(code, "(no description)") for code in codes}


@dataclass(frozen=True)
class Judgement:
    """What ``toolstream diff --client`` concludes for one case: the
    reference's verdict on what the client receives, the classification,
    the one-line detail and the library's version."""

    name: str
    package: str
    version: str
    classification: str
    detail: str
    reference: dict[str, Any]


def judge(case_path: str, client: str, transport: str, timeout: float = 30.0) -> Judgement:
    """Run ``toolstream diff CASE --client CLIENT --transport T --format json``
    (in a child process: the same run a user gets) and read its one result."""
    command = [
        sys.executable, "-c", "from toolstream.cli import main; main()", "diff", case_path,
        "--client", client, "--transport", transport,
        "--format", "json", "--fail-on", "never", "--timeout", str(timeout),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    try:
        data = json.loads(done.stdout)
    except ValueError:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ReproError(f"toolstream diff failed: {last}") from None
    adapters = [a for a in data.get("adapters", []) if a.get("skipped") is None]
    if not adapters or not data.get("cases"):
        skipped = [a.get("skipped") for a in data.get("adapters", [])]
        raise ReproError(f"client {client!r} did not run: {skipped[0] if skipped else 'no case'}")
    info = adapters[0]
    (case,) = data["cases"]
    result = case["results"][info["name"]]
    if result["classification"] == "not_run":
        raise ReproError(f"client {client!r} does not run this case: {result['detail']}")
    return judgement_of(info, case)


def judgement_of(adapter: Mapping[str, Any], case: Mapping[str, Any]) -> Judgement:
    """The judgement of one column (``adapter``, an entry of a diff JSON's
    ``adapters``) on one case (an entry of its ``cases``)."""
    result = case["results"][adapter["name"]]
    return Judgement(
        name=adapter["name"],
        package=str(adapter["package"]),
        version=str(adapter["version"]),
        classification=result["classification"],
        detail=result.get("detail", ""),
        reference=result.get("reference") or case["reference"],
    )


def payload(
    fixture: Mapping[str, Any], case_path: str, client: str, transport: str, judged: Judgement
) -> dict[str, Any]:
    """Everything the script embeds, JSON-ready."""
    from toolstream.clients.base import fixture_tool_choice, fixture_tools

    reference = dict(judged.reference)
    codes = [str(c) for c in reference.get("codes", [])]
    return {
        "case": Path(case_path).as_posix(),
        "client": client,
        "transport": transport,
        "package": judged.package,
        "version": judged.version,
        "classification": judged.classification,
        "detail": judged.detail,
        "reference": {
            "status": reference.get("status"),
            "codes": codes,
            "words": code_words(codes),
            "calls": reference.get("calls", []),
        },
        "tools": [[name, schema] for name, schema in fixture_tools(fixture)],
        "tool_choice": fixture_tool_choice(fixture),
        "wire": wire_of(case_path, transport).to_dict(),
    }
