"""``toolstream.WireTap``: the bytes the server sent, for ``toolstream.guard``.

::

    tap = toolstream.WireTap()
    client = openai.OpenAI(http_client=tap.httpx_client())
    stream = client.chat.completions.create(..., stream=True)
    guarded = toolstream.guard(stream, "openai", tool_schemas, request, tap=tap)

An SDK rewrites a stream while parsing it (openai-python and anthropic read
a boolean ``index`` as 1, the Anthropic SDK and boto3 drop an event of a type
they do not know, google-genai reads a foreign chunk as ``{}``), so a gate fed
the SDK's objects judges something the server did not send.  The tap sits
under the SDK's parser: an httpx (or httpx2) transport, or a botocore
``before-parse`` hook, that copies every body byte as the SDK reads it and
changes nothing.  The guard then decodes the recorded body with the capture
decoders (:func:`toolstream.capture.read_capture`: SSE, JSON Lines or a JSON
array, AWS event-stream) into the stream items a fixture holds
(:func:`toolstream.importer.core.stream_item`) and feeds those to the gate.

Fail closed: a stream the tap has no body for, a body that broke off, was
not read to its end, exceeds the byte limit, or holds anything the decoders
tolerate rather than read (an unknown SSE field, an event named other than
its payload's ``type``, an event after ``[DONE]``) blocks the turn
(:class:`toolstream.guard.WireUnread`).  When the SDK stops reading before
the end of the body (openai-python closes the response at ``[DONE]``), the
tap reads the rest before the response closes, up to the byte limit and
under the client's own read timeout, so the verdict covers every byte sent.

Which recorded body is a stream's: the one whose response object the SDK's
stream holds (openai-python's and anthropic's ``stream.response``, boto3's
``EventStream``); for a stream that names none (google-genai's generator),
the only body no guard has claimed, or, among several, the only one still
being read.  Anything else is ambiguous and blocks: use one tap per stream
read concurrently.
"""

from __future__ import annotations

import sys
import threading
import zlib
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from toolstream.capture import CaptureError, read_capture
from toolstream.findings import Code
from toolstream.guard import WireUnread
from toolstream.importer.core import ImportFailure, stream_item
from toolstream.limits import DEFAULT_LIMITS

__all__ = ["TappedResponse", "WireTap"]

KEPT_UNCLAIMED = 32
"""How many recorded bodies no guard has claimed the tap keeps (the oldest
goes first): an application that sends other requests through the tapped
client does not grow it without bound."""


