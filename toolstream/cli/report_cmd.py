"""``toolstream report``: a diff result (JSON) as one self-contained HTML file."""

from __future__ import annotations

import click

from toolstream.cli.errors import Misuse, Unreadable


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
def report(result_file: str, output: str) -> None:
    """Render RESULT.json, the output of `toolstream diff --format json`, as
    one static HTML file that fetches nothing and opens from file://: the
    matrix of clients x transports, the disagreements by layer of
    responsibility, a heatmap of columns x (layer, code), and per column its
    disagreements grouped by what it did, each case with the reference and
    what the library handed over; filters by client, transport, layer and
    classification. The same JSON gives the same bytes.

    Exit status: 0 written; 64 misuse (no such RESULT.json, the output cannot
    be written); 65 RESULT.json is not JSON or not a diff result; 130
    interrupted.
    """
    from toolstream.diff.html import ReportInputError, read_result, write_html

    try:
        data = read_result(result_file)
        write_html(data, output)
    except ReportInputError as error:
        raise Unreadable(str(error)) from None
    except OSError as error:
        raise Misuse(f"cannot write {output}: {error.strerror or error}") from None
    click.echo(f"wrote {output}", err=True)
