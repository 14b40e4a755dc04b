"""Adapter: ``litellm.stream_chunk_builder``.

What it drives
    The documented way to rebuild a streamed ``litellm.completion`` response:
    collect the ``ModelResponseStream`` chunks and call
    ``litellm.stream_chunk_builder(chunks)``.  Each fixture body becomes a
    ``litellm.ModelResponseStream(**body)`` (as LiteLLM's stream wrapper
    builds them for OpenAI-compatible providers: ``StreamingChoices`` ->
    ``Delta``, whose constructor coerces tool-call deltas -- a missing or
    ``null`` ``index`` becomes the call's *position within that delta*, a
    ``dict`` ``arguments`` is ``json.dumps``-ed, ``type`` defaults to
    ``"function"``), bodies are deep-copied first because ``Delta`` mutates
    them.  The result's ``choices[0].message.tool_calls`` are read back.

    ``stream_chunk_builder`` joins argument fragments per ``(choice, index)``,
    keeps the *last* non-empty ``id`` and ``name`` seen for an index, silently
    drops a call that ends with no ``id`` or no ``name``, and turns empty
    arguments into ``"{}"``.

Offline
    ``import litellm`` fetches a model-price map over the network unless
    ``LITELLM_LOCAL_MODEL_COST_MAP=True``; the adapter sets that (and
    ``LITELLM_OFFLINE_MODE=true``) with ``os.environ.setdefault`` before its
    first import.  Import takes ~3 s.

Placeholders
    ``id="chatcmpl-toolstream"``, ``object="chat.completion.chunk"``,
    ``created=0``, ``model="toolstream-fixture"`` when absent.

Counted as *rejected*
    ``litellm.APIError`` raised by ``stream_chunk_builder`` (it wraps *every*
    internal exception into ``APIError(500, "Error building chunks for
    logging/streaming usage calculation")``; the reason names the wrapped
    exception), and an ``error`` object in the stream.  Exceptions while
    building the ``ModelResponseStream`` objects (e.g. pydantic
    ``ValidationError`` for a non-string ``arguments``) propagate.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from typing import Any

from .base import (
    Adapter,
    AdapterCall,
    AdapterResult,
    AdapterUnavailable,
    _list_field,
    library_raised,
)

__all__ = ["LiteLLMAdapter"]


def _import_litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
    import litellm

    return litellm


class LiteLLMAdapter(Adapter):
    name = "litellm"
    package = "litellm"
    profiles = ("openai", "mistral")
    extra = "litellm"

    def available(self) -> bool:
        import importlib.util

        # find_spec instead of importing: the import is slow (~3 s)
        try:
            return importlib.util.find_spec("litellm") is not None
        except (ImportError, ValueError):
            return False

    def run(self, fixture: Mapping[str, Any]) -> AdapterResult:
        self.check_profile(fixture)
        bodies = copy.deepcopy(_list_field(fixture, "chunks"))
        try:
            litellm = _import_litellm()
        except ImportError as exc:
            raise AdapterUnavailable(self.name, self.package, extra=self.extra, cause=exc) from exc
        where = f"litellm {_version(litellm)}"
        # stream_chunk_builder looks the placeholder model up for usage
        # accounting and prints a red "Provider List" banner when it is
        # unknown; the setting only silences that print.
        previous = litellm.suppress_debug_info
        litellm.suppress_debug_info = True
        try:
            return self._run(litellm, bodies, where)
        finally:
            litellm.suppress_debug_info = previous

    def _run(self, litellm: Any, bodies: list[Any], where: str) -> AdapterResult:
        from .openai_python import CHUNK_PLACEHOLDERS

        chunks = []
        with library_raised(where + " ModelResponseStream"):
            for position, data in enumerate(bodies):
                if isinstance(data, str) and data.startswith("[DONE]"):
                    break
                if isinstance(data, Mapping) and data.get("error"):
                    return AdapterResult.rejection(
                        f"error object in stream at chunk {position}: {data.get('error')!r}"
                    )
                chunks.append(litellm.ModelResponseStream(**{**CHUNK_PLACEHOLDERS, **data}))
        try:
            with library_raised(where + " stream_chunk_builder"):
                response = litellm.stream_chunk_builder(chunks)
        except litellm.APIError as exc:
            cause = exc.__cause__ or exc.__context__
            detail = f" (wrapping {type(cause).__name__}: {cause})" if cause is not None else ""
            return AdapterResult.rejection(f"litellm.APIError: {exc.message}{detail}")

        if response is None or not response.choices:
            return AdapterResult(calls=(), rejected=False, invalid=())
        choice = response.choices[0]
        message = choice.message
        calls = tuple(
            AdapterCall(
                id=getattr(tc, "id", None),
                name=getattr(getattr(tc, "function", None), "name", None),
                arguments=getattr(getattr(tc, "function", None), "arguments", None),
            )
            for tc in (getattr(message, "tool_calls", None) or [])
        )
        finish = getattr(choice, "finish_reason", None)
        return AdapterResult(
            calls=calls,
            rejected=False,
            invalid=(),
            finish_reason=finish if isinstance(finish, str) else None,
        )


def _version(litellm: Any) -> str:
    from .base import package_version

    return getattr(litellm, "__version__", None) or package_version("litellm") or "?"
