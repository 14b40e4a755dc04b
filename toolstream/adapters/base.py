"""Common types for adapters: shims that run a real library's own stream
reassembly over a fixture, offline, and report what it would hand to the
application.

An adapter never opens a socket, never builds an HTTP client and never needs
an API key: it turns the fixture's chunk/event bodies into the objects the
library's stream class would have produced from the wire and drives the
library's accumulator over them.

Outcome of :meth:`Adapter.run`:

* it returns an :class:`AdapterResult` with ``rejected=False`` and the calls the
  library would hand to the application (possibly none);
* it returns ``rejected=True`` when the library raised the error it documents
  for refusing a turn (each adapter module lists which exceptions count);
* any other exception propagates unchanged.  The caller (``toolstream diff``)
  classifies it as ``adapter_crash``.  When the exception was raised inside the
  library while it consumed the fixture (rather than by the shim itself), a
  note starting with :data:`LIBRARY_NOTE_PREFIX` is attached to it with
  ``BaseException.add_note`` so a report can tell "the library blew up" from
  "the shim has a bug"; the exception type is not changed.
"""

from __future__ import annotations

import abc
import contextlib
import importlib.metadata
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

__all__ = [
    "DEFAULT_EXTRA",
    "LIBRARY_NOTE_PREFIX",
    "NO_INPUT",
    "RESULT_SHAPES",
    "Adapter",
    "AdapterCall",
    "AdapterOutputError",
    "AdapterResult",
    "AdapterUnavailable",
    "Rejected",
    "UnsupportedProfile",
    "coerce_calls",
    "coerce_result",
    "fixture_profile",
    "library_raised",
    "package_version",
]

DEFAULT_EXTRA: Final = "adapters"
"""The ``toolstream`` pip extra that installs the bundled adapters' libraries
(``litellm``, heavy, has an extra of its own)."""

LIBRARY_NOTE_PREFIX: Final = "toolstream: raised inside "
"""Prefix of the note attached to an exception raised by the library itself."""


class _NoInput:
    """Type of :data:`NO_INPUT`."""

    _instance: ClassVar[_NoInput | None] = None

    def __new__(cls) -> _NoInput:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_INPUT"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "NO_INPUT"


NO_INPUT: Final = _NoInput()
"""``AdapterCall.input`` when the library computed no parsed arguments
(distinct from a parsed value of ``None``/JSON ``null``)."""


@dataclass(frozen=True)
class AdapterCall:
    """One tool call as the library would hand it to the application.

    ``arguments`` is the argument *text* the library accumulated (for
    OpenAI-shaped libraries exactly what the application receives; for
    libraries that only hand over a parsed object it is the text they parsed,
    see each adapter).  It is not guaranteed to be a ``str`` when the library
    itself let a non-string through: adapters report what the library holds.
    ``input`` is the parsed value the library hands over (Anthropic
    ``tool_use.input``, LangChain ``tool_calls[i]["args"]``, OpenAI
    ``parsed_arguments`` when it computes one), or :data:`NO_INPUT`.
    """

    id: str | None
    name: str | None
    arguments: str | None
    input: Any = NO_INPUT


@dataclass(frozen=True)
class AdapterResult:
    """What a library made of one fixture.

    ``rejected``: the library raised its documented error for the turn (see
    the adapter's module docstring); ``calls`` is then empty.
    ``invalid``: calls the library itself flagged as invalid and did not hand
    over as executable (LangChain ``invalid_tool_calls``), one compact JSON
    object per call (``{"id", "name", "args", "error"}``).
    ``finish_reason``: the turn's terminal reason as the library recorded it
    (``finish_reason`` / ``stop_reason``), ``None`` if it recorded none.
    ``reason``: a short human explanation when ``rejected``.
    """

    calls: tuple[AdapterCall, ...]
    rejected: bool
    invalid: tuple[str, ...]
    finish_reason: str | None = None
    reason: str | None = None

    @classmethod
    def rejection(cls, reason: str) -> AdapterResult:
        return cls(calls=(), rejected=True, invalid=(), reason=reason)


