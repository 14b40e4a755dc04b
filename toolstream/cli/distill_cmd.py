"""``toolstream distill``: the smallest subset of a corpus keeping every
behaviour a recorded diff run observed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from toolstream.cli.errors import Misuse, Unreadable
from toolstream.cli.render import format_option


def _read_result(path: str) -> dict[str, Any]:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise Misuse(f"cannot read {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise Unreadable(f"{path}: not a JSON diff result ({error})") from None
    if not isinstance(document, dict):
        raise Unreadable(f"{path}: not a JSON object")
    return document


@click.command(short_help="The smallest subset of a corpus keeping every observed behaviour.")
@click.argument("corpus", type=click.Path(file_okay=False), metavar="CORPUS")
@click.option(
    "--result",
    "result_files",
    multiple=True,
    required=True,
    metavar="RESULT.json",
    help="A recorded run over CORPUS (toolstream diff --format json, or toolstream merge"
    " of its shards). Repeatable: several runs (other clients, other transports) are"
    " joined case by case.",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Where the kept cases go (the corpus' layout, MANIFEST.jsonl, DISTILL.jsonl).",
)
@format_option
def distill(corpus: str, result_files: tuple[str, ...], output: str, output_format: str) -> None:
    """Keep the fewest cases of CORPUS that still show every behaviour the
    recorded runs observed: per column (adapter, client@transport), the
    verdict judged against, the operator, the profile and the outcome
    signature (classification, exception type, differing fields).  A greedy
    set cover with deterministic ties (the smaller file, then the path);
    DIR/DISTILL.jsonl names, per kept case, the behaviours it witnesses.

    Exit status: 0 written; 64 misuse (no such corpus, DIR holds cases, a
    corpus case the runs did not judge, a row that is no case of CORPUS);
    65 a result that is not a diff result; 130 interrupted.
    """
    from toolstream.corpus.distill import DISTILL_NAME, DistillError, write_distilled
    from toolstream.corpus.distill import distill as distill_corpus

    if not Path(corpus).is_dir():
        raise Misuse(f"{corpus}: no such folder")
    results = [_read_result(path) for path in result_files]
    for path, document in zip(result_files, results, strict=True):
        if document.get("format") != "toolstream-diff/1":
            raise Unreadable(f"{path}: not a toolstream diff result (toolstream-diff/1)")
    try:
        distilled = distill_corpus(corpus, results)
        write_distilled(corpus, distilled, output)
    except DistillError as error:
        raise Misuse(str(error)) from None
    except OSError as error:
        raise Misuse(f"cannot write {output}: {error.strerror or error}") from None
    if output_format == "json":
        report = {
            "distill_version": 1,
            "output": output,
            "manifest": f"{Path(output).as_posix()}/{DISTILL_NAME}",
            "cases_total": distilled.cases_total,
            "kept": len(distilled.kept),
            "behaviours": distilled.behaviours_total,
        }
        sys.stdout.write(json.dumps(report, ensure_ascii=True, indent=2) + "\n")
    else:
        click.echo(
            f"distill: kept {len(distilled.kept)} of {distilled.cases_total} case(s),"
            f" {distilled.behaviours_total} behaviour(s) each with a witness: {output}"
        )
