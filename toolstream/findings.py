"""Stable finding codes and the one exception type that rule code raises.

Every rule in the validator that rejects something raises :class:`ProtocolError`
with a :class:`Code`.  The public entry points (:func:`toolstream.validate`,
:class:`toolstream.Gate`) are the only places that catch it and turn it into a
:class:`Finding`; any other exception escaping them is a bug (the fuzz tests
say so).

Codes are part of the public contract: they appear in reports, corpora and
users' CI configuration.  Add new members at the end; never rename or remove
one.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


class Layer(str, enum.Enum):
    """Who is responsible for a finding: the layer of the stack it belongs to.

    Every :class:`Code` belongs to exactly one layer (:func:`layer_of`).  A
    client library is judged on reassembly and argument strictness; tool
    policy is the application's job.
    """

    TRANSPORT = "transport"
    """Transport and framing: the envelope, events the profile cannot decode,
    provider errors, cut streams and resource bounds."""

    REASSEMBLY = "reassembly"
    """Reassembly: which fragment belongs to which call (identity, slots),
    terminals and ordering."""

    STRICTNESS = "strictness"
    """Argument strictness: whether the reassembled arguments are one strict
    JSON object."""

    TOOL_POLICY = "tool_policy"
    """Tool policy: whether the tool exists and its arguments satisfy its
    schema.  The application must check this; the library does not claim
    to."""


class Code(str, enum.Enum):
    """A finding code.  The value is the string used in reports."""

    INVALID_ENVELOPE = "invalid_envelope"
    """The fixture is not a well-formed envelope: unparseable file, duplicate
    keys, unknown or missing keys, wrong types, unknown profile."""

    UNSUPPORTED_EVENT = "unsupported_event"
    """A chunk or event whose shape or type the profile does not know.  The
    validator fails closed rather than guessing what it carried."""

    PROVIDER_ERROR = "provider_error"
    """The provider reported an error inside the stream (an ``error`` event)."""

    AMBIGUOUS_CHOICE = "ambiguous_choice"
    """Tool calls appear in more than one choice of the same completion, so
    there is no single set of calls to execute."""

    INVALID_SLOT_INDEX = "invalid_slot_index"
    """A tool-call fragment whose slot index is missing, null, not an
    integer, negative or beyond the limit: it cannot be attributed to a call.
    Fatal: later events are not interpreted."""

    MISSING_SLOT = "missing_slot"
    """Slot indices of a choice (or content-block indices of a message) have a
    gap: a call or block may have been lost."""

    UNKNOWN_SLOT = "unknown_slot"
    """A delta or stop for a content block that was never started."""

    IDENTITY_COLLISION = "identity_collision"
    """A slot received a second, different id or name, or was started twice:
    two calls were about to be merged into one."""

    DUPLICATE_ID = "duplicate_id"
    """Two slots of the turn carry the same call id."""

    MISSING_ID = "missing_id"
    """A call reached its terminal without a non-empty id."""

    MISSING_NAME = "missing_name"
    """A call reached its terminal without a non-empty function name."""

    UNSUPPORTED_CALL_TYPE = "unsupported_call_type"
    """A tool call whose ``type`` is not ``function`` (or a legacy
    ``function_call`` delta)."""

    NON_STRING_FRAGMENT = "non_string_fragment"
    """An arguments fragment (or id/name) that is not a JSON string."""

    MISSING_TERMINAL = "missing_terminal"
    """The stream ended before the call's (or the turn's) terminal event: the
    call may be truncated, even if its arguments happen to parse."""

    WRONG_TERMINAL_REASON = "wrong_terminal_reason"
    """The turn ended with a reason that does not mean "execute these tools"
    (``length``, ``content_filter``, ``max_tokens``, unforced ``stop``...)."""

    DUPLICATE_TERMINAL = "duplicate_terminal"
    """A second terminal for a slot, a choice or a message."""

    DELTA_AFTER_TERMINAL = "delta_after_terminal"
    """A fragment, id or name for a slot after its terminal, or a new slot
    after the turn's terminal."""

    TERMINAL_WITHOUT_CALLS = "terminal_without_calls"
    """The turn claims to end for tool use but carries no client tool call."""

    CONFLICTING_INPUT = "conflicting_input"
    """An Anthropic ``tool_use`` block has both a non-empty start ``input``
    and non-empty ``input_json_delta`` text."""

    EMPTY_ARGUMENTS = "empty_arguments"
    """The reassembled arguments are the empty string."""

    MALFORMED_JSON = "malformed_json"
    """The reassembled arguments are not valid JSON (RFC 8259)."""

    TRAILING_DATA = "trailing_data"
    """Valid JSON followed by anything but whitespace (a second document,
    arguments sent twice, stray characters)."""

    NON_FINITE_NUMBER = "non_finite_number"
    """``NaN``, ``Infinity`` or ``-Infinity`` in the arguments."""

    NON_OBJECT_ARGUMENTS = "non_object_arguments"
    """The arguments are valid JSON but not an object."""

    DUPLICATE_KEY = "duplicate_key"
    """An object in the arguments repeats a key; parsers disagree on which
    value wins, so the call is ambiguous."""

    INVALID_UNICODE = "invalid_unicode"
    """A lone surrogate escape (``\\ud800`` without its pair) in the arguments."""

    LIMIT_EXCEEDED = "limit_exceeded"
    """A configured bound was exceeded (argument size, nesting depth, number
    length, slots or events per turn, schema size)."""

    UNKNOWN_TOOL = "unknown_tool"
    """The call names a tool that is not in ``tool_schemas``."""

    UNSUPPORTED_SCHEMA_KEYWORD = "unsupported_schema_keyword"
    """The tool's schema uses a keyword outside the supported subset (or a
    ``pattern`` the validator refuses to run); the validator fails closed."""

    INVALID_SCHEMA = "invalid_schema"
    """The tool's schema is itself malformed (wrong keyword value type,
    unresolvable or cyclic ``$ref``, invalid regex...)."""

    SCHEMA_VIOLATION = "schema_violation"
    """The parsed arguments do not satisfy the tool's schema."""

    ARGUMENTS_MISMATCH = "arguments_mismatch"
    """A closing event restated the arguments (OpenAI Responses
    ``function_call_arguments.done`` or ``output_item.done``) and they differ
    from the reassembled fragments byte for byte."""

    # -- Gemini / Vertex streamed arguments (partialArgs) and
    # -- Bedrock InvokeModelWithResponseStream

    INVALID_JSON_PATH = "invalid_json_path"
    """A Vertex ``partialArgs`` entry whose ``jsonPath`` is not a normalized
    RFC 9535 path below the root (``$`` then ``.name``, ``['name']`` or
    ``[n]`` segments, nothing else)."""

    INVALID_PARTIAL_ARG = "invalid_partial_arg"
    """A ``partialArgs`` entry that is not an object with a string
    ``jsonPath`` and exactly one value (``stringValue``, ``numberValue``,
    ``boolValue``, ``nullValue``) of its type, or whose ``willContinue`` is
    set on a value that is not a string; or a call that sends both whole
    ``args`` and ``partialArgs``."""

    BROKEN_STRING_CONTINUATION = "broken_string_continuation"
    """A streamed string value was continued on another path, continued after
    its ``willContinue`` had ended, or left continuing when its call ended."""

    DUPLICATE_ASSIGNMENT = "duplicate_assignment"
    """A ``partialArgs`` path was given a value twice: which one the client
    keeps is up to its merge code."""

    PATH_TYPE_CONFLICT = "path_type_conflict"
    """A ``partialArgs`` path uses one container as two types (``$.a`` as an
    object and as an array) or goes below a value that is not a container."""

    ARRAY_INDEX_GAP = "array_index_gap"
    """A ``partialArgs`` path names an array index past the array's end
    (``$.a[2]`` when ``$.a`` holds one element): an element was lost."""

    UNSUPPORTED_MODEL_FAMILY = "unsupported_model_family"
    """A Bedrock InvokeModelWithResponseStream capture whose wrapped stream
    belongs to a model family the kit cannot read (only Anthropic's Messages
    events are supported).  Fatal: nothing in it is interpreted."""


