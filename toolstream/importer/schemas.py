"""``--schemas`` and ``--request``: the tools and the request as they were sent.

:func:`tool_schemas` turns a tools definition into the fixture's
``tool_schemas`` map (tool name -> JSON Schema of its arguments).  Accepted
shapes (the same file may be a whole request body: its ``tools`` list, or
Bedrock's ``toolConfig``, is read):

* an OpenAI Chat Completions / Mistral ``tools`` list:
  ``[{"type": "function", "function": {"name", "parameters"}}]``;
* an OpenAI Responses ``tools`` list: ``[{"type": "function", "name", "parameters"}]``;
* an Anthropic ``tools`` list: ``[{"name", "input_schema"}]``;
* a Bedrock ``toolConfig`` (``{"tools": [{"toolSpec": {"name",
  "inputSchema": {"json": ...}}}]}``) or its ``tools`` list;
* a plain ``{name: schema}`` map.

A function declared without parameters takes none: its schema is
``{"type": "object", "properties": {}, "additionalProperties": false}``.
Tools the provider runs itself (Anthropic server tools, Responses built-ins,
Bedrock ``systemTool``) and Bedrock ``cachePoint`` entries have no client
schema: they are skipped and named in the notes.  Anything else is a
:class:`InputError`.

:func:`request_fields` keeps what the validator reads from a request body:
``tool_choice`` (Bedrock: ``toolConfig.toolChoice``, kept under the same
path).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class InputError(ValueError):
    """A ``--schemas`` or ``--request`` file this importer does not understand."""


NO_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}


@dataclass
class Schemas:
    """The ``tool_schemas`` map, the shape it was read from, and what was skipped."""

    schemas: dict[str, Any]
    shape: str
    notes: list[str] = field(default_factory=list)


def tool_schemas(document: Any) -> Schemas:
    """Read a tools definition (see the module docstring)."""
    if isinstance(document, list):
        return _from_list(document, "tools")
    if not isinstance(document, dict):
        raise InputError("expected a tools list or an object, got " + _type(document))
    config = document.get("toolConfig")
    if isinstance(config, dict) and isinstance(config.get("tools"), list):
        return _from_list(config["tools"], "toolConfig.tools")
    if isinstance(document.get("tools"), list):
        return _from_list(document["tools"], "tools")
    for name, schema in document.items():
        if not isinstance(schema, (dict, bool)):
            raise InputError(
                f"not a tools list and not a name -> schema map: the value of"
                f" {_clip(name)} is {_type(schema)}"
            )
    return Schemas(schemas=dict(document), shape="name -> schema map")


def _from_list(tools: list[Any], where: str) -> Schemas:
    out: dict[str, Any] = {}
    shapes: set[str] = set()
    notes: list[str] = []
    for number, tool in enumerate(tools):
        at = f"{where}[{number}]"
        if not isinstance(tool, dict):
            raise InputError(f"{at} is {_type(tool)}, not an object")
        read = _read_tool(tool, at)
        if read is None:
            notes.append(f"{at}: {_describe_skipped(tool)} has no client schema; skipped")
            continue
        shape, name, schema = read
        shapes.add(shape)
        if name in out:
            raise InputError(f"{at}: tool {_clip(name)} is defined twice")
        out[name] = schema
    if len(shapes) > 1:
        raise InputError(f"{where} mixes tool shapes: {', '.join(sorted(shapes))}")
    shape = next(iter(shapes)) if shapes else "empty"
    return Schemas(schemas=out, shape=f"{shape} tools list", notes=notes)


def _read_tool(tool: dict[str, Any], at: str) -> tuple[str, str, Any] | None:
    """``(shape, name, schema)`` of one tools-list entry, or None to skip it."""
    kind = tool.get("type")
    if "toolSpec" in tool:
        spec = tool["toolSpec"]
        if not isinstance(spec, dict):
            raise InputError(f"{at}.toolSpec is {_type(spec)}, not an object")
        name = _name(spec.get("name"), f"{at}.toolSpec.name")
        input_schema = spec.get("inputSchema")
        if not isinstance(input_schema, dict) or "json" not in input_schema:
            raise InputError(f"{at}.toolSpec.inputSchema has no 'json' schema")
        return "Bedrock", name, _schema(input_schema["json"], f"{at}.toolSpec.inputSchema.json")
    if "cachePoint" in tool or "systemTool" in tool:
        return None
    if kind == "function" and "function" in tool:
        function = tool["function"]
        if not isinstance(function, dict):
            raise InputError(f"{at}.function is {_type(function)}, not an object")
        name = _name(function.get("name"), f"{at}.function.name")
        return "OpenAI chat", name, _parameters(function.get("parameters"), f"{at}.function")
    if kind == "function":
        name = _name(tool.get("name"), f"{at}.name")
        return "OpenAI Responses", name, _parameters(tool.get("parameters"), at)
    if "input_schema" in tool:
        if kind not in (None, "custom"):
            raise InputError(f"{at}: an Anthropic tool of type {_clip(kind)} with an input_schema")
        name = _name(tool.get("name"), f"{at}.name")
        return "Anthropic", name, _schema(tool["input_schema"], f"{at}.input_schema")
    if isinstance(kind, str) and kind not in ("function", "custom"):
        # Anthropic server tools (web_search_20250305...), Responses built-ins
        # (web_search, file_search, mcp, code_interpreter...).
        return None
    raise InputError(
        f"{at} is not a tool definition this importer knows"
        f" (keys: {', '.join(sorted(str(k) for k in tool)[:8])})"
    )


def _parameters(value: Any, at: str) -> Any:
    if value is None:
        return dict(NO_PARAMETERS)
    return _schema(value, f"{at}.parameters")


def _schema(value: Any, at: str) -> Any:
    if not isinstance(value, (dict, bool)):
        raise InputError(f"{at} is {_type(value)}, not a JSON Schema")
    return value


def _name(value: Any, at: str) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(f"{at} is {_type(value)}, not a non-empty string")
    return value


def _describe_skipped(tool: dict[str, Any]) -> str:
    if "cachePoint" in tool:
        return "a cachePoint"
    if "systemTool" in tool:
        return "a Bedrock systemTool"
    name = tool.get("name")
    label = f" {_clip(name)}" if isinstance(name, str) else ""
    return f"a provider-run tool of type {_clip(tool.get('type'))}{label}"


def request_fields(document: Any) -> dict[str, Any]:
    """The fields of a request body the validator uses (``tool_choice``)."""
    if not isinstance(document, Mapping):
        raise InputError("expected the request body (a JSON object), got " + _type(document))
    out: dict[str, Any] = {}
    if "tool_choice" in document:
        out["tool_choice"] = document["tool_choice"]
    config = document.get("toolConfig")
    if isinstance(config, Mapping) and "toolChoice" in config:
        out["toolConfig"] = {"toolChoice": config["toolChoice"]}
    return out


def _type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _clip(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 42 else text[:39] + "..."


def read_json(data: bytes, what: str) -> Any:
    """Strictly parse a ``--schemas``/``--request`` file (UTF-8 JSON, no
    duplicate keys, no NaN)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{what} is not UTF-8 (byte {error.start})") from None

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise InputError(f"{what} repeats the key {_clip(key)}")
            out[key] = value
        return out

    def constant(name: str) -> Any:
        raise InputError(f"{what} holds {name}, which is not JSON")

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{what} is not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise InputError(f"{what} is nested too deeply") from None
