"""``--schemas``, ``--request`` and recorded requests: the tools and the request as sent.

:func:`tool_schemas` turns a tools definition into the fixture's
``tool_schemas`` map (tool name -> JSON Schema of its arguments).  Each
entry of a tools list is read by the first shape in :data:`TOOL_SHAPES`
that claims it (one small function per provider shape):

* ``bedrock`` - ``{"toolSpec": {"name", "inputSchema": {"json": ...}}}``
  (a whole ``toolConfig`` is accepted too); ``cachePoint`` and
  ``systemTool`` entries have no client schema and are skipped;
* ``gemini`` - ``{"functionDeclarations": [{"name", "parameters" |
  "parametersJsonSchema"}]}`` (snake_case spellings too): ``parameters`` is
  Gemini's OpenAPI-subset ``Schema`` and is converted to JSON Schema by
  :mod:`toolstream.importer.gemini_schema`; ``parametersJsonSchema`` is JSON
  Schema already.  Gemini's built-in tools (``googleSearch``,
  ``codeExecution``, ``urlContext``...) are provider-run: skipped;
* ``openai-chat`` - ``{"type": "function", "function": {"name",
  "parameters"}}``: OpenAI Chat Completions, Mistral and Cohere v2;
* ``openai-responses`` - ``{"type": "function", "name", "parameters"}``;
* ``anthropic`` - ``{"name", "input_schema"}``;
* ``cohere-v1`` - ``{"name", "parameter_definitions"}``: Cohere's v1
  parameter types (``str``, ``List[str]``...) are not JSON Schema and are
  refused (pass ``--schemas``);
* ``provider-run`` - any other ``type`` (Anthropic server tools, Responses
  built-ins): skipped.

A whole request body is accepted (its ``tools`` list, or Bedrock's
``toolConfig``), and so is a plain ``{name: schema}`` map.  A function
declared without parameters takes none: its schema is ``{"type": "object",
"properties": {}, "additionalProperties": false}``.  Anything that does not
convert is an :class:`InputError` naming the entry: the importer fails
closed rather than guess a schema.

:func:`request_tools` reads the tools of a recorded request body (None when
it holds none); :func:`request_fields` keeps what the validator reads from a
request body: ``tool_choice`` (Bedrock: ``toolConfig.toolChoice``; Gemini:
``toolConfig.functionCallingConfig``, each kept under the same path).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolstream.importer.errors import InputError as InputError
from toolstream.importer.errors import kind_of as _type
from toolstream.importer.errors import shown as _clip
from toolstream.importer.gemini_schema import GEMINI_BUILTIN_TOOLS, gemini_schema

NO_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}


@dataclass
class Schemas:
    """The ``tool_schemas`` map, the shape it was read from, and what was skipped."""

    schemas: dict[str, Any]
    shape: str
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Read:
    """What one tools-list entry gave: its tool definitions and skip notes."""

    tools: list[tuple[str, Any]]
    skipped: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ToolShape:
    """One provider's tools-list entry shape."""

    name: str
    claims: Callable[[dict[str, Any]], bool]
    read: Callable[[dict[str, Any], str], Read]


def tool_schemas(document: Any) -> Schemas:
    """Read a tools definition (see the module docstring)."""
    if isinstance(document, list):
        return _from_list(document, "tools")
    if not isinstance(document, dict):
        raise InputError("expected a tools list or an object, got " + _type(document))
    found = request_tools(document)
    if found is not None:
        return found
    for name, schema in document.items():
        if not isinstance(schema, (dict, bool)):
            raise InputError(
                f"not a tools list and not a name -> schema map: the value of"
                f" {_clip(name)} is {_type(schema)}"
            )
    return Schemas(schemas=dict(document), shape="name -> schema map")


def request_tools(document: Mapping[str, Any]) -> Schemas | None:
    """The tools of a request body, or None when it declares none."""
    config = document.get("toolConfig")
    if isinstance(config, dict) and isinstance(config.get("tools"), list):
        return _from_list(config["tools"], "toolConfig.tools")
    if isinstance(document.get("tools"), list):
        return _from_list(document["tools"], "tools")
    if "tools" in document and document["tools"] is not None:
        raise InputError(f"the request's tools is {_type(document['tools'])}, not a list")
    return None


def _from_list(tools: list[Any], where: str) -> Schemas:
    out: dict[str, Any] = {}
    shapes: set[str] = set()
    notes: list[str] = []
    for number, tool in enumerate(tools):
        at = f"{where}[{number}]"
        if not isinstance(tool, dict):
            raise InputError(f"{at} is {_type(tool)}, not an object")
        shape = next((s for s in TOOL_SHAPES if s.claims(tool)), None)
        if shape is None:
            raise InputError(
                f"{at} is not a tool definition this importer knows"
                f" (keys: {', '.join(sorted(str(k) for k in tool)[:8])})"
            )
        read = shape.read(tool, at)
        notes.extend(f"{at}: {note}; skipped" for note in read.skipped)
        if read.tools:
            shapes.add(shape.name)
        for name, schema in read.tools:
            if name in out:
                raise InputError(f"{at}: tool {_clip(name)} is defined twice")
            out[name] = schema
    if len(shapes) > 1:
        raise InputError(f"{where} mixes tool shapes: {', '.join(sorted(shapes))}")
    shape_name = next(iter(shapes)) if shapes else "empty"
    return Schemas(schemas=out, shape=f"{shape_name} tools list", notes=notes)


# -- one function per provider shape ---------------------------------------------