_T, _R, _S, _P = Layer.TRANSPORT, Layer.REASSEMBLY, Layer.STRICTNESS, Layer.TOOL_POLICY

LAYER_OF_CODE: dict[Code, Layer] = {
    Code.INVALID_ENVELOPE: _T,
    Code.UNSUPPORTED_EVENT: _T,
    Code.PROVIDER_ERROR: _T,
    Code.AMBIGUOUS_CHOICE: _R,
    Code.INVALID_SLOT_INDEX: _R,
    Code.MISSING_SLOT: _R,
    Code.UNKNOWN_SLOT: _R,
    Code.IDENTITY_COLLISION: _R,
    Code.DUPLICATE_ID: _R,
    Code.MISSING_ID: _R,
    Code.MISSING_NAME: _R,
    Code.UNSUPPORTED_CALL_TYPE: _R,
    Code.NON_STRING_FRAGMENT: _R,
    Code.MISSING_TERMINAL: _R,
    Code.WRONG_TERMINAL_REASON: _R,
    Code.DUPLICATE_TERMINAL: _R,
    Code.DELTA_AFTER_TERMINAL: _R,
    Code.TERMINAL_WITHOUT_CALLS: _R,
    Code.CONFLICTING_INPUT: _R,
    Code.EMPTY_ARGUMENTS: _S,
    Code.MALFORMED_JSON: _S,
    Code.TRAILING_DATA: _S,
    Code.NON_FINITE_NUMBER: _S,
    Code.NON_OBJECT_ARGUMENTS: _S,
    Code.DUPLICATE_KEY: _S,
    Code.INVALID_UNICODE: _S,
    Code.LIMIT_EXCEEDED: _T,
    Code.UNKNOWN_TOOL: _P,
    Code.UNSUPPORTED_SCHEMA_KEYWORD: _P,
    Code.INVALID_SCHEMA: _P,
    Code.SCHEMA_VIOLATION: _P,
    Code.ARGUMENTS_MISMATCH: _R,
    Code.INVALID_JSON_PATH: _R,
    Code.INVALID_PARTIAL_ARG: _R,
    Code.BROKEN_STRING_CONTINUATION: _R,
    Code.DUPLICATE_ASSIGNMENT: _R,
    Code.PATH_TYPE_CONFLICT: _R,
    Code.ARRAY_INDEX_GAP: _R,
    Code.UNSUPPORTED_MODEL_FAMILY: _T,
}
"""The one layer of every code, declared next to the codes (a new code
without an entry fails the layer test)."""


