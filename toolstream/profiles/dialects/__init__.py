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

from dataclasses import dataclass
from enum import Enum

DOCS = "docs/dialects.md"


class Treatment(str, Enum):
    INERT = "inert"
    NORMALIZED = "normalized"
    REFUSED = "refused"


@dataclass(frozen=True)
class Dialect:
    name: str
    profile: str
    """The profile name (``openai``, ``mistral`` share the chat profile)."""
    level: str
    """Where the member sits: ``chunk`` (a chunk without choices),
    ``choice`` or ``delta``."""
    member: str
    path: str
    shape: str
    servers: tuple[str, ...]
    sources: tuple[str, ...]
    treatment: Treatment
    reason: str


def unknown_member_message(path: str) -> str:
    """The finding text for a member outside the profile and every dialect."""
    return (
        f"member {path[:80]} is not one this profile or any reviewed dialect knows;"
        f" review it as a dialect ({DOCS}, how to add a dialect)"
    )


from toolstream.profiles.dialects import (  # noqa: E402  (rows need Dialect)
    azure_prompt_filter,
    groq_x_groq,
    message_mirror,
    openrouter_reasoning,
    reasoning_content,
)

REGISTRY: tuple[Dialect, ...] = (
    reasoning_content.DIALECT,
    openrouter_reasoning.REASONING,
    openrouter_reasoning.REASONING_DETAILS,
    groq_x_groq.DIALECT,
    azure_prompt_filter.DIALECT,
    message_mirror.DIALECT,
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
    "Treatment",
    "choose",
    "unknown_member_message",
]
