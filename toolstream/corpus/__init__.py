"""The labelled corpus workflow: generate, verify, shrink.

* :mod:`toolstream.corpus.caseio` -- the case file format, atomic writes,
  discovery, ``MANIFEST.jsonl``;
* :mod:`toolstream.corpus.label` -- labels and how a verdict is compared;
* :mod:`toolstream.corpus.verify` -- check cases (serially, in processes, by shard);
* :mod:`toolstream.corpus.junit` -- JUnit XML;
* :mod:`toolstream.corpus.shrink` -- minimize a failing fixture;
* :mod:`toolstream.corpus.generate` -- draw labelled mutants (needs Hypothesis
  and the ``generators`` package, imported lazily);
* :mod:`toolstream.corpus.pytest_plugin` -- ``@pytest.mark.toolstream_cases``.

Everything but ``generate`` (and the pytest plugin, which needs pytest) uses
only the standard library; the commands live in ``toolstream.cli``.
See ``docs/corpus.md``.
"""

from toolstream.corpus.caseio import MANIFEST_NAME, atomic_write, dump_json, fixture_digest
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
