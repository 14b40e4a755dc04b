"""Reviewed dialects: vendor members a profile reads instead of blocking.

The closed world (a member a profile does not know blocks the turn) stays:
a dialect is a reviewed exception to it, one row of :data:`REGISTRY` per
dialect, each defined in its own module.  A row names the member's JSON
path and value shape, the servers known to send it, the public source it
was learned from (facts only), and its treatment:

* ``inert``: it cannot carry tool data; read and ignored (``reason`` says why);
* ``normalized``: tool data in another spelling, mapped onto the profile's
  events and checked like them (a disagreement blocks);
* ``refused``: tool data the reference cannot check; blocks, saying so.

Detection is from the stream: a row applies when its member is present.
Profiles look a member up here only after it missed their own member set,
so a known member costs nothing and an unknown one a dict lookup.  See
docs/dialects.md ("How to add a dialect").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

DOCS = "docs/dialects.md"


class Treatment(str, Enum):
    INERT = "inert"
    NORMALIZED = "normalized"
    REFUSED = "refused"


@dataclass(frozen=True)
class Source:
    """Where a row was learned (an API reference, a server's source file, a
    public recording's repository and path), for some of its servers."""

    where: str
    shows: tuple[str, ...]
    """The row's servers this source is about."""


@dataclass(frozen=True)
class Dialect:
    name: str
    profile: str
    """The profile name (``openai``, ``mistral`` share the chat profile)."""
    level: str
    """Where the member sits.  Chat: ``chunk`` (any chunk, with or without
    ``choices``), ``choice``, ``delta``, or a bookkeeping object's path
    (``usage``, ``usage.prompt_tokens_details``: openai_chat_members); the
    other profiles: the path of the object that holds it, as their member tables name it
    (``message_stop``, ``response.usage``...)."""
    member: str
    path: str
    shape: str
    servers: tuple[str, ...]
    sources: tuple[str | Source, ...]
    """Facts only; a plain string is about every server of the row."""
    treatment: Treatment
    reason: str
    mirrors: str = ""
    """For a normalized copy: what of the same choice it must equal
    (``delta``, or ``delta.content``, where no content counts as ``""``)."""


def sources_for(dialect: Dialect, server: str) -> tuple[str, ...]:
    """The sources of ``dialect`` that are about ``server``."""
    return tuple(
        source if isinstance(source, str) else source.where
        for source in dialect.sources
        if isinstance(source, str) or server in source.shows
    )


def unknown_member_message(path: str) -> str:
    """The finding text for a member outside the profile and every dialect."""
    return (
        f"member {path[:80]} is not one this profile or any reviewed dialect knows;"
        f" review it as a dialect ({DOCS}, how to add a dialect)"
    )


class DialectState(Protocol):
    """What a profile keeps about dialects (``Profile`` has these)."""

    dialects_seen: set[str]
    use_dialects: bool
    forced: frozenset[str]


def unknown_members(
    levels: Mapping[str, frozenset[str]],
    nested: Mapping[str, tuple[str, ...]],
    path: str,
    obj: dict[str, Any],
) -> Iterator[tuple[str, str]]:
    """Every (object path, member) of ``obj``, and of the closed objects
    inside it (``nested``: which members of a level are levels too), that
    ``levels`` does not list; sorted within an object, outer first."""
    known = levels[path]
    if not obj.keys() <= known:
        for member in sorted(str(name) for name in obj if name not in known):
            yield path, member
    for name in nested.get(path, ()):
        inner = obj.get(name)
        if type(inner) is dict:
            yield from unknown_members(levels, nested, f"{path}.{name}", inner)


def unread_member(
    state: DialectState,
    profile: str,
    levels: Mapping[str, frozenset[str]],
    nested: Mapping[str, tuple[str, ...]],
    path: str,
    obj: dict[str, Any],
) -> str | None:
    """The path of the first member of ``obj`` (or of a closed object in
    it) that neither the profile's ``levels`` nor an allowed inert dialect
    of ``profile`` at that level knows; None when every member is known.
    The inert dialects read on the way are recorded as seen (only when no
    member is left unread: a blocked turn reports no dialect).  A row of
    another treatment is not applied at these levels: its member blocks."""
    used: list[str] = []
    for level, member in unknown_members(levels, nested, path, obj):
        dialect = BY_MEMBER.get((profile, level, member)) if state.use_dialects else None
        if (
            dialect is None
            or dialect.treatment is not Treatment.INERT
            or (state.forced and dialect.name not in state.forced)
        ):
            return f"{level}.{member[:40]}"
        used.append(dialect.name)
    state.dialects_seen.update(used)
    return None


from toolstream.profiles.dialects import (  # noqa: E402  (rows need Dialect)
    azure_content_filter,
    bedrock_invocation_metrics,
    deepseek_cache_tokens,
    github_copilot_usage,
    groq_usage_timing,
    groq_x_groq,
    message_mirror,
    openrouter_output_text,
    openrouter_provider,
    openrouter_reasoning,
    openrouter_usage,
    perplexity_citations,
    reasoning_content,
    sglang_matched_stop,
    together,
    vllm_choice,
    xai_usage,
)

REGISTRY: tuple[Dialect, ...] = (
    reasoning_content.DIALECT,
    openrouter_reasoning.REASONING,
    openrouter_reasoning.REASONING_DETAILS,
    together.TOKEN_ID,
    groq_x_groq.DIALECT,
    azure_content_filter.PROMPT,
    azure_content_filter.COMPLETION,
    openrouter_provider.PROVIDER,
    openrouter_provider.NATIVE_FINISH_REASON,
    perplexity_citations.CITATIONS,
    perplexity_citations.SEARCH_RESULTS,
    vllm_choice.STOP_REASON,
    vllm_choice.TOKEN_IDS,
    sglang_matched_stop.DIALECT,
    together.SEED,
    message_mirror.DIALECT,
    together.TEXT,
    bedrock_invocation_metrics.DIALECT,
    github_copilot_usage.DIALECT,
    openrouter_output_text.DIALECT,
    openrouter_usage.COST,
    openrouter_usage.COST_DETAILS,
    openrouter_usage.IS_BYOK,
    openrouter_usage.CHAT_COST,
    openrouter_usage.CHAT_COST_DETAILS,
    openrouter_usage.CHAT_IS_BYOK,
    deepseek_cache_tokens.HIT,
    deepseek_cache_tokens.MISS,
    groq_usage_timing.QUEUE_TIME,
    groq_usage_timing.PROMPT_TIME,
    groq_usage_timing.COMPLETION_TIME,
    groq_usage_timing.TOTAL_TIME,
    xai_usage.NUM_SOURCES_USED,
    xai_usage.COST_IN_USD_TICKS,
)
"""Every reviewed dialect, one row each."""

BY_MEMBER: dict[tuple[str, str, str], Dialect] = {
    (d.profile, d.level, d.member): d for d in REGISTRY
}
"""(profile, level, member) -> dialect: the one lookup per unknown member."""


def choose(names: tuple[str, ...], off: bool) -> tuple[str, ...] | None:
    """The ``dialects`` argument of :func:`toolstream.validate` for the
    command-line choice (``--dialect NAME``..., ``--no-dialects``): None for
    every reviewed dialect, ``()`` for none.  ValueError for an unknown name
    or for both options at once."""
    if off and names:
        raise ValueError("--dialect and --no-dialects exclude each other")
    if off:
        return ()
    known = {d.name for d in REGISTRY}
    for name in names:
        if name not in known:
            raise ValueError(f"unknown dialect {name!r}; known: {', '.join(sorted(known))}")
    return tuple(sorted(set(names))) if names else None


__all__ = [
    "BY_MEMBER",
    "DOCS",
    "REGISTRY",
    "Dialect",
    "DialectState",
    "Source",
    "Treatment",
    "choose",
    "sources_for",
    "unknown_member_message",
    "unknown_members",
    "unread_member",
]