def layer_of(code: Code | str) -> Layer:
    """The layer of responsibility *code* (a :class:`Code` or its value)
    belongs to; ``KeyError`` for a code without one."""
    return LAYER_OF_CODE[Code(code)]


def count_by_layer(codes: Iterable[Code | str]) -> dict[Layer, int]:
    """How many of *codes* fall in each layer, every layer present (zero when
    none), in :class:`Layer` order: the one count every report uses, so the
    layers always add up to ``len(codes)``."""
    counts = dict.fromkeys(Layer, 0)
    for code in codes:
        counts[layer_of(code)] += 1
    return counts


@dataclass(frozen=True)
class Finding:
    """One rule broken, with where it was found."""

    code: Code
    message: str
    slot: int | None = None
    event: int | None = None
    path: str | None = None
    choice: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code.value,
            "message": self.message,
            "slot": self.slot,
            "event": self.event,
            "path": self.path,
        }
        if self.choice is not None:
            out["choice"] = self.choice
        return out


class ProtocolError(Exception):
    """Raised by rule code; caught only at the public boundary.

    ``fatal`` marks errors after which later events cannot be attributed
    (an unroutable fragment, a blown turn limit): the gate stops interpreting
    the stream and skips end-of-turn checks.
    """

    def __init__(
        self,
        code: Code,
        message: str,
        *,
        key: tuple[int, int] | None = None,
        event: int | None = None,
        path: str | None = None,
        fatal: bool = False,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.key = key
        self.event = event
        self.path = path
        self.fatal = fatal


def _attach_member_docs() -> None:
    # A string literal after an Enum member is its documentation (as in
    # Hypothesis' HealthCheck); Python drops it at runtime, so read it back
    # from the source to make ``Code.X.__doc__`` and the docs agree.
    import ast
    import itertools
    import pathlib

    try:
        tree = ast.parse(pathlib.Path(__file__).read_text(encoding="utf-8"))
    except (OSError, SyntaxError):  # pragma: no cover - vendored without sources
        return
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in ("Code", "Layer"):
            enum_class: Any = Code if node.name == "Code" else Layer
            body = node.body
            for first, second in itertools.pairwise(body):
                if (
                    isinstance(first, ast.Assign)
                    and isinstance(first.targets[0], ast.Name)
                    and isinstance(second, ast.Expr)
                    and isinstance(second.value, ast.Constant)
                    and isinstance(second.value.value, str)
                ):
                    member = enum_class.__members__.get(first.targets[0].id)
                    if member is not None:
                        member.__doc__ = " ".join(second.value.value.split())


_attach_member_docs()
