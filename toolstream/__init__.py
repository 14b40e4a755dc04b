"""toolstream: a conformance kit for streamed LLM tool calls.

The validator core (this package minus ``toolstream.cli``, ``toolstream.corpus``
and ``toolstream.adapters``) uses only the standard library, so it can be
vendored into a locked-down CI.
"""

from typing import Any

from toolstream.api import validate, validate_bytes
from toolstream.findings import Code, Finding
from toolstream.gate import Gate, wire_form
from toolstream.guard import Guarded, ToolCallsBlocked, guard
from toolstream.limits import DEFAULT_LIMITS, Limits
from toolstream.report import CallReport, Report, Status

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_LIMITS",
    "CallReport",
    "Code",
    "Finding",
    "Gate",
    "Guarded",
    "Limits",
    "Rejected",
    "Report",
    "Status",
    "ToolCallsBlocked",
    "WireTap",
    "__version__",
    "guard",
    "validate",
    "validate_bytes",
    "wire_form",
]


def __getattr__(name: str) -> Any:
    # ``toolstream.Rejected`` lives with the adapter contract; imported on
    # first use so that ``import toolstream`` stays the standard-library core
    if name == "Rejected":
        from toolstream.adapters.base import Rejected

        return Rejected
    # the wire tap reads bodies with the capture decoders (the import side)
    if name == "WireTap":
        from toolstream.importer.wire_tap import WireTap

        return WireTap
    raise AttributeError(f"module 'toolstream' has no attribute {name!r}")
