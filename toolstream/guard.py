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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolstream.gate import Gate
from toolstream.limits import Limits
from toolstream.report import CallReport, Report, Status

__all__ = ["Guarded", "ToolCallsBlocked", "guard"]


class ToolCallsBlocked(Exception):
    """The turn's verdict is not executable: no call may run.

    ``report`` is the whole :class:`~toolstream.report.Report` (its
    ``findings`` carry the stable codes)."""

    def __init__(self, report: Report) -> None:
        codes = ", ".join(sorted({finding.code.value for finding in report.findings}))
        super().__init__(f"tool calls blocked: {codes or report.status.value}")
        self.report = report


class Guarded:
    """An SDK stream with a :class:`~toolstream.Gate` fed from it.

    Iterate it (``for`` or ``async for``, as the stream allows) to get the
    stream's own events; then :meth:`calls`.  If the stream raises, the
    exception reaches the application and the turn is closed as it stood
    (a cut-off turn is blocked)."""

    def __init__(
        self,
        stream: Any,
        profile: str,
        tools: Mapping[str, Any],
        request: Mapping[str, Any] | None = None,
        *,
        limits: Limits | None = None,
    ) -> None:
        self._stream = stream
        self._gate = Gate(profile, tools, request, limits=limits)
        self._report: Report | None = None

    # -- the stream, passed through ------------------------------------------

    def __iter__(self) -> Any:
        return self._pass_through()

    def _pass_through(self) -> Any:
        feed = self._gate.feed
        try:
            for event in self._stream:
                feed(event)
                yield event
        finally:
            self._report = self._gate.close()

    def __aiter__(self) -> Any:
        return self._pass_through_async()

    async def _pass_through_async(self) -> Any:
        feed = self._gate.feed
        try:
            async for event in self._stream:
                feed(event)
                yield event
        finally:
            self._report = self._gate.close()

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
) -> Guarded:
    """Wrap ``stream`` (what an SDK's streaming call returns, sync or async)
    so that the application sees every event unchanged and gets the calls
    only from :meth:`Guarded.calls`, after the verdict.  ``profile`` names
    the wire format (``openai``, ``anthropic``, ``openai-responses``,
    ``gemini``, ``bedrock``...), ``tools`` maps each tool name to its JSON
    Schema, ``request`` is the request's own fields when they matter
    (``tool_choice``...)."""
    return Guarded(stream, profile, tools, request, limits=limits)