class TappedResponse:
    """One response body, as the bytes arrived; the
    :class:`~toolstream.guard.TappedBody` a guard claims."""

    def __init__(
        self, status: int, headers: Mapping[str, str], response: Any, max_bytes: int
    ) -> None:
        self.status = status
        self.headers = {str(k).lower(): str(v) for k, v in headers.items()}
        self.response = response
        """The response object the SDK holds (what a stream names)."""
        self._chunks: list[bytes] = []
        self._size = 0
        self._max_bytes = max_bytes
        self.overflow = False
        self.ended = False
        """The body was read to its end."""
        self.closed = False
        self.error: str | None = None
        """Why reading the body failed, when it did."""
        self.claimed = False
        self._source: Any = ()
        self._rest: Iterator[bytes] | None = None
        self._arest: AsyncIterator[bytes] | None = None

    @property
    def size(self) -> int:
        return self._size

    @property
    def reading(self) -> bool:
        """The SDK may still read more of it."""
        return not (self.ended or self.closed or self.error is not None)

    def _add(self, chunk: bytes) -> None:
        self._size += len(chunk)
        if self._size > self._max_bytes:
            self.overflow = True
            self._chunks.clear()  # never judged: what is kept is the verdict's, not a buffer
        elif not self.overflow:
            self._chunks.append(bytes(chunk))

    # -- reading: what the SDK reads, copied ----------------------------------

    def read_from(self, source: Any) -> None:
        """Where the body's bytes come from: an iterable of ``bytes`` or an
        async one (the transport's own stream); iterated once, by the SDK
        through :meth:`tee` / :meth:`atee` and then by :meth:`finish`."""
        self._source = source

    def _rest_of(self) -> Iterator[bytes]:
        if self._rest is None:
            self._rest = iter(self._source)
        return self._rest

    def _arest_of(self) -> AsyncIterator[bytes]:
        if self._arest is None:
            self._arest = self._source.__aiter__()
        return self._arest

    def tee(self) -> Iterator[bytes]:
        """The body's chunks passed through unchanged, each one recorded."""
        rest = self._rest_of()
        try:
            for chunk in rest:
                self._add(chunk)
                yield chunk
        except Exception as error:
            self.error = f"{type(error).__name__}: {error}"
            raise
        self.ended = True

    async def atee(self) -> AsyncIterator[bytes]:
        """:meth:`tee` for an async byte stream."""
        rest = self._arest_of()
        try:
            async for chunk in rest:
                self._add(chunk)
                yield chunk
        except Exception as error:
            self.error = f"{type(error).__name__}: {error}"
            raise
        self.ended = True

    def finish(self) -> None:
        """Read the rest of the body into the record (up to the byte limit),
        when the SDK stopped short of its end.  Never raises: a failure is
        recorded and blocks the turn."""
        if not self.reading or self.overflow:
            return
        if hasattr(self._source, "__aiter__"):
            return  # an async body: afinish reads it
        try:
            for chunk in self._rest_of():
                self._add(chunk)
                if self.overflow:
                    return
        except Exception as error:
            self.error = f"{type(error).__name__}: {error}"
            return
        self.ended = True

    async def afinish(self) -> None:
        """:meth:`finish` for a body an async client reads."""
        if not self.reading or self.overflow:
            return
        if not hasattr(self._source, "__aiter__"):
            self.finish()
            return
        try:
            async for chunk in self._arest_of():
                self._add(chunk)
                if self.overflow:
                    return
        except Exception as error:
            self.error = f"{type(error).__name__}: {error}"
            return
        self.ended = True

    # -- the verdict's input ---------------------------------------------------

    def body(self) -> bytes:
        """The body's bytes as the server sent them, content-decoded;
        :class:`WireUnread` when the record is not the whole body."""
        if self.overflow:
            raise WireUnread(
                f"the response body is longer than {self._max_bytes} bytes",
                Code.LIMIT_EXCEEDED,
            )
        if self.error is not None:
            raise WireUnread(f"the response body broke off after {self._size} bytes ({self.error})")
        if not self.ended:
            raise WireUnread(
                f"the response body was not read to its end ({self._size} bytes read):"
                " read the stream to its end before asking for the calls"
            )
        if not 200 <= self.status < 300:
            raise WireUnread(f"the response is HTTP {self.status}, not a stream")
        data = b"".join(self._chunks)
        encoding = self.headers.get("content-encoding", "identity").strip().lower()
        if encoding in ("", "identity"):
            return data
        if encoding in ("gzip", "x-gzip", "deflate"):
            try:
                if encoding == "deflate":
                    return _inflate(data)
                return zlib.decompress(data, wbits=31)
            except zlib.error as error:
                raise WireUnread(f"the {encoding} body does not decompress: {error}") from None
        raise WireUnread(f"the body's content-encoding {encoding!r} is not one the tap decodes")

    def stream_items(self, profile: str) -> list[Any]:
        """The turn's chunks or events, decoded from the body as ``toolstream
        import`` decodes a capture (one fixture's stream)."""
        data = self.body()
        if not data:
            return []  # a body with no event: the gate judges an empty stream
        try:
            capture = read_capture(data)
        except CaptureError as error:
            raise WireUnread(
                f"the response body is not a stream the decoders read: {error}"
            ) from None
        if capture.warnings:
            raise WireUnread(f"the response body has what the decoder skips: {capture.warnings[0]}")
        items: list[Any] = []
        after_done = False
        for record in capture.records:
            if record.kind == "done":
                after_done = True
                continue
            if after_done:
                raise WireUnread(f"{record.location}: an event after the [DONE] marker")
            if record.kind == "empty" and capture.format != "aws-eventstream":
                continue  # a block with no data (what the SDKs skip), as import skips it
            payload = record.payload
            if capture.format == "sse" and record.event is not None and isinstance(payload, dict):
                kind = payload.get("type")
                if isinstance(kind, str) and kind != record.event:
                    # the SDKs dispatch on the name, the profile reads the payload
                    raise WireUnread(
                        f"{record.location}: SSE event name {record.event[:40]!r} but payload"
                        f" type {kind[:40]!r}"
                    )
            try:
                items.append(stream_item(record, capture.format, profile))
            except ImportFailure as error:
                raise WireUnread(str(error)) from None
        return items


def _inflate(data: bytes) -> bytes:
    # HTTP's "deflate" is zlib-wrapped; some servers send it raw
    try:
        return zlib.decompress(data)
    except zlib.error:
        return zlib.decompress(data, wbits=-15)