def _bedrock(tool: dict[str, Any], at: str) -> Read:
    if "cachePoint" in tool:
        return Read([], ["a cachePoint has no client schema"])
    if "systemTool" in tool:
        return Read([], ["a Bedrock systemTool has no client schema"])
    spec = tool["toolSpec"]
    if not isinstance(spec, dict):
        raise InputError(f"{at}.toolSpec is {_type(spec)}, not an object")
    name = _name(spec.get("name"), f"{at}.toolSpec.name")
    input_schema = spec.get("inputSchema")
    if not isinstance(input_schema, dict) or "json" not in input_schema:
        raise InputError(f"{at}.toolSpec.inputSchema has no 'json' schema")
    return Read([(name, _schema(input_schema["json"], f"{at}.toolSpec.inputSchema.json"))])


def _is_bedrock(tool: dict[str, Any]) -> bool:
    return "toolSpec" in tool or "cachePoint" in tool or "systemTool" in tool


_GEMINI_DECLARATIONS = ("functionDeclarations", "function_declarations")


def _is_gemini(tool: dict[str, Any]) -> bool:
    return "type" not in tool and any(
        k in _GEMINI_DECLARATIONS or k in GEMINI_BUILTIN_TOOLS for k in tool
    )


def _gemini(tool: dict[str, Any], at: str) -> Read:
    out: list[tuple[str, Any]] = []
    skipped: list[str] = []
    for key, value in tool.items():
        if key in GEMINI_BUILTIN_TOOLS:
            skipped.append(
                f"the Gemini built-in tool {_clip(key)} is provider-run: no client schema"
            )
            continue
        if key not in _GEMINI_DECLARATIONS:
            raise InputError(f"{at}: a Gemini tool with the unknown member {_clip(key)}")
        if not isinstance(value, list):
            raise InputError(f"{at}.{key} is {_type(value)}, not a list")
        for number, declaration in enumerate(value):
            where = f"{at}.{key}[{number}]"
            if not isinstance(declaration, dict):
                raise InputError(f"{where} is {_type(declaration)}, not an object")
            out.append(_gemini_declaration(declaration, where))
    return Read(out, skipped)


def _gemini_declaration(declaration: dict[str, Any], at: str) -> tuple[str, Any]:
    name = _name(declaration.get("name"), f"{at}.name")
    json_keys = [k for k in ("parametersJsonSchema", "parameters_json_schema") if k in declaration]
    if len(json_keys) > 1 or (json_keys and "parameters" in declaration):
        raise InputError(f"{at}: more than one of parameters / parametersJsonSchema")
    if json_keys:
        return name, _schema(declaration[json_keys[0]], f"{at}.{json_keys[0]}")
    if declaration.get("parameters") is None:
        return name, dict(NO_PARAMETERS)
    return name, gemini_schema(declaration["parameters"], f"{at}.parameters")


def _is_openai_chat(tool: dict[str, Any]) -> bool:
    return tool.get("type") == "function" and "function" in tool


def _openai_chat(tool: dict[str, Any], at: str) -> Read:
    function = tool["function"]
    if not isinstance(function, dict):
        raise InputError(f"{at}.function is {_type(function)}, not an object")
    name = _name(function.get("name"), f"{at}.function.name")
    return Read([(name, _parameters(function.get("parameters"), f"{at}.function"))])


def _openai_responses(tool: dict[str, Any], at: str) -> Read:
    name = _name(tool.get("name"), f"{at}.name")
    return Read([(name, _parameters(tool.get("parameters"), at))])


def _anthropic(tool: dict[str, Any], at: str) -> Read:
    kind = tool.get("type")
    if kind not in (None, "custom"):
        raise InputError(f"{at}: an Anthropic tool of type {_clip(kind)} with an input_schema")
    name = _name(tool.get("name"), f"{at}.name")
    return Read([(name, _schema(tool["input_schema"], f"{at}.input_schema"))])


def _cohere_v1(tool: dict[str, Any], at: str) -> Read:
    raise InputError(
        f"{at}: Cohere v1 parameter_definitions are not JSON Schema and are not converted;"
        " pass --schemas with the tools as JSON Schema"
    )


def _provider_run(tool: dict[str, Any], at: str) -> Read:
    name = tool.get("name")
    label = f" {_clip(name)}" if isinstance(name, str) else ""
    return Read(
        [], [f"a provider-run tool of type {_clip(tool.get('type'))}{label} has no client schema"]
    )


TOOL_SHAPES: tuple[ToolShape, ...] = (
    ToolShape("Bedrock", _is_bedrock, _bedrock),
    ToolShape("Gemini", _is_gemini, _gemini),
    ToolShape("OpenAI chat", _is_openai_chat, _openai_chat),
    ToolShape("OpenAI Responses", lambda t: t.get("type") == "function", _openai_responses),
    ToolShape("Anthropic", lambda t: "input_schema" in t, _anthropic),
    ToolShape("Cohere v1", lambda t: "parameter_definitions" in t, _cohere_v1),
    # Anthropic server tools (web_search_20250305...), Responses built-ins
    # (web_search, file_search, mcp, code_interpreter...).
    ToolShape(
        "provider-run",
        lambda t: isinstance(t.get("type"), str) and t["type"] not in ("function", "custom"),
        _provider_run,
    ),
)
"""Tools-list entry shapes, tried in order; the first that claims an entry reads it."""


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


def request_fields(document: Any) -> dict[str, Any]:
    """The fields of a request body the validator uses (``tool_choice``)."""
    if not isinstance(document, Mapping):
        raise InputError("expected the request body (a JSON object), got " + _type(document))
    out: dict[str, Any] = {}
    if "tool_choice" in document:
        out["tool_choice"] = document["tool_choice"]
    for key in ("toolConfig", "tool_config"):
        config = document.get(key)
        if not isinstance(config, Mapping):
            continue
        kept = {
            k: config[k]
            for k in ("toolChoice", "functionCallingConfig", "function_calling_config")
            if k in config
        }
        if kept:
            out[key] = kept
    return out


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
