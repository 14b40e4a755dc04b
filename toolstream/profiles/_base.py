"""What every profile provides, and the field checks they share."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from operator import itemgetter
from typing import Any

from toolstream.events import Event, Fragments, Open, SlotKey
from toolstream.findings import Code, ProtocolError
from toolstream.limits import Limits
from toolstream.tally import Tally

StreamPath = tuple[int | str, ...]
"""A path inside the stream list: the item's position, then keys/positions."""
WrappedEvents = tuple[str, list[tuple[StreamPath, Any]]]
"""The profile that reads a stream's wrapped events, and each decoded event
with the path of the string that carries it."""


@dataclass(frozen=True)
class SlotPiece:
    """Where one piece of a slot (a tool call or content block) lives in a
    stream, for tools that edit streams by slot (``toolstream shrink``).

    ``path``: what to delete to remove this piece (a whole item, or an entry
    inside one).  ``text``: the argument text this piece carries (a string,
    or a missing key where text may be added), ``None`` when it carries
    none.  ``plain``: the piece carries nothing but argument text, so it can
    be merged into the slot's previous piece (its text appended there, then
    ``path`` deleted) without changing what the stream says."""

    slot: Hashable
    path: StreamPath
    text: StreamPath | None = None
    plain: bool = False


class Profile:
    """Turns one provider's raw chunks/events into normalized events.

    A profile may keep state between ``feed`` calls (which indices it has
    seen, which block types were started) but never decides a verdict: it
    only translates, or raises :class:`ProtocolError` for shapes it cannot
    translate.
    """

    name: str = ""
    stream_key: str = "chunks"
    """The envelope key holding the stream."""
    has_choices: bool = False
    """Whether the scope of a slot key is a choice index worth reporting."""
    closed_world: bool = False
    """Whether any finding makes the turn applicable: a stream the profile
    could not read in full (an unknown event, a provider error) is then
    blocked, never ``not_applicable``."""
    requires_ids: bool = True
    """Whether a call without an id is ``missing_id``.  False for wire
    formats whose calls may have none (Gemini): identity is then position."""
    stream_description: str = ""
    """What the format's stream items are, as import detection names them
    in its reason (``"Anthropic Messages events"``)."""
    named_events: bool = False
    """Each stream item is a one-member object ``{event name: payload}`` (an
    AWS event-stream frame): import wraps a named event's payload so."""

    def __init__(self, request: Mapping[str, Any] | None, limits: Limits) -> None:
        self.request = request or {}
        self.limits = limits
        # Reviewed dialects (toolstream.profiles.dialects): names seen in
        # this stream; whether any may apply; when non-empty, the only ones.
        self.dialects_seen: set[str] = set()
        self.use_dialects: bool = True
        self.forced: frozenset[str] = frozenset()

    def feed(self, raw: Any, pos: int) -> Iterable[Event]:  # pragma: no cover - abstract
        raise NotImplementedError

    def window(self, items: Sequence[Any], start: int, stop: int, pos: int) -> Fragments | None:
        """The run of plain-fragment items at ``items[start:stop]`` (the first
        is at stream position ``pos``), or None when ``items[start]`` is not
        one.  A plain-fragment item is one that :meth:`feed` would turn into
        exactly one :class:`~toolstream.events.Fragment` with text and no
        identity, for a slot this profile has already opened, and that
        changes no state of the profile.  Profiles without such a shape
        return None: every item then goes through :meth:`feed`.

        A profile may also return a run of whole calls
        (``Fragments.whole_calls``: each call's start, plain fragments and
        terminal, as :meth:`feed` would turn them into an ``Open``,
        ``Fragment`` events and an ``End``); it then sets the profile state
        that feeding those items sets, to the values that feeding them again
        (when the machine does not take the run) leaves as they are."""
        return None

    def tally(self, items: Sequence[Any], start: int, run: Fragments) -> Tally | None:
        """What ``run``, just returned by :meth:`window` for
        ``items[start:]``, holds: (object members, colons in strings, depth
        of the deepest item), for :class:`toolstream.ledger.Ledger`.  Each
        count may fall short of the truth but never exceed it, and the depth
        may exceed it but never fall short; None when the profile cannot
        vouch for the items (the ledger then walks them)."""
        return None

    def tally_item(self, raw: Any) -> Tally | None:
        """The same for one item outside any run, when it has one of the
        few exact shapes the profile knows; None otherwise."""
        return None

    @classmethod
    def slot_pieces(cls, items: Sequence[Any]) -> Iterator[SlotPiece]:
        """Every piece of every slot in the stream ``items``, in stream order
        (see :class:`SlotPiece`).  Best effort and never raising: items of a
        shape the profile would reject are left out.  Every profile
        provides it (a test holds them to it)."""
        raise NotImplementedError(f"profile {cls.name!r} does not locate its slot pieces")

    # -- the import side: recognising a recording's items, splitting turns --

    @classmethod
    def recognises(cls, item: Mapping[str, Any]) -> bool:
        """Whether a decoded stream item has the shape of this format's own
        items (import detection).  Items several formats share
        (``{"type": "error"}``, ``{"error": ...}``) are recognised by none."""
        return False

    @classmethod
    def recognises_event_name(cls, name: str) -> bool:
        """Whether an event name (an SSE ``event:`` field, an AWS
        event-stream frame's ``:event-type``) is one of this format's own."""
        return False

    @classmethod
    def choose(
        cls, items: Sequence[tuple[Any, str]], request: Mapping[str, Any] | None
    ) -> tuple[str, str]:
        """When profiles that inherit from this one recognise the same items
        (``openai`` and ``mistral``): which profile the stream's
        ``(item, location)`` pairs belong to, and why."""
        return cls.name, cls.stream_description

    @classmethod
    def wrapped_events(cls, items: Sequence[Any]) -> WrappedEvents | None:
        """For a format whose items carry another format's events encoded
        (InvokeModel: base64 in ``chunk.bytes``): the profile that reads the
        events, and each event that decodes with the path of the string
        that carries it.  None for a format whose items are read as they
        are (tools that read text inside the stream, such as import's
        redaction, then read the decoded events instead)."""
        return None

    @classmethod
    def encode_wrapped(cls, event: Any) -> str:
        """The carrier string of an edited wrapped event (the inverse of the
        decoding :meth:`wrapped_events` does)."""
        raise NotImplementedError(f"profile {cls.name!r} wraps no events")

    @classmethod
    def opens_turn(cls, item: Any) -> bool:
        """Whether ``item`` is the format's own opening event of an assistant
        turn: import starts a new turn there."""
        return False

    @classmethod
    def response_id(cls, item: Any) -> str | None:
        """For a format without an opening event whose items each name their
        response (Gemini ``responseId``): that id.  Import starts a new turn
        at an item naming another response than the turn's first."""
        return None


