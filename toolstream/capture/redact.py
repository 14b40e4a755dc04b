"""Redaction gate: find and mask credentials in decoded captures.

:func:`scan` walks a JSON-like value (dicts, lists/tuples, strings, numbers)
and reports every credential it finds as a :class:`Hit` with a JSON pointer
(RFC 6901) to the member; :func:`redact` returns a deep copy with each secret
replaced by ``"[REDACTED:<kind>]"`` (inside a string only the secret's span
is replaced; a secret inside a dict key is replaced the same way).

What counts as a credential:

* token shapes anywhere in a string (dict keys included): OpenAI
  (``sk-...``, ``sk-proj-...``, ``sk-svcacct-...``, ``sk-admin-...``),
  Anthropic (``sk-ant-...``), OpenRouter (``sk-or-v1-...``), Groq
  (``gsk_...``), xAI (``xai-...``), Google (``AIza...``), GitHub (``ghp_``,
  ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``), AWS access key ids
  (``AKIA``/``ASIA`` + 16 upper-case alphanumerics), ``Bearer <token>``;
* labelled values inside text: ``authorization: ...``, ``x-api-key=...``,
  ``api_key: ...``, ``password=...``, ``aws_secret_access_key = ...``;
* values of members whose key names a credential (compared case-insensitively
  with ``-``, ``_`` and spaces ignored): ``authorization``,
  ``proxy-authorization``, anything ending in ``apikey`` (``x-api-key``,
  ``api_key``, ``x-goog-api-key``, ``OPENAI_API_KEY``...), anything ending in
  ``secretaccesskey``, ``aws_session_token``, ``x-amz-security-token``,
  ``password``/``passwd``, ``client_secret``, ``access_token``,
  ``refresh_token``, ``private_key``.  If a token shape is found inside such a
  value only that span is reported, otherwise the whole value is;
* a 40-character base64 string (an AWS secret access key) when it is the
  value of such a key, follows such a label in text, or is a sibling of an
  AWS access key id in the same object.

To keep false positives off ordinary ids (``call_...``, ``toolu_...``,
``msg_...``, ``chatcmpl-...``, ``resp_...``, ``fc_...``) and base64 blobs
(reasoning ``signature``/``encrypted_content``), token shapes must start and
end at a token boundary (never inside a longer run of token characters) and
random-looking bodies need both a letter and a digit.

A :class:`Hit` never holds the secret: ``preview`` shows at most its first
4 characters (fewer for short secrets) followed by ``…``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Hit", "preview", "redact", "scan"]


@dataclass(frozen=True)
class Hit:
    """One credential found.

    ``path`` is a JSON pointer to the member (``""`` for the root value);
    ``in_key`` is true when the secret is in the member's key rather than its
    value; ``kind`` names the credential type (it is also the word used in
    the ``[REDACTED:<kind>]`` replacement).
    """

    path: str
    kind: str
    preview: str
    in_key: bool = False


def preview(secret: str) -> str:
    """At most the first 4 characters of ``secret`` (a third of it, if shorter) + ``…``."""
    return secret[: min(4, len(secret) // 3)] + "…"


def _has_letter_and_digit(s: str) -> bool:
    return any(c.isdigit() for c in s) and any(c.isalpha() for c in s)


_B = r"(?<![A-Za-z0-9_\-])"  # token start boundary
_E = r"(?![A-Za-z0-9_\-])"  # token end boundary
_B64_40 = r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"
_LABEL_VALUE = r"""["']?[ \t]*[:=][ \t]*["']?(?:(?:Bearer|Basic|Token|Digest)[ \t]+)?"""

# (kind, regex whose named group ``s`` is the secret, extra check on the secret)
_RULES: list[tuple[str, str, Callable[[str], bool] | None]] = [
    ("anthropic-key", rf"{_B}(?P<s>sk-ant-[A-Za-z0-9_\-]{{20,}}){_E}", _has_letter_and_digit),
    ("openrouter-key", rf"{_B}(?P<s>sk-or-v1-[A-Za-z0-9]{{20,}}){_E}", None),
    (
        "openai-key",
        rf"{_B}(?P<s>sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{{20,}}"
        rf"|sk-[A-Za-z0-9]{{20,}}){_E}",
        _has_letter_and_digit,
    ),
    ("groq-key", rf"{_B}(?P<s>gsk_[A-Za-z0-9]{{20,}}){_E}", _has_letter_and_digit),
    ("xai-key", rf"{_B}(?P<s>xai-[A-Za-z0-9]{{20,}}){_E}", _has_letter_and_digit),
    ("google-api-key", rf"{_B}(?P<s>AIza[A-Za-z0-9_\-]{{35}}){_E}", None),
    (
        "github-token",
        rf"{_B}(?P<s>gh[pousr]_[A-Za-z0-9]{{30,}}|github_pat_[A-Za-z0-9_]{{22,}}){_E}",
        _has_letter_and_digit,
    ),
    ("aws-access-key-id", r"(?<![A-Za-z0-9])(?P<s>(?:AKIA|ASIA)[A-Z0-9]{16})(?![A-Za-z0-9])", None),
    (
        "aws-secret-access-key",
        rf"(?i:(?:aws[_\-]?)?secret[_\-]?access[_\-]?key){_LABEL_VALUE}(?P<s>{_B64_40})",
        None,
    ),
    (
        "authorization",
        rf"(?i:\b(?:proxy-)?authorization){_LABEL_VALUE}(?P<s>[^\s\"',;{{}}\[\]<>]{{8,}})",
        None,
    ),
    (
        "api-key",
        rf"(?i:\b(?:x-goog-api-key|x-api-key|api[_\-]?key)){_LABEL_VALUE}"
        r"(?P<s>[^\s\"',;{}\[\]<>]{8,})",
        None,
    ),
    (
        "password",
        rf"(?i:\bpass(?:word|wd)){_LABEL_VALUE}(?P<s>[^\s\"',;{{}}\[\]<>]{{4,}})",
        None,
    ),
    (
        "bearer-token",
        r"(?i:\bbearer)[ \t]+(?P<s>[A-Za-z0-9._~+/\-]{16,}=*)(?![A-Za-z0-9._~+/=\-])",
        _has_letter_and_digit,
    ),
]
_COMPILED = [(kind, re.compile(rx), check) for kind, rx, check in _RULES]

_AWS_KEY_ID = re.compile(r"(?:AKIA|ASIA)[A-Z0-9]{16}")
_AWS_SECRET = re.compile(r"[A-Za-z0-9/+]{40}")
_REDACTED = re.compile(r"\[REDACTED:[a-z0-9\-]+\]")


_KEY_KINDS = {
    "authorization": "authorization",
    "proxyauthorization": "authorization",
    "awssessiontoken": "aws-session-token",
    "xamzsecuritytoken": "aws-session-token",
    "password": "password",
    "passwd": "password",
    "clientsecret": "client-secret",
    "accesstoken": "access-token",
    "refreshtoken": "refresh-token",
    "privatekey": "private-key",
}


def _key_kind(key: str) -> str | None:
    """The credential kind a member key names, if any."""
    k = re.sub(r"[\s_\-]", "", key.lower())
    if k.endswith("apikey"):
        return "api-key"
    if k.endswith("secretaccesskey"):
        return "aws-secret-access-key"
    return _KEY_KINDS.get(k)


def _find(text: str) -> list[tuple[int, int, str]]:
    """Non-overlapping (start, end, kind) secret spans in ``text``, left to right."""
    spans: list[tuple[int, int, str]] = []
    for kind, rx, check in _COMPILED:
        for m in rx.finditer(text):
            start, end = m.span("s")
            secret = m.group("s")
            if _REDACTED.fullmatch(secret) or (check is not None and not check(secret)):
                continue
            if any(start < e and s < end for s, e, _ in spans):
                continue
            spans.append((start, end, kind))
    spans.sort()
    return spans


def _pointer(parent: str, token: str) -> str:
    return parent + "/" + token.replace("~", "~0").replace("/", "~1")


def _replace(text: str, spans: list[tuple[int, int, str]]) -> str:
    out: list[str] = []
    pos = 0
    for start, end, kind in spans:
        out.append(text[pos:start])
        out.append(f"[REDACTED:{kind}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)


_Item = tuple[Any, str, Any, Any, str | None, list[Hit]]


class _Walker:
    def __init__(self) -> None:
        self.hits: list[Hit] = []

    def text(self, text: str, path: str) -> str:
        spans = _find(text)
        for start, end, kind in spans:
            self.hits.append(Hit(path, kind, preview(text[start:end])))
        return _replace(text, spans) if spans else text

    def key(self, key: str, parent: str, taken: dict[Any, Any]) -> tuple[str, str, list[Hit]]:
        """Redact a member key; return it, the member's pointer (built from the
        redacted key, so a path never carries a secret) and the key's hits."""
        spans = _find(key)
        new_key = _replace(key, spans) if spans else key
        base, n = new_key, 2
        while new_key in taken:
            new_key = f"{base}#{n}"
            n += 1
        path = _pointer(parent, new_key)
        hits = [Hit(path, kind, preview(key[start:end]), in_key=True) for start, end, kind in spans]
        return new_key, path, hits

    def labelled(self, value: Any, path: str, kind: str) -> Any:
        """A scalar member value whose key names a credential."""
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, (int, float)):
            self.hits.append(Hit(path, kind, preview(str(value))))
            return f"[REDACTED:{kind}]"
        if not isinstance(value, str):
            return value
        if value == "":
            return value
        if _find(value) or _REDACTED.search(value):
            # token shapes inside are reported alone; a value that was already
            # (partly) redacted is not reported again as a whole
            return self.text(value, path)
        self.hits.append(Hit(path, kind, preview(value)))
        return f"[REDACTED:{kind}]"

    def walk(self, root: Any) -> Any:
        """Copy ``root`` iteratively (no recursion limit), redacting secrets."""
        holder: list[Any] = [None]
        # (value, path, container, slot, kind named by the member's key, key hits)
        stack: list[_Item] = [(root, "", holder, 0, None, [])]
        while stack:
            value, path, container, slot, label, key_hits = stack.pop()
            self.hits.extend(key_hits)
            if isinstance(value, dict):
                new: dict[Any, Any] = {}
                container[slot] = new
                aws_pair = any(
                    isinstance(v, str) and _AWS_KEY_ID.fullmatch(v) for v in value.values()
                )
                children: list[_Item] = []
                for key, child in value.items():
                    kind: str | None = None
                    hits: list[Hit] = []
                    if isinstance(key, str):
                        new_key, child_path, hits = self.key(key, path, new)
                        kind = _key_kind(key)
                    else:
                        new_key, child_path = key, _pointer(path, str(key))
                    new[new_key] = None
                    if (
                        kind is None
                        and aws_pair
                        and isinstance(child, str)
                        and _AWS_SECRET.fullmatch(child)
                        and _has_letter_and_digit(child)
                    ):
                        kind = "aws-secret-access-key"
                    children.append((child, child_path, new, new_key, kind, hits))
                stack.extend(reversed(children))
            elif isinstance(value, (list, tuple)):
                items: list[Any] = [None] * len(value)
                container[slot] = items
                stack.extend(
                    (child, _pointer(path, str(i)), items, i, None, [])
                    for i, child in reversed(list(enumerate(value)))
                )
            elif label is not None:
                container[slot] = self.labelled(value, path, label)
            elif isinstance(value, str):
                container[slot] = self.text(value, path)
            else:
                container[slot] = value
        return holder[0]


def redact(obj: Any) -> tuple[Any, list[Hit]]:
    """Return a deep copy of ``obj`` with every secret replaced, and the hits.

    Each secret becomes ``"[REDACTED:<kind>]"``; inside a longer string only
    its span is replaced.  Tuples come back as lists.  Hits are in document
    order.  Redacting an already redacted value finds nothing.
    """
    walker = _Walker()
    copy = walker.walk(obj)
    return copy, walker.hits


def scan(obj: Any) -> list[Hit]:
    """Every credential in ``obj`` (see :func:`redact`), in document order."""
    return redact(obj)[1]
