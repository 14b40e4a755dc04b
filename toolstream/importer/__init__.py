"""Raw captures -> validator fixtures (``toolstream import``).

Standard library only.  See ``docs/import.md`` and
:mod:`toolstream.importer.core`.
"""

from toolstream.importer.core import (
    ImportedTurn,
    ImportFailure,
    ImportResult,
    capture_stem,
    dump_fixture,
    import_capture,
    output_paths,
    split_turns,
    write_fixture,
)
from toolstream.importer.detect import Detection, DetectionError, detect_profile
from toolstream.importer.redaction import Secret, redact_fixture, scan_fixture
from toolstream.importer.schemas import (
    InputError,
    Schemas,
    read_json,
    request_fields,
    tool_schemas,
)

__all__ = [
    "Detection",
    "DetectionError",
    "ImportFailure",
    "ImportResult",
    "ImportedTurn",
    "InputError",
    "Schemas",
    "Secret",
    "capture_stem",
    "detect_profile",
    "dump_fixture",
    "import_capture",
    "output_paths",
    "read_json",
    "redact_fixture",
    "request_fields",
    "scan_fixture",
    "split_turns",
    "tool_schemas",
    "write_fixture",
]
