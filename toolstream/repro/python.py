"""Reproducers for Python clients: one ``.py`` script that needs only the
client's library and the standard library (see ``templates/python_*.tmpl``:
a shared server-and-verdict part, and one driver per client written the
way ``toolstream/clients/<module>.py`` calls the library)."""

from __future__ import annotations

import json
from typing import Any

from toolstream.repro.render import header_lines, template

__all__ = ["render_script"]


def render_script(payload: dict[str, Any], driver_template: str) -> str:
    """The script for ``payload`` (see :func:`toolstream.repro.payload.payload`)
    with the client's driver (``driver_template``, its row in
    :data:`toolstream.repro.build.REPRODUCERS`)."""
    driver = template(driver_template)
    header = "\n".join(f"# {line}".rstrip() for line in header_lines(payload))
    text = json.dumps(payload, ensure_ascii=True, sort_keys=True)
    return (
        template("python_common.py.tmpl")
        .replace("__HEADER__", header, 1)
        .replace("__PAYLOAD__", repr(text), 1)
        .replace("# __DRIVER__\n", driver, 1)
    )