@dataclass(frozen=True)
class Level:
    """One level of an item shape, from the item itself (level 1) down.

    ``read`` are the members :meth:`Profile.window` (or ``tally_item``)
    reads at this level through :attr:`get` or the subscripts of
    :meth:`keys_with` (a missing member ends the run with ``KeyError``,
    never a default), so every item it accepts holds at least these.
    ``exact``: the window also checks that the level holds nothing else.
    ``array``: the level is an array whose length the window checks
    (``read`` is then empty).  The values of ``read`` members are the next
    level, or scalars the window type-checks."""

    read: tuple[str, ...] = ()
    exact: bool = False
    array: bool = False
    get: Callable[[Any], Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # One itemgetter per level, for a reader that takes a level's members
        # at once (tally_item, a whole call's start); the windows' loops
        # subscript instead (keys_with).
        object.__setattr__(self, "get", itemgetter(*self.read) if self.read else None)

    def get_with(self, keys: Mapping[str, str]) -> Callable[[Any], Any]:
        """:attr:`get` with each name of :attr:`read` replaced by the equal
        key object ``keys`` holds for it (see :func:`key_objects`), the
        name itself when it holds none.  It reads the same members: each
        key is an exact ``str`` equal to the name, so it has the same hash
        and matches the same dict keys.  A parsed item's keys are those very
        objects (the JSON scanner hands out one object per distinct key of
        a file), so each lookup matches by identity and never compares the
        characters, as it must with the names written here."""
        return itemgetter(*self.keys_with(keys))

    def keys_with(self, keys: Mapping[str, str]) -> tuple[str, ...]:
        """The names of :attr:`read`, each replaced as :meth:`get_with`
        replaces it: for a window that subscripts the level itself (on
        CPython 3.11 a dict subscript costs half an itemgetter call).  The
        window unpacks them to exactly the names it reads, so a level that
        declares another member fails at the first run, not silently."""
        return tuple(keys.get(name, name) for name in self.read)


class Shape:
    """The shape of the items a profile vouches for to the ledger, declared
    once and read by both the window (its subscripts) and the tally (its
    counts), so the two cannot drift apart.

    ``members``: how many members every accepted item holds at least (the
    ``read`` members of every object level), ``key_colons`` the colons in
    their names, ``depth`` the deepest level of an accepted item when no
    level holds more than the shape says (which the counts then prove)."""

    def __init__(self, *levels: Level) -> None:
        self.levels = levels
        objects = [level for level in levels if not level.array]
        self.members = sum(len(level.read) for level in objects)
        self.exact_members = sum(len(level.read) for level in objects if level.exact)
        self.key_colons = sum("".join(level.read).count(":") for level in objects)
        self.depth = len(levels)


def key_objects(*objects: Any) -> dict[str, str]:
    """The keys of the dicts among ``objects`` that are exact ``str``, each
    mapped to itself: looked up with a name, it gives the item's own key
    object for :meth:`Level.get_with` (a key of a ``str`` subclass, which
    only an item built in Python can have, is left out: its hash and
    equality are its own)."""
    keys: dict[str, str] = {}
    for value in objects:
        if type(value) is dict:
            keys.update({key: key for key in value if type(key) is str})
    return keys


def items_from(items: Sequence[Any], start: int, stop: int) -> Iterator[Any]:
    """``items[start:stop]`` as an iterator, in time linear in what is read.

    ``islice(items, start, stop)`` steps over the first ``start`` items one
    by one at every call: a window read at each of a turn's runs made the
    stream's walk quadratic in its length.  A list's or tuple's iterator is
    set to ``start`` directly (its ``__setstate__``, the pickling hook) and
    no copy is made; any other sequence is sliced by ``islice``."""
    if type(items) is list or type(items) is tuple:
        iterator: Any = iter(items)
        iterator.__setstate__(start)
        return islice(iterator, max(stop - start, 0))
    return islice(items, start, stop)


def fragment_run(pos: int, count: int, texts: dict[SlotKey, list[str]]) -> Fragments | None:
    """What :meth:`Profile.window` returns for ``count`` items read."""
    return Fragments(pos, count, texts) if count else None


def slot_index(value: Any, what: str, pos: int, limits: Limits) -> int:
    """A provider index, or a fatal ``invalid_slot_index``."""
    if type(value) is int and 0 <= value <= limits.max_slot_index:
        return value
    if type(value) is int and value > limits.max_slot_index:
        shown = value if value < 10**30 else "(huge)"
        problem = f"{what} {shown} is beyond the limit {limits.max_slot_index}"
    else:
        problem = f"{what} is {describe(value)}, not a non-negative integer"
    raise ProtocolError(Code.INVALID_SLOT_INDEX, problem, event=pos, fatal=True)


def optional_text(value: Any, field: str, key: SlotKey, pos: int) -> str | None:
    """A string field where null and "" mean absent."""
    if value is None or value == "":
        return None
    if type(value) is str:
        return value
    raise ProtocolError(
        Code.NON_STRING_FRAGMENT, f"{field} is {describe(value)}, not a string", key=key, event=pos
    )


def open_call(
    pos: int,
    key: SlotKey,
    kind: str,
    identity: tuple[tuple[Any, str], tuple[Any, str]],
    initial_input: Any = None,
) -> Iterator[Event]:
    """Open a call slot whose id and name come in the start event.

    ``identity`` is ``((id value, field name), (name value, field name))``.
    A malformed id or name still opens the slot before the error is raised,
    so the error blocks it and its later events are absorbed rather than
    reported again as ``unknown_slot``.
    """
    (id_value, id_field), (name_value, name_field) = identity
    try:
        id_ = optional_text(id_value, id_field, key, pos)
        name = optional_text(name_value, name_field, key, pos)
    except ProtocolError:
        yield Open(pos=pos, key=key, id=None, name=None, kind=kind)
        raise
    yield Open(pos=pos, key=key, id=id_, name=name, kind=kind, initial_input=initial_input)


def provider_error(
    body: Any, pos: int, *, title: str = "provider error", fallback: str = "no message"
) -> ProtocolError:
    """``provider_error`` for an error object the provider sent: its
    ``message`` (clipped) when it has one, else ``fallback``."""
    message = body.get("message") if type(body) is dict else None
    text = message[:120] if type(message) is str else fallback
    return ProtocolError(Code.PROVIDER_ERROR, f"{title}: {text}", event=pos)


def describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int) and value.bit_length() > 90:
        return "a number"  # repr() of a huge int is slow, and past 4300 digits an error
    if isinstance(value, (int, float)):
        return f"the number {value!r}" if len(repr(value)) < 30 else "a number"
    if isinstance(value, str):
        return f"the string {value[:20]!r}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
