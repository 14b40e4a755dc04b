"""Digests of the reference's reports over the corpus and the bench streams:
the check that a speed change changed no verdict, no finding and no byte.

    PYTHONPATH=TREE python bench/report_digest.py [--corpus corpus/cases]

prints one JSON object: for the corpus, a SHA-256 over every case's
``validate_bytes`` report, one over its ``validate`` report (the parsed
envelope, the other route), and one over the report of a ``Gate`` fed the
stream item by item for every third case (the gate's own route, no runs
taken); for each bench stream (both profiles, both shapes, 1k and 10k
chunks), the same three digests, each also with an escaped colon and a
repeated key written into the file (the ledger's two refusals).  Run it with
``PYTHONPATH`` set to each tree and compare the output: equal digests mean
equal bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import streams  # noqa: E402


def _reports(data: bytes, fed: bool) -> tuple[bytes, bytes, bytes]:
    import toolstream
    from toolstream.envelope import parse_fixture_bytes
    from toolstream.limits import Limits

    by_bytes = toolstream.validate_bytes(data).to_json().encode()
    try:
        fixture: Any = parse_fixture_bytes(data, Limits())
    except Exception as error:  # the report above says what is wrong
        return by_bytes, repr(type(error)).encode(), b""
    parsed = toolstream.validate(fixture).to_json().encode()
    if not fed or not isinstance(fixture, dict):
        return by_bytes, parsed, b""
    from toolstream.profiles import PROFILES

    profile = fixture.get("profile")
    profile_class = PROFILES.get(profile) if isinstance(profile, str) else None
    if profile_class is None or not isinstance(profile, str):
        return by_bytes, parsed, b"no profile"
    stream = fixture.get(profile_class.stream_key)
    try:
        gate = toolstream.Gate(profile, fixture.get("tool_schemas") or {}, fixture.get("request"))
    except (ValueError, TypeError):
        return by_bytes, parsed, b"no gate"
    for item in stream if isinstance(stream, list) else ():
        gate.feed(item)
    return by_bytes, parsed, gate.close().to_json().encode()


def _variants(data: bytes) -> list[bytes]:
    """The file, then with an escaped colon and with a repeated key."""
    escaped = data.replace(b'"profile":', b'"profile\\u003a":', 1)
    repeated = data.replace(b'"profile":', b'"profile": "x", "profile":', 1)
    return [data, escaped, repeated]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("corpus/cases"))
    args = parser.parse_args(argv)
    digests: dict[str, hashlib._Hash] = {
        name: hashlib.sha256() for name in ("corpus_bytes", "corpus_parsed", "corpus_fed")
    }
    paths = sorted(p for p in args.corpus.rglob("*.json") if p.name != "MANIFEST.json")
    for number, path in enumerate(paths):
        reports = _reports(path.read_bytes(), number % 3 == 0)
        names = ("corpus_bytes", "corpus_parsed", "corpus_fed")
        for name, report in zip(names, reports, strict=True):
            digests[name].update(str(path.relative_to(args.corpus)).encode() + b"\0" + report)
    import toolstream

    out: dict[str, Any] = {"cases": len(paths), "tree": str(Path(toolstream.__file__).parents[1])}
    out.update({name: digest.hexdigest() for name, digest in digests.items()})
    for profile in ("openai", "anthropic"):
        for shape in ("single", "par16"):
            for chunks in (1000, 10000):
                digest = hashlib.sha256()
                for data in _variants(streams.build(profile, shape, chunks).dumps()):
                    for report in _reports(data, True):
                        digest.update(report + b"\0")
                out[f"{profile}-{shape}-{chunks}"] = digest.hexdigest()
    print(json.dumps(out, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
