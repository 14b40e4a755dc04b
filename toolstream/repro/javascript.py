"""Reproducers for JavaScript clients: one ``.mjs`` script that needs only
node and the client's npm package (see ``templates/js_*.tmpl``: a shared
server-and-verdict part, and one driver per client written the way
``toolstream/clients/js/drivers/*.mjs`` calls the library)."""

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
    header = "\n".join(f"// {line}".rstrip() for line in header_lines(payload))
    text = json.dumps(payload, ensure_ascii=True, sort_keys=True)
    # An import must come first in a module: the driver's imports go to the top.
    imports = "".join(line + "\n" for line in driver.splitlines() if line.startswith("import "))
    body = "".join(line + "\n" for line in driver.splitlines() if not line.startswith("import "))
    common = template("js_common.mjs.tmpl")
    return (
        common.replace("__HEADER__", header, 1)
        .replace('import net from "node:net";\n', 'import net from "node:net";\n' + imports, 1)
        .replace("__PAYLOAD__", json.dumps(text), 1)
        .replace("// __DRIVER__\n", body.lstrip("\n"), 1)
    )
