"""toolstream: a conformance kit for streamed LLM tool calls.

The validator core (this package minus ``toolstream.cli``, ``toolstream.corpus``
and ``toolstream.adapters``) uses only the standard library, so it can be
vendored into a locked-down CI.
"""

from toolstream.api import validate, validate_bytes
from toolstream.findings import Code, Finding
from toolstream.gate import Gate
from toolstream.limits import DEFAULT_LIMITS, Limits
from toolstream.report import CallReport, Report

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_LIMITS",
    "CallReport",
    "Code",
    "Finding",
    "Gate",
    "Limits",
    "Report",
    "__version__",
    "validate",
    "validate_bytes",
]
