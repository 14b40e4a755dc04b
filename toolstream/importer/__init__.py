"""Raw captures -> validator fixtures (``toolstream import``).

Bare bodies need only the standard library; recording containers (VCR
cassettes are YAML) need PyYAML.  See ``docs/import.md`` and
:mod:`toolstream.importer.core`.
"""

from toolstream.importer.containers import Container, ContainerError, Interaction, open_container
from toolstream.importer.core import (
    ImportedBody,
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
    request_tools,
    tool_schemas,
)

__all__ = [
    "Container",
    "ContainerError",
    "Detection",
    "DetectionError",
    "ImportFailure",
    "ImportResult",
    "ImportedBody",
    "ImportedTurn",
    "InputError",
    "Interaction",
    "Schemas",
    "Secret",
    "capture_stem",
    "detect_profile",
    "dump_fixture",
    "import_capture",
    "open_container",
    "output_paths",
    "read_json",
    "redact_fixture",
    "request_fields",
    "request_tools",
    "scan_fixture",
    "split_turns",
    "tool_schemas",
    "write_fixture",
]