class AdapterUnavailable(Exception):
    """The library an adapter drives is not installed (or not importable)."""

    def __init__(
        self,
        adapter: str,
        package: str,
        *,
        extra: str | None = DEFAULT_EXTRA,
        cause: BaseException | None = None,
    ) -> None:
        detail = f" ({type(cause).__name__}: {cause})" if cause is not None else ""
        how = f"pip install 'toolstream[{extra}]'  (or: pip install {package})" if extra else ""
        super().__init__(
            f"adapter {adapter!r} needs {package!r}, which is not importable{detail}"
            + (f"; install it with: {how}" if how else "")
        )
        self.adapter = adapter
        self.package = package
        self.extra = extra


class UnsupportedProfile(ValueError):
    """The fixture's profile is not one the adapter can take."""


class Rejected(Exception):
    """Raised by a user adapter to refuse a turn (``toolstream.Rejected``).

    This, a type named with ``--reject-on module:Exception``, or a returned
    refusal (:meth:`AdapterResult.rejection`, or ``{"rejected": true,
    "reason": ...}``) is how a user adapter says "my application would not
    execute this turn".  Any other exception is an ``adapter_crash``: a bug
    in the adapter is never mistaken for a refusal."""


class AdapterOutputError(ValueError):
    """An adapter answered with something that is not one of
    :data:`RESULT_SHAPES` (an ``adapter_crash``)."""


RESULT_SHAPES: Final = (
    "a list (or tuple, or generator) of calls, each an AdapterCall, a mapping"
    " {id, name, arguments[, input]} or an (id, name, arguments) tuple;"
    ' or an AdapterResult; or a mapping {"calls": [...]} or {"rejected": true,'
    ' "reason": ...}'
)
"""The answers a user adapter may give, as error messages name them."""

_CALL_KEYS: Final = frozenset({"id", "name", "arguments", "input"})


def _coerce_call(item: Any, position: int, source: str) -> AdapterCall:
    if isinstance(item, AdapterCall):
        return item
    if isinstance(item, Mapping):
        unknown = set(item) - _CALL_KEYS
        if unknown:
            raise AdapterOutputError(
                f"{source}: call {position} has unknown keys {sorted(map(str, unknown))};"
                " a call has id, name, arguments and optionally input"
            )
        fields = {k: item.get(k) for k in ("id", "name", "arguments")}
        parsed = item["input"] if "input" in item else NO_INPUT
    elif isinstance(item, (tuple, list)) and len(item) == 3:
        fields = dict(zip(("id", "name", "arguments"), item, strict=True))
        parsed = NO_INPUT
    else:
        shown = (
            f"a {len(item)}-element {type(item).__name__}"
            if isinstance(item, (tuple, list))
            else type(item).__name__
        )
        raise AdapterOutputError(
            f"{source}: call {position} is {shown}; expected an AdapterCall, a mapping"
            " {id, name, arguments[, input]} or an (id, name, arguments) tuple"
        )
    for key, value in fields.items():
        if value is not None and not isinstance(value, str):
            raise AdapterOutputError(
                f"{source}: call {position} {key!r} must be a string or null,"
                f" got {type(value).__name__}"
            )
    return AdapterCall(
        id=fields["id"], name=fields["name"], arguments=fields["arguments"], input=parsed
    )


