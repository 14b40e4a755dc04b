"""Local ``$ref``: URI fragments that are JSON pointers into the same document.

``#`` is the root; ``#/a/b`` is the RFC 6901 pointer ``/a/b`` after the
fragment is percent-decoded (RFC 6901 section 6), so ``#/$defs/a%20b`` names
the key ``"a b"`` and ``#/$defs/a~1b`` names ``"a/b"``.  Anything that is not
a fragment of this document (``other.json#/x``, ``https://...``) and plain-name
fragments (``#foo``, which need ``$anchor``) are unsupported.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from toolstream.findings import Code


class RefError(Exception):
    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_ref(ref: str) -> tuple[str, ...]:
    """The pointer tokens of a local ``$ref``; raises :class:`RefError`."""
    shown = ref[:60]
    if not ref.startswith("#"):
        raise RefError(
            Code.UNSUPPORTED_SCHEMA_KEYWORD,
            f"$ref {shown!r} is not local; only '#...' references into the same schema"
            " are supported",
        )
    try:
        fragment = unquote(ref[1:], errors="strict")
    except UnicodeDecodeError:
        raise RefError(
            Code.INVALID_SCHEMA, f"$ref {shown!r} percent-encodes bytes that are not UTF-8"
        ) from None
    if fragment == "":
        return ()
    if not fragment.startswith("/"):
        raise RefError(
            Code.UNSUPPORTED_SCHEMA_KEYWORD,
            f"$ref {shown!r} is not a JSON pointer (anchors are not supported)",
        )
    tokens = []
    for raw in fragment[1:].split("/"):
        rest = raw.replace("~0", "").replace("~1", "")
        if "~" in rest:
            raise RefError(Code.INVALID_SCHEMA, f"$ref {shown!r} has a '~' not followed by 0 or 1")
        tokens.append(raw.replace("~1", "/").replace("~0", "~"))
    return tuple(tokens)


def resolve(root: Any, tokens: tuple[str, ...]) -> Any:
    """The value at ``tokens`` in ``root``; raises :class:`LookupError`."""
    node = root
    for token in tokens:
        if isinstance(node, dict):
            if token not in node:
                raise LookupError(token)
            node = node[token]
        elif isinstance(node, list):
            if (
                not token.isascii()
                or not token.isdigit()
                or len(token) > 18
                or (token != "0" and token[0] == "0")
            ):
                raise LookupError(token)
            index = int(token)
            if index >= len(node):
                raise LookupError(token)
            node = node[index]
        else:
            raise LookupError(token)
    return node
