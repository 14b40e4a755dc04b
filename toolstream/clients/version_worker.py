"""The worker a versioned client runs in its own environment
(:mod:`toolstream.clients.versions`): ``python -m
toolstream.clients.version_worker NAME``.

It loads the driver ``NAME`` and its library, says ``{"ready": true,
"version": ...}`` (or ``{"environment": ...}`` when an import fails), then
reads one ``{"target", "fixture"}`` line per case on stdin and answers one
line: ``{"result": ...}``, ``{"crash": {"type", "message", "notes"}}`` for
anything the driver raised, or ``{"environment": ...}`` for an import error
(a library part missing from this environment, never the library's
behaviour).  Nothing else is written to stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from typing import Any


def _say(out: Any, answer: dict[str, Any]) -> None:
    out.write(json.dumps(answer, ensure_ascii=True) + "\n")
    out.flush()


def main(argv: list[str]) -> int:
    out = sys.stdout
    sys.stdout = io.StringIO()  # a library printing must not break the protocol
    try:
        from toolstream.clients.base import Target
        from toolstream.clients.registry import PYTHON_CLIENTS
        from toolstream.clients.versions import result_to_json

        client = PYTHON_CLIENTS[argv[0]]()
        client.load()
        version = client.version()
    except ImportError as error:
        _say(out, {"environment": f"{type(error).__name__}: {error}"})
        return 1
    _say(out, {"ready": True, "version": version})
    for line in sys.stdin:
        request = json.loads(line)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                result = client.drive(Target(**request["target"]), request["fixture"])
        except ImportError as error:
            _say(out, {"environment": f"{type(error).__name__}: {error}"})
            continue
        except Exception as error:
            notes = [n for n in getattr(error, "__notes__", ()) if isinstance(n, str)]
            _say(
                out,
                {"crash": {"type": type(error).__name__, "message": str(error), "notes": notes}},
            )
            continue
        _say(out, {"result": result_to_json(result)})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
