"""Standalone reproducers: one script, in the client's language, that plays
one case's exact bytes to the real library and exits 1 when the library's
behaviour is the unsafe one.  See docs/repro.md."""

from __future__ import annotations

from toolstream.repro.build import CLIENTS, build_script, script_suffix

__all__ = ["CLIENTS", "build_script", "script_suffix"]
