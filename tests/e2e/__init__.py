"""The e2e tier of the pytest suite (see tests/README.md).

These modules are pytest tests.  Under the standard library's runner (the
release check, `python3 -m unittest discover -s tests -p 'test_*.py'`) this
package contributes no tests: that command runs the standard-library suite
at the top of tests/ only, which needs nothing installed.
"""

from __future__ import annotations

import unittest


def load_tests(
    loader: unittest.TestLoader, standard_tests: unittest.TestSuite, pattern: str | None
) -> unittest.TestSuite:
    # unittest calls this instead of importing the modules (which import pytest).
    return unittest.TestSuite()
