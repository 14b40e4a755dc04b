"""``toolstream report``: a diff result (JSON) as one self-contained HTML file."""

from __future__ import annotations

import json
import sys

import click

from toolstream.cli.errors import Misuse, Unreadable
from toolstream.cli.render import format_option

REPORT_JSON_VERSION = 1


@click.command(short_help="Render a diff result (JSON) as one offline HTML report.")
@click.argument("result_file", metavar="RESULT.json", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="The HTML file to write (replaced atomically).",
)
@click.option(
    "--cases-per-group",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="List only the first N cases of each group (and give only those a case page):"
    " a whole-corpus run stays a small file. The counts shown stay the JSON's.",
)
@format_option
def report(
    result_file: str,
    output: str,
    cases_per_group: int | None = None,
    output_format: str = "text",
) -> None:
    """Render RESULT.json, the output of `toolstream diff --format json`, as
    one static HTML file that fetches nothing and opens from file://: the
    matrix of clients x transports, the disagreements by layer of
    responsibility, a heatmap of columns x (layer, code), and per column its
    disagreements grouped by what it did; a page per case with a disagreement:
    its stream item by item with the slot of each event (in RESULT.json with
    diff --case-details), the reference's verdict and findings and what each
    column handed over, the differences marked, with relative links to the
    case file and reproducers (diff --repro-dir); filters by client,
    transport, layer and classification. The same JSON gives the same bytes.
    With --format json, one object on stdout: the file written and the
    numbers it shows.

    Exit status: 0 written; 64 misuse (no such RESULT.json, the output cannot
    be written); 65 RESULT.json is not JSON or not a diff result; 130
    interrupted.
    """
    from toolstream.diff.html import ReportInputError, read_result, write_html

    try:
        data = read_result(result_file)
        write_html(data, output, cases_per_group=cases_per_group)
    except ReportInputError as error:
        raise Unreadable(str(error)) from None
    except OSError as error:
        raise Misuse(f"cannot write {output}: {error.strerror or error}") from None
    if output_format == "json":
        ran = [a["name"] for a in data["adapters"] if a.get("skipped") is None]
        summary = {
            "report_version": REPORT_JSON_VERSION,
            "output": output,
            "cases_total": data["cases_total"],
            "columns": len(ran),
            "disagreements": [
                {"column": name, "disagreements": sum(data["by_layer"][name].values())}
                for name in ran
            ],
        }
        sys.stdout.write(json.dumps(summary, indent=2, sort_keys=True) + "\n")
        return
    click.echo(f"wrote {output}", err=True)