class WireTap:
    """Records the response bodies of the clients built from it, for
    ``toolstream.guard(..., tap=tap)``.

    ``tap.httpx_client()`` / ``tap.async_httpx_client()`` build an httpx2 (or
    httpx) client whose transport records each body (openai-python,
    anthropic: ``http_client=``; google-genai:
    ``HttpOptions(httpx_client=...)``); ``tap.transport(inner)`` wraps a
    transport of your own; ``tap.attach(boto3_client)`` records the event
    streams of a boto3/botocore client.  ``max_body_bytes`` bounds what one
    body may hold (a longer one blocks its turn)."""

    def __init__(self, *, max_body_bytes: int = DEFAULT_LIMITS.max_fixture_bytes) -> None:
        self.max_body_bytes = max_body_bytes
        self._lock = threading.Lock()
        self._unclaimed: list[TappedResponse] = []

    # -- recording -------------------------------------------------------------

    def record(self, status: int, headers: Mapping[str, str], response: Any) -> TappedResponse:
        """A new body record (the transports and the hook call this)."""
        tapped = TappedResponse(status, headers, response, self.max_body_bytes)
        with self._lock:
            self._unclaimed.append(tapped)
            del self._unclaimed[:-KEPT_UNCLAIMED]
        return tapped

    def httpx_client(self, client_class: Any = None, /, **options: Any) -> Any:
        """An httpx2 client (httpx when httpx2 is not installed; or the
        ``client_class`` given: ``httpx.Client``, ``httpx2.Client``, a
        subclass) whose transport records every body; ``options`` go to the
        client (``timeout=``...), ``transport=`` is the one wrapped."""
        return self._client(client_class, "Client", options)

    def async_httpx_client(self, client_class: Any = None, /, **options: Any) -> Any:
        """:meth:`httpx_client` for ``AsyncClient``."""
        return self._client(client_class, "AsyncClient", options)

    def _client(self, client_class: Any, name: str, options: dict[str, Any]) -> Any:
        if client_class is None:
            client_class = getattr(_httpx_module(None), name)
        module = _httpx_module(client_class)
        asynchronous = issubclass(client_class, module.AsyncClient)
        inner = options.pop("transport", None)
        if inner is None:
            inner = module.AsyncHTTPTransport() if asynchronous else module.HTTPTransport()
        return client_class(transport=self.transport(inner), **options)

    def transport(self, inner: Any) -> Any:
        """``inner`` (an httpx or httpx2 transport, sync or async), with every
        response body it returns recorded."""
        module = _httpx_module(type(inner))
        classes = _tapped_classes(module)
        if isinstance(inner, module.AsyncBaseTransport):
            return classes["async_transport"](inner, self)
        return classes["transport"](inner, self)

    def attach(self, client: Any) -> Any:
        """Record the event-stream bodies of a boto3/botocore ``client``
        (its ``before-parse`` event: the body botocore's ``EventStream``
        reads is wrapped before the parser sees it).  Returns the client."""
        client.meta.events.register("before-parse", self._before_parse)
        return client

    def _before_parse(self, operation_model: Any, response_dict: dict[str, Any], **_: Any) -> None:
        if not getattr(operation_model, "has_event_stream_output", False):
            return
        raw = response_dict.get("body")
        if raw is None or isinstance(raw, (bytes, bytearray)):
            return  # an error response: botocore raises it, nothing streams
        headers = response_dict.get("headers") or {}
        tee = _TappedRaw(raw, self, int(response_dict.get("status_code", 0)), headers)
        response_dict["body"] = tee

    # -- claiming --------------------------------------------------------------

    def claim(self, stream: Any) -> TappedResponse:
        """The recorded body that carries ``stream`` (see the module's
        docstring for which); :class:`WireUnread` when there is none or no
        telling which."""
        named = _named_response(stream)
        with self._lock:
            pending = list(self._unclaimed)
            if named is not None:
                chosen = [t for t in pending if t.response is named]
                if not chosen:
                    raise WireUnread(
                        "the tap recorded no body for this stream's response: build the"
                        " SDK's client with the tap (tap.httpx_client(), tap.attach(client))"
                        " or claim each stream once"
                    )
            else:
                chosen = pending if len(pending) <= 1 else [t for t in pending if t.reading]
                if not chosen:
                    raise WireUnread(
                        "the tap recorded no response body: build the SDK's client with the"
                        " tap (tap.httpx_client(), tap.attach(client))"
                        if not pending
                        else f"{len(pending)} recorded bodies and none still being read:"
                        " no telling which one is this stream's"
                    )
                if len(chosen) > 1:
                    raise WireUnread(
                        f"{len(chosen)} response bodies are being read through the tap at"
                        " once and the stream does not say which is its own: one tap per"
                        " stream read concurrently"
                    )
            (tapped,) = chosen
            # bodies recorded before this one that no guard wanted (other
            # requests through the client) are done with
            position = pending.index(tapped)
            self._unclaimed = [t for t in pending[position + 1 :]] + [
                t for t in pending[:position] if t.reading
            ]
            tapped.claimed = True
        return tapped


def _named_response(stream: Any) -> Any:
    """The response object an SDK stream holds, when it holds one:
    openai-python's and anthropic's ``Stream.response``, botocore's
    ``EventStream`` body (a tapped one)."""
    raw = getattr(stream, "_raw_stream", None)  # botocore.eventstream.EventStream
    if isinstance(raw, _TappedRaw):
        return raw
    response = getattr(stream, "response", None)
    if response is not None and hasattr(response, "status_code"):
        return response
    return None


