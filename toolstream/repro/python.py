"""Reproducers for Python clients: one ``.py`` script that needs only the
client's library and the standard library (see ``templates/python_*.tmpl``:
a shared server-and-verdict part, and one driver per client written the
way ``toolstream/clients/<module>.py`` calls the library)."""

from __future__ import annotations

import json
from typing import Any, Final

from toolstream.repro.render import header_lines, template

__all__ = ["DRIVERS", "render_script"]

DRIVERS: Final = {
    "openai-chat-create": "python_openai_chat_create.py.tmpl",
    "anthropic-messages-stream": "python_anthropic_messages_stream.py.tmpl",
    "mistralai-chat-stream": "python_mistralai_chat_stream.py.tmpl",
}
"""Client -> its driver template."""


def render_script(payload: dict[str, Any]) -> str:
    """The script for ``payload`` (see :func:`toolstream.repro.payload.payload`)."""
    driver = template(DRIVERS[payload["client"]])
    header = "\n".join(f"# {line}".rstrip() for line in header_lines(payload))
    text = json.dumps(payload, ensure_ascii=True, sort_keys=True)
    return (
        template("python_common.py.tmpl")
        .replace("__HEADER__", header, 1)
        .replace("__PAYLOAD__", repr(text), 1)
        .replace("# __DRIVER__\n", driver, 1)
    )