def coerce_calls(value: Any, *, source: str) -> tuple[AdapterCall, ...]:
    """A sequence (or iterator) of calls in any accepted call shape as
    :class:`AdapterCall`\\ s; raises :class:`AdapterOutputError` naming the
    expected shape otherwise.  An iterator is consumed here, so an exception
    it raises surfaces to the caller like one raised by the adapter itself."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple, Iterator)):
        got = "None" if value is None else type(value).__name__
        raise AdapterOutputError(f"{source}: returned {got}; expected {RESULT_SHAPES}")
    return tuple(_coerce_call(item, i, source) for i, item in enumerate(value))


def coerce_result(value: Any, *, source: str) -> AdapterResult:
    """A user adapter's answer (any of :data:`RESULT_SHAPES`) as an
    :class:`AdapterResult`; raises :class:`AdapterOutputError` otherwise."""
    if isinstance(value, AdapterResult):
        return value
    if isinstance(value, Mapping):
        if "rejected" in value:
            extra = set(value) - {"rejected", "reason"}
            if value["rejected"] is not True or extra:
                raise AdapterOutputError(
                    f'{source}: a refusal is {{"rejected": true, "reason": "..."}},'
                    f" got keys {sorted(map(str, value))} with rejected={value['rejected']!r}"
                )
            reason = value.get("reason")
            return AdapterResult.rejection(str(reason) if reason is not None else "rejected")
        if set(value) == {"calls"} or set(value) == {"calls", "finish_reason"}:
            finish = value.get("finish_reason")
            if finish is not None and not isinstance(finish, str):
                raise AdapterOutputError(f"{source}: finish_reason must be a string or null")
            return AdapterResult(
                calls=coerce_calls(value["calls"], source=source),
                rejected=False,
                invalid=(),
                finish_reason=finish,
            )
        raise AdapterOutputError(
            f"{source}: returned a mapping with keys {sorted(map(str, value))[:6]};"
            f" expected {RESULT_SHAPES}"
        )
    return AdapterResult(calls=coerce_calls(value, source=source), rejected=False, invalid=())


class Adapter(abc.ABC):
    """A shim around one library's stream reassembly.

    Subclasses set ``name`` (registry name), ``package`` (the distribution
    that must be importable) and ``profiles`` (fixture profiles accepted).
    """

    name: str
    package: str
    profiles: tuple[str, ...]
    extra: str | None = DEFAULT_EXTRA
    """The ``toolstream[...]`` pip extra that installs :attr:`package`."""

    @abc.abstractmethod
    def available(self) -> bool:
        """True when the library can be imported here."""

    @abc.abstractmethod
    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        """Feed the fixture to the library; see the module docstring."""

    def library_version(self) -> str | None:
        """Installed version of :attr:`package`, or ``None``."""
        return package_version(self.package)

    def close(self) -> None:  # noqa: B027 - optional hook, most adapters hold nothing
        """Release what :meth:`run` started (a persistent process); the
        harness calls it once the run is over.  Nothing by default."""

    def check_profile(self, fixture: Mapping[str, Any]) -> str:
        profile = fixture_profile(fixture)
        if profile not in self.profiles:
            raise UnsupportedProfile(
                f"adapter {self.name!r} takes profiles {', '.join(self.profiles)}; "
                f"fixture has {profile!r}"
            )
        return profile

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def fixture_profile(fixture: Mapping[str, Any]) -> str:
    profile = fixture.get("profile")
    if not isinstance(profile, str):
        raise UnsupportedProfile(f"fixture has no string 'profile' (got {profile!r})")
    return profile


def package_version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


@contextlib.contextmanager
def library_raised(where: str) -> Iterator[None]:
    """Run library code: mark escaping exceptions, silence its warnings.

    An exception propagates unchanged, with a note (``add_note``) naming
    ``where`` (e.g. ``"openai 3.57.0 ChatCompletionStream"``).  Warnings the
    library emits while chewing on hostile input (pydantic serializer
    warnings for a non-string ``arguments``...) are suppressed: they would
    flood a corpus run and carry nothing the result does not.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    except Exception as exc:
        note = LIBRARY_NOTE_PREFIX + where
        if hasattr(exc, "add_note"):  # Python >= 3.11
            exc.add_note(note)
        else:  # PEP 678 on 3.10: the attribute alone (not shown in tracebacks)
            with contextlib.suppress(AttributeError, TypeError):
                # setattr, not ``exc.__notes__ = ...``: BaseException declares
                # no such attribute before 3.11, and mypy checks for 3.10.
                setattr(exc, "__notes__", [*getattr(exc, "__notes__", []), note])  # noqa: B010
        raise


def _list_field(fixture: Mapping[str, Any], key: str) -> list[Any]:
    value = fixture.get(key)
    if not isinstance(value, list):
        raise ValueError(f"fixture has no list {key!r} (got {type(value).__name__})")
    return value


class ImportingAdapter(Adapter):
    """An adapter over an installed library: it is available when
    :meth:`_import` succeeds."""

    @abc.abstractmethod
    def _import(self) -> dict[str, Any]:
        """The library's objects this adapter drives; raises
        :class:`AdapterUnavailable` when they cannot be imported."""

    def available(self) -> bool:
        try:
            self._import()
        except AdapterUnavailable:
            return False
        return True
