"""``toolstream.guard``: the gate around the stream an application holds.

::

    guarded = toolstream.guard(stream, profile="openai", tools=tool_schemas)
    for chunk in guarded:            # every chunk, unchanged, as it arrives
        forward_text_to_user(chunk)
    for call in guarded.calls():     # only once the turn's verdict is executable
        run_tool(call.name, call.input)

``calls()`` raises :class:`ToolCallsBlocked` (carrying the report) when the
turn is blocked, and returns ``[]`` for a turn with no tool activity.  An
``async for`` over the guard reads an async SDK stream the same way.  The
guard never executes anything and never changes an event.

With ``tap=`` (a :class:`toolstream.WireTap` the SDK's HTTP client or
botocore client goes through) the verdict is the reference's on the bytes
the server sent, not on the SDK's objects: what an SDK rewrites or drops
while parsing cannot change it.  The guard only needs the tap to be a
:class:`WireSource`, so this module stays in the standard-library core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from toolstream.findings import Code, Finding
from toolstream.gate import Gate
from toolstream.limits import Limits
from toolstream.report import CallReport, Report, Status

__all__ = ["Guarded", "TappedBody", "ToolCallsBlocked", "WireSource", "WireUnread", "guard"]


class ToolCallsBlocked(Exception):
    """The turn's verdict is not executable: no call may run.

    ``report`` is the whole :class:`~toolstream.report.Report` (its
    ``findings`` carry the stable codes)."""

    def __init__(self, report: Report) -> None:
        codes = ", ".join(sorted({finding.code.value for finding in report.findings}))
        super().__init__(f"tool calls blocked: {codes or report.status.value}")
        self.report = report


class WireUnread(Exception):
    """The tap cannot give the turn as the server sent it (no response seen,
    a body cut off or not read to its end, bytes no capture decoder reads):
    the guard blocks the turn with one finding, ``code`` (``invalid_envelope``
    unless a limit was hit) and this message."""

    def __init__(self, message: str, code: Code = Code.INVALID_ENVELOPE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class TappedBody(Protocol):
    """One response body a tap recorded (see :class:`WireSource`)."""

    def finish(self) -> None:
        """Read what is left of the body (bounded), for an SDK that stopped
        reading before its end; never raises."""

    async def afinish(self) -> None:
        """:meth:`finish` for a body an async client reads."""

    def stream_items(self, profile: str) -> Sequence[Any]:
        """The turn's stream items (chunks or events, as a fixture holds
        them) decoded from the recorded bytes; :class:`WireUnread` when
        they cannot be."""


class WireSource(Protocol):
    """What ``guard(tap=...)`` takes: something that saw the response's
    bytes (:class:`toolstream.WireTap` is the one the package provides)."""

    def claim(self, stream: Any) -> TappedBody:
        """The recorded body that carries ``stream`` (what the SDK call
        returned), each body claimed once; :class:`WireUnread` when there is
        none, or no telling which."""


def _unread_report(profile: str, unread: WireUnread) -> Report:
    """A blocked turn whose one finding says why the wire was not read."""
    finding = Finding(unread.code, f"wire tap: {unread.message}")
    return Report(profile=profile, status=Status.BLOCKED, calls=(), findings=(finding,))


class Guarded:
    """An SDK stream with a :class:`~toolstream.Gate` fed from it.

    Iterate it (``for`` or ``async for``, as the stream allows) to get the
    stream's own events; then :meth:`calls`.  If the stream raises, the
    exception reaches the application and the turn is closed as it stood
    (a cut-off turn is blocked).

    With a ``tap`` the gate is fed, once the SDK's stream has ended (or
    raised), from the body the tap recorded for it instead of from the
    events; the events still pass through unchanged, as they arrive."""

    def __init__(
        self,
        stream: Any,
        profile: str,
        tools: Mapping[str, Any],
        request: Mapping[str, Any] | None = None,
        *,
        limits: Limits | None = None,
        tap: WireSource | None = None,
    ) -> None:
        self._stream = stream
        self._gate = Gate(profile, tools, request, limits=limits)
        self._report: Report | None = None
        self._tap = tap
        self._body: TappedBody | WireUnread | None = None

    # -- the stream, passed through ------------------------------------------

    def __iter__(self) -> Any:
        return self._pass_through() if self._tap is None else self._pass_through_tapped()

    def _pass_through(self) -> Any:
        feed = self._gate.feed
        try:
            for event in self._stream:
                feed(event)
                yield event
        finally:
            self._report = self._gate.close()

    def _pass_through_tapped(self) -> Any:
        try:
            for event in self._stream:
                self._claim()  # at the first event: a lazy SDK sends its request then
                yield event
        finally:
            body = self._claim()
            if not isinstance(body, WireUnread):
                body.finish()
            self._report = self._wire_verdict(body)

    def __aiter__(self) -> Any:
        if self._tap is None:
            return self._pass_through_async()
        return self._pass_through_tapped_async()

    async def _pass_through_async(self) -> Any:
        feed = self._gate.feed
        try:
            async for event in self._stream:
                feed(event)
                yield event
        finally:
            self._report = self._gate.close()

    async def _pass_through_tapped_async(self) -> Any:
        try:
            async for event in self._stream:
                self._claim()
                yield event
        finally:
            body = self._claim()
            if not isinstance(body, WireUnread):
                await body.afinish()
            self._report = self._wire_verdict(body)

    def _claim(self) -> TappedBody | WireUnread:
        """The tapped body of this stream, claimed once (or why there is none)."""
        if self._body is None:
            assert self._tap is not None
            try:
                self._body = self._tap.claim(self._stream)
            except WireUnread as unread:
                self._body = unread
        return self._body

    def _wire_verdict(self, body: TappedBody | WireUnread) -> Report:
        """The gate's report on the recorded bytes; blocked when they cannot
        be read as the profile's stream."""
        try:
            if isinstance(body, WireUnread):
                raise body
            items = body.stream_items(self._gate.profile)
        except WireUnread as unread:
            return _unread_report(self._gate.profile, unread)
        self._gate.feed_all(items)
        return self._gate.close()

    def __enter__(self) -> Guarded:
        return self

    def __exit__(self, *exc: object) -> None:
        close = getattr(self._stream, "close", None)
        if callable(close):
            close()

    async def __aenter__(self) -> Guarded:
        return self

    async def __aexit__(self, *exc: object) -> None:
        close = getattr(self._stream, "close", None)
        if close is None:
            close = getattr(self._stream, "aclose", None)
        if callable(close):
            result = close()
            if hasattr(result, "__await__"):
                await result

    # -- the verdict -----------------------------------------------------------

    @property
    def report(self) -> Report:
        """The turn's report; only once the stream was read to its end (or
        raised)."""
        if self._report is None:
            raise RuntimeError("the guarded stream has not been read to its end")
        return self._report

    def calls(self) -> list[CallReport]:
        """The turn's calls, in order, when its verdict is executable; ``[]``
        when the turn has no tool activity.  Raises
        :class:`ToolCallsBlocked` otherwise, and ``RuntimeError`` before the
        stream was read to its end."""
        report = self.report
        if report.executable:
            return list(report.client_calls())
        if report.status is Status.NOT_APPLICABLE:
            return []
        raise ToolCallsBlocked(report)


def guard(
    stream: Any,
    profile: str,
    tools: Mapping[str, Any],
    request: Mapping[str, Any] | None = None,
    *,
    limits: Limits | None = None,
    tap: WireSource | None = None,
) -> Guarded:
    """Wrap ``stream`` (what an SDK's streaming call returns, sync or async)
    so that the application sees every event unchanged and gets the calls
    only from :meth:`Guarded.calls`, after the verdict.  ``profile`` names
    the wire format (``openai``, ``anthropic``, ``openai-responses``,
    ``gemini``, ``bedrock``...), ``tools`` maps each tool name to its JSON
    Schema, ``request`` is the request's own fields when they matter
    (``tool_choice``...).  ``tap``: the :class:`toolstream.WireTap` the
    SDK's client was built with; the verdict is then on the bytes the
    server sent (a tap that saw no body for the stream blocks the turn)."""
    return Guarded(stream, profile, tools, request, limits=limits, tap=tap)
