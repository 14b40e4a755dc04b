"""JUnit XML for ``toolstream verify --junit``: one ``testcase`` per case.

A label that does not hold is a ``failure``; a malformed label, an
unreadable case file or a validator crash is an ``error``.  No timestamps or durations, so the file
is deterministic.  All text is ASCII (values are JSON-escaped), so control
characters and unpaired surrogates a mutant may carry never make the XML
invalid.

Standard library only.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from toolstream.corpus.verify import BAD_LABEL, CRASH, MISMATCH, UNREADABLE, CaseResult

SUITE_NAME = "toolstream.verify"


def _classname(ident: str) -> str:
    head, sep, _ = ident.rpartition("/")
    return f"{SUITE_NAME}.{head.replace('/', '.')}" if sep else SUITE_NAME


def junit_xml(results: Sequence[CaseResult], *, name: str = SUITE_NAME) -> bytes:
    failures = sum(r.kind == MISMATCH for r in results)
    errors = sum(r.kind in (BAD_LABEL, UNREADABLE, CRASH) for r in results)
    suites = ET.Element(
        "testsuites", name=name, tests=str(len(results)), failures=str(failures), errors=str(errors)
    )
    suite = ET.SubElement(
        suites,
        "testsuite",
        name=name,
        tests=str(len(results)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
    )
    for result in results:
        case = ET.SubElement(
            suite, "testcase", classname=_classname(result.id), name=result.id, file=result.path
        )
        if result.ok:
            continue
        tag = "failure" if result.kind == MISMATCH else "error"
        message = f"expected {result.expected}, got {result.got}"
        if result.kind == UNREADABLE:
            message = "unreadable case: " + "; ".join(result.problems)
        elif result.kind == BAD_LABEL:
            message = "malformed label: " + "; ".join(result.problems)
        elif result.kind == CRASH:
            message = "; ".join(result.problems)
        element = ET.SubElement(case, tag, message=_ascii(message), type=result.kind)
        element.text = _ascii("\n".join(result.problems)) + "\n"
    ET.indent(suites)
    body = ET.tostring(suites, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n").encode("utf-8")


def _ascii(text: str) -> str:
    """Keep only characters XML 1.0 allows, as ASCII."""
    out = []
    for char in text:
        code = ord(char)
        if char in "\t\n" or 0x20 <= code < 0x7F:
            out.append(char)
        else:
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "".join(out)