def _httpx_module(client_class: Any) -> Any:
    """The httpx-like package a class comes from (httpx2 or httpx), found by
    the class's own module; for None, httpx2 when installed, else httpx."""
    if client_class is None:
        for name in ("httpx2", "httpx"):
            try:
                return __import__(name)
            except ImportError:
                continue
        raise RuntimeError("WireTap.httpx_client needs httpx2 or httpx installed")
    for cls in client_class.__mro__:
        package = sys.modules.get((cls.__module__ or "").split(".")[0])
        if package is not None and all(
            hasattr(package, name)
            for name in ("SyncByteStream", "AsyncByteStream", "BaseTransport", "AsyncBaseTransport")
        ):
            return package
    raise TypeError(f"{client_class.__name__} is not an httpx or httpx2 class")


_CLASSES: dict[str, dict[str, type[Any]]] = {}


def _tapped_classes(module: Any) -> dict[str, type[Any]]:
    """The tapping transport and byte-stream classes for one httpx-like
    package, subclasses of its own base classes (its client checks them)."""
    made = _CLASSES.get(module.__name__)
    if made is not None:
        return made

    class TappedStream(module.SyncByteStream):  # type: ignore[misc]
        def __init__(self, inner: Any, tapped: TappedResponse) -> None:
            self._inner = inner
            self._tapped = tapped

        def __iter__(self) -> Iterator[bytes]:
            return self._tapped.tee()

        def close(self) -> None:
            try:
                self._tapped.finish()  # the rest of the body, before the connection goes
            finally:
                self._tapped.closed = True
                self._inner.close()

    class AsyncTappedStream(module.AsyncByteStream):  # type: ignore[misc]
        def __init__(self, inner: Any, tapped: TappedResponse) -> None:
            self._inner = inner
            self._tapped = tapped

        def __aiter__(self) -> AsyncIterator[bytes]:
            return self._tapped.atee()

        async def aclose(self) -> None:
            try:
                await self._tapped.afinish()
            finally:
                self._tapped.closed = True
                await self._inner.aclose()

    class TappedTransport(module.BaseTransport):  # type: ignore[misc]
        def __init__(self, inner: Any, tap: WireTap) -> None:
            self._inner = inner
            self._tap = tap

        def handle_request(self, request: Any) -> Any:
            response = self._inner.handle_request(request)
            tapped = self._tap.record(response.status_code, response.headers, response)
            tapped.read_from(response.stream)
            response.stream = TappedStream(response.stream, tapped)
            return response

        def close(self) -> None:
            self._inner.close()

        def __enter__(self) -> Any:
            self._inner.__enter__()
            return self

        def __exit__(self, *exc: Any) -> None:
            self._inner.__exit__(*exc)

    class AsyncTappedTransport(module.AsyncBaseTransport):  # type: ignore[misc]
        def __init__(self, inner: Any, tap: WireTap) -> None:
            self._inner = inner
            self._tap = tap

        async def handle_async_request(self, request: Any) -> Any:
            response = await self._inner.handle_async_request(request)
            tapped = self._tap.record(response.status_code, response.headers, response)
            tapped.read_from(response.stream)
            response.stream = AsyncTappedStream(response.stream, tapped)
            return response

        async def aclose(self) -> None:
            await self._inner.aclose()

        async def __aenter__(self) -> Any:
            await self._inner.__aenter__()
            return self

        async def __aexit__(self, *exc: Any) -> None:
            await self._inner.__aexit__(*exc)

    made = _CLASSES[module.__name__] = {
        "transport": TappedTransport,
        "async_transport": AsyncTappedTransport,
    }
    return made


class _TappedRaw:
    """botocore's event-stream body (a urllib3 response) with every byte
    its ``EventStream`` reads recorded; anything else passes through."""

    def __init__(self, raw: Any, tap: WireTap, status: int, headers: Mapping[str, str]) -> None:
        self._raw = raw
        # botocore reads the body undecoded (urllib3's decode_content=False):
        # the record is the bytes its parser reads
        kept = {k: v for k, v in headers.items() if k.lower() != "content-encoding"}
        self._tapped = tap.record(status, kept, self)
        self._tapped.read_from(_LazyChunks(raw))

    def stream(self, *args: Any, **kwargs: Any) -> Iterator[bytes]:
        return self._tapped.tee()

    def close(self) -> None:
        try:
            self._tapped.finish()
        finally:
            self._tapped.closed = True
            self._raw.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class _LazyChunks:
    """A urllib3 body's ``stream()``, started when first iterated."""

    def __init__(self, raw: Any) -> None:
        self._raw = raw

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._raw.stream())
