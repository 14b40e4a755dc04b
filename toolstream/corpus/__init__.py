"""The labelled corpus workflow: generate, verify, shrink.

* :mod:`toolstream.corpus.label` -- labels and how a verdict is compared;
* :mod:`toolstream.corpus.verify` -- check cases (serially, in processes, by shard);
* :mod:`toolstream.corpus.junit` -- JUnit XML;
* :mod:`toolstream.corpus.shrink` -- minimize a failing fixture;
* :mod:`toolstream.corpus.generate` -- draw labelled mutants (needs Hypothesis
  and the ``generators`` package, imported lazily);
* :mod:`toolstream.corpus.pytest_plugin` -- ``@pytest.mark.toolstream_cases``.

Everything but ``generate`` (and the pytest plugin, which needs pytest) uses
only the standard library; the commands live in ``toolstream.cli``.
The case file format itself (atomic writes, discovery, ``MANIFEST.jsonl``)
is :mod:`toolstream.caseio`, one layer down: serve, diff, the clients, the
gateway check and import read cases too.  See ``docs/corpus.md``.
"""

from toolstream.caseio import MANIFEST_NAME, atomic_write, dump_json, fixture_digest
from toolstream.corpus.label import compare, label_of, label_problems

__all__ = [
    "MANIFEST_NAME",
    "atomic_write",
    "compare",
    "dump_json",
    "fixture_digest",
    "label_of",
    "label_problems",
]
