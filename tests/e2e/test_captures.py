"""Every real recorded stream in ``../shared/captures`` (not ours: read from
there, never copied) imported with ``toolstream import`` and judged.

Each expected verdict was worked out by reading the stream (see MANIFEST.md
there), not by running the validator, and carries the reason.  The tool
schemas are ours (``tests/capture_schemas/``), written from the arguments as
seen or from the source project's test that made the recording; they are
given in the shape the request would have sent them, so that every
``--schemas`` shape is exercised on real data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toolstream
from toolstream.capture import read_capture
from toolstream.cli import cli
from toolstream.importer import open_container

HERE = Path(__file__).resolve().parent
CAPTURES = Path(__file__).resolve().parents[2].parent / "shared" / "captures"
SCHEMAS = HERE.parent / "capture_schemas"
needs_captures = pytest.mark.skipif(
    not CAPTURES.is_dir(), reason=f"real captures not available ({CAPTURES} is absent)"
)
PASS: tuple[str, tuple[str, ...]] = ("pass", ())


@dataclass(frozen=True)
class Case:
    capture: str
    schemas: str | None
    profile: str
    turns: tuple[tuple[str, tuple[str, ...]], ...]
    """(status, codes) per assistant turn, in order."""
    reason: str
    calls: tuple[tuple[str, ...], ...] = ()
    """Client tool names per turn (checked when given)."""
    server: tuple[str, ...] = ()
    """Provider-run tools: reported, never executable."""
    redact: bool = False
    """The capture holds something the redaction gate refuses to write."""
    extra: dict[str, Any] = field(default_factory=dict)
    refused: str = ""
    """Today's import refuses the file with this message (no fixture written)."""
    pending: str = ""
    """The open issue whose work is expected to change this case's verdict."""
    dialects: tuple[str, ...] = ()
    """The reviewed dialects (docs/dialects.md) the stream uses, per turn alike."""


_OPENROUTER_CHAT = (
    "openrouter_chat_usage_cost",
    "openrouter_chat_usage_cost_details",
    "openrouter_chat_usage_is_byok",
    "openrouter_native_finish_reason",
    "openrouter_provider",
)
"""What OpenRouter's chat streams of the cassettes carry: its usage
accounting, the upstream provider and its finish reason."""

CASES = [
    # -- Anthropic Messages -------------------------------------------------------------------
    Case(
        "anthropic/mirascope-claude-sonnet-4-beta-parallel2-with-text.sse",
        "anthropic/mirascope-claude-sonnet-4-beta-parallel2-with-text.json",
        "anthropic",
        (PASS,),
        "text block, then two complete tool_use blocks (index 1, 2) and stop_reason tool_use;"
        " the password values in the split arguments are credentials to the gate, so --redact",
        calls=(("secret_retrieval_tool", "secret_retrieval_tool"),),
        redact=True,
    ),
    Case(
        "anthropic/mirascope-claude-sonnet-4-parallel2-with-text.sse",
        "anthropic/mirascope-claude-sonnet-4-parallel2-with-text.json",
        "anthropic",
        (PASS,),
        "same shape recorded independently: text, two complete tool_use blocks, tool_use, stop",
        calls=(("secret_retrieval_tool", "secret_retrieval_tool"),),
        redact=True,
    ),
    Case(
        "anthropic/openinference-claude-sonnet-4-6-parallel2-weather-time.sse",
        "anthropic/openinference-claude-sonnet-4-6-parallel2-weather-time.json",
        "anthropic",
        (PASS,),
        "two complete tool_use blocks for two different tools after a text block; tool_use stop",
        calls=(("get_weather", "get_time"),),
    ),
    Case(
        "anthropic/pydai-anthropic-native-tool-search-streaming.sse",
        "anthropic/pydai-anthropic-native-tool-search-streaming.json",
        "anthropic",
        (PASS,),
        "server_tool_use (tool search) and its result are the provider's; the one client"
        " tool_use (get_exchange_rate) is complete and the message stops for tool_use",
        calls=(("get_exchange_rate",),),
        server=("tool_search_tool_bm25",),
    ),
    Case(
        "anthropic/sdkpy-incomplete_partial_json_max_tokens.sse",
        "anthropic/sdkpy-incomplete_partial_json_max_tokens.json",
        "anthropic",
        (("blocked", ("missing_terminal", "wrong_terminal_reason")),),
        "max_tokens cut the make_file input mid-string: no content_block_stop for block 1,"
        " and stop_reason max_tokens does not mean 'run the tool'",
    ),
    Case(
        "anthropic/sdkpy-tool_use_response.sse",
        "anthropic/sdkpy-tool_use_response.json",
        "anthropic",
        (PASS,),
        "text then a complete get_weather block, tool_use stop; the file ends without a newline"
        " after message_stop, which is still read",
        calls=(("get_weather",),),
    ),
    Case(
        "anthropic/sdkpy-toolrunner-555fb399.sse",
        "anthropic/sdkpy-toolrunner-555fb399.json",
        "anthropic",
        (PASS,),
        "a tool_use block first (no text), input split in 10 fine fragments, tool_use stop",
        calls=(("get_weather",),),
    ),
    Case(
        "anthropic/vercel-anthropic-issue-15652-parallel3.jsonl",
        "anthropic/vercel-anthropic-issue-15652-parallel3.json",
        "anthropic",
        (PASS,),
        "three complete searchDocs blocks at index 0, 1, 2; tool_use stop",
        calls=(("searchDocs", "searchDocs", "searchDocs"),),
    ),
    Case(
        "anthropic/vercel-anthropic-json-tool.2.jsonl",
        "anthropic/vercel-anthropic-json-tool.2.json",
        "anthropic",
        (PASS,),
        "text then a complete 'json' tool block (vercel's structured-output tool); tool_use stop",
        calls=(("json",),),
    ),
    Case(
        "anthropic/vercel-anthropic-mcp.1.jsonl",
        "anthropic/vercel-anthropic-mcp.1.json",
        "anthropic",
        (("not_applicable", ()),),
        "the only call is an mcp_tool_use the server ran (its mcp_tool_result follows), then"
        " text and end_turn: nothing for the client to execute",
        calls=((),),
        server=("echo",),
    ),
    Case(
        "anthropic/vercel-anthropic-tool-no-args.jsonl",
        "anthropic/vercel-anthropic-tool-no-args.json",
        "anthropic",
        (PASS,),
        "updateIssueList's start input {} stands: its only delta is empty; tool_use stop",
        calls=(("updateIssueList",),),
        extra={"arguments": "{}"},
    ),
    # -- Bedrock ConverseStream -----------------------------------------------------------------
    Case(
        "bedrock/openllmetry-bedrock-claude-converse-stream-tooluse.eventstream.bin",
        "bedrock/openllmetry-bedrock-claude-converse-stream-tooluse.json",
        "bedrock",
        (PASS,),
        "text block without a start event, then toolUse get_weather in 5 fragments (the first"
        " empty), contentBlockStop, stopReason tool_use; all frame CRCs valid",
        calls=(("get_weather",),),
    ),
    Case(
        "bedrock/openllmetry-bedrock-claude-converse-stream-tooluse.decoded.jsonl",
        "bedrock/openllmetry-bedrock-claude-converse-stream-tooluse.json",
        "bedrock",
        (PASS,),
        "the same frames decoded to {headers, payload} lines: same events, same verdict",
        calls=(("get_weather",),),
    ),
    Case(
        "bedrock/pydai-bedrock-nova-micro-iter-stream-tooluse.eventstream.bin",
        "bedrock/pydai-bedrock-nova-micro-iter-stream-tooluse.json",
        "bedrock",
        (PASS,),
        "Nova: text (no start event), then toolUse get_temperature whole in one delta, stop,"
        " tool_use; padding fields on every event",
        calls=(("get_temperature",),),
    ),
    Case(
        "bedrock/pydai-bedrock-nova-micro-iter-stream-tooluse.decoded.jsonl",
        "bedrock/pydai-bedrock-nova-micro-iter-stream-tooluse.json",
        "bedrock",
        (PASS,),
        "the same frames decoded: same events, same verdict",
        calls=(("get_temperature",),),
    ),
    Case(
        "bedrock/vercel-bedrock-redacted-reasoning-tooluse.jsonl",
        "bedrock/vercel-bedrock-redacted-reasoning-tooluse.json",
        "bedrock",
        (PASS,),
        "a redacted reasoning block (no start), then toolUse propose in 26 tiny fragments,"
        " stop, tool_use",
        calls=(("propose",),),
    ),
    # -- Mistral --------------------------------------------------------------------------------
    Case(
        "mistral/llm-mistral-large-tool-call-single-chunk.sse",
        "mistral/llm-mistral-large-tool-call-single-chunk.json",
        "mistral",
        (PASS,),
        "the whole llm_version call ('{}', index 0) arrives with finish_reason tool_calls; the"
        " model field says Mistral; [DONE] without a trailing blank line",
        calls=(("llm_version",),),
    ),
    Case(
        "mistral/openinference-mistral-small-tool-call-2024-08.sse",
        "mistral/openinference-mistral-small-tool-call-2024-08.json",
        "mistral",
        (PASS,),
        "Mistral whole-call form: no index, no type, same chunk as finish_reason tool_calls",
        calls=(("get_weather",),),
    ),
    Case(
        "mistral/vercel-mistral-tool-call.jsonl",
        "mistral/vercel-mistral-tool-call.json",
        "mistral",
        (PASS,),
        "whole call without index in the finish chunk; location given as vercel's tool requires",
        calls=(("weather",),),
    ),
    # -- OpenAI Chat Completions ----------------------------------------------------------------
    Case(
        "openai-chat/openaipy-parallel-2tools-gpt4o-2024-08.sse",
        "openai-chat/openaipy-parallel-2tools-gpt4o-2024-08.json",
        "openai",
        (PASS,),
        "index 0 streamed to its end, then index 1; finish_reason tool_calls, usage chunk after",
        calls=(("GetWeatherArgs", "get_stock_price"),),
    ),
    Case(
        "openai-chat/openaipy-parallel-2tools-gpt4o-so.sse",
        "openai-chat/openaipy-parallel-2tools-gpt4o-so.json",
        "openai",
        (PASS,),
        "the same two calls recorded on the pre-release model; same layout",
        calls=(("GetWeatherArgs", "get_stock_price"),),
    ),
    Case(
        "openai-chat/openaipy-single-GetWeatherArgs-strict.sse",
        "openai-chat/openaipy-single-GetWeatherArgs-strict.json",
        "openai",
        (PASS,),
        "one strict call in 15 fragments; every required field present; tool_calls",
        calls=(("GetWeatherArgs",),),
    ),
    Case(
        "openai-chat/openaipy-single-get_weather.sse",
        "openai-chat/openaipy-single-get_weather.json",
        "openai",
        (PASS,),
        "role and the call's identity in the first chunk, arguments after; tool_calls",
        calls=(("get_weather",),),
    ),
    Case(
        "openai-chat/openllmetry-gpt35-turbo-parallel2-2024-07.sse",
        "openai-chat/openllmetry-gpt35-turbo-parallel2-2024-07.json",
        "openai",
        (PASS,),
        "two get_current_weather calls (index 0, 1), finish_reason tool_calls, no usage chunk",
        calls=(("get_current_weather", "get_current_weather"),),
    ),
    Case(
        "openai-chat/pydai-prefect-complex-agent-parallel-weather-product.sse",
        "openai-chat/pydai-prefect-complex-agent-parallel-weather-product.json",
        "openai",
        (PASS,),
        "get_weather in 6 fragments and get_product_name with '{}'; tool_calls",
        calls=(("get_weather", "get_product_name"),),
    ),
    Case(
        "openai-chat/pydai-temporal-complex-agent-final_result-long-args.sse",
        "openai-chat/pydai-temporal-complex-agent-final_result-long-args.json",
        "openai",
        (PASS,),
        "final_result's nested arguments in 54 fragments reassemble to valid JSON; tool_calls",
        calls=(("final_result",),),
    ),
    Case(
        "openai-chat/simonw-llm-gpt4o-mini-tool-use-basic.sse",
        "openai-chat/simonw-llm-gpt4o-mini-tool-use-basic.json",
        "openai",
        (PASS,),
        "multiply with two integers; finish_reason tool_calls, usage-only chunk after",
        calls=(("multiply",),),
    ),
    # -- OpenAI-compatible vendors --------------------------------------------------------------
    Case(
        "openai-compatible/simonw-llm-openrouter-kimi-k2-variant-b-args-complete-first.sse",
        "openai-compatible/simonw-llm-openrouter-kimi-k2-variant-b-args-complete-first.json",
        "openai",
        (("blocked", ("missing_terminal",)),),
        "the call's '{}' parses, but no chunk ever carries a finish_reason (only [DONE] ends the"
        " body): nothing says the call is final; OpenRouter's provider and native_finish_reason"
        " are read as their dialects",
        calls=(("llm_version",),),
        dialects=_OPENROUTER_CHAT,
    ),
    Case(
        "openai-compatible/simonw-llm-openrouter-kimi-k2-variant-c.sse",
        "openai-compatible/simonw-llm-openrouter-kimi-k2-variant-c.json",
        "openai",
        (PASS,),
        "id+name in one chunk, arguments '{}' in the next, finish_reason tool_calls; the first"
        " line (' data:') is ignored, and it was only a role-only chunk (checked below);"
        " OpenRouter's provider and native_finish_reason are read as their dialects",
        calls=(("llm_version",),),
        dialects=_OPENROUTER_CHAT,
    ),
    Case(
        "openai-compatible/vercel-deepseek-reasoner-tool-call.jsonl",
        "openai-compatible/vercel-deepseek-reasoner-tool-call.json",
        "openai",
        (PASS,),
        "reasoning_content deltas, then weather in 11 fragments; finish_reason tool_calls;"
        " DeepSeek's cache counts in usage",
        calls=(("weather",),),
        dialects=(
            "deepseek_prompt_cache_hit_tokens",
            "deepseek_prompt_cache_miss_tokens",
            "reasoning_content",
        ),
    ),
    Case(
        "openai-compatible/vercel-groq-tool-call.jsonl",
        "openai-compatible/vercel-groq-tool-call.json",
        "openai",
        (("blocked", ("schema_violation",)),),
        "a well-formed stream, but the model called weather with {} and vercel's example"
        " weather tool requires location (the xai and mistral recordings of it fill it);"
        " its x_groq, on chunks with choices, is read as the groq dialect, and the timings in"
        " its usage as theirs",
        calls=(("weather",),),
        dialects=(
            "groq",
            "groq_usage_completion_time",
            "groq_usage_prompt_time",
            "groq_usage_queue_time",
            "groq_usage_total_time",
        ),
    ),
    Case(
        "openai-compatible/vercel-xai-grok-tool-call.jsonl",
        "openai-compatible/vercel-xai-grok-tool-call.json",
        "openai",
        (PASS,),
        "reasoning deltas, then the whole call in one chunk, finish_reason tool_calls; xAI's"
        " search-source count and cost in usage",
        calls=(("weather",),),
        dialects=("reasoning_content", "xai_cost_in_usd_ticks", "xai_num_sources_used"),
    ),
    # -- OpenAI Responses -----------------------------------------------------------------------
    Case(
        "openai-responses/pydai-responses-stream-get_capital.sse",
        "openai-responses/pydai-responses-stream-get_capital.json",
        "openai-responses",
        (PASS,),
        "function_call item, 5 deltas, arguments.done and output_item.done restate them"
        " exactly, response.completed",
        calls=(("get_capital",),),
    ),
    Case(
        "openai-responses/pydai-responses-reasoning-message-function_call.sse",
        "openai-responses/pydai-responses-reasoning-message-function_call.json",
        "openai-responses",
        (PASS,),
        "reasoning (0) and commentary message (1) items, then a complete function_call at"
        " output_index 2; response.completed",
        calls=(("get_capital",),),
    ),
    Case(
        "openai-responses/simonw-llm-gpt55-responses-tool-use-streaming.sse",
        "openai-responses/simonw-llm-gpt55-responses-tool-use-streaming.json",
        "openai-responses",
        (PASS,),
        "multiply in 11 deltas restated exactly; response.completed",
        calls=(("multiply",),),
    ),
    Case(
        "openai-responses/vercel-openai-reasoning-encrypted-content.1.jsonl",
        "openai-responses/vercel-openai-reasoning-encrypted-content.1.json",
        "openai-responses",
        (PASS, PASS, PASS, ("not_applicable", ())),
        "four responses back to back: three agent steps each end with one complete calculator"
        " call and response.completed; the fourth is the final text answer",
        calls=(("calculator",), ("calculator",), ("calculator",), ()),
    ),
    # -- Bedrock ConverseStream, recorded through a VCR cassette ----------------------------------
    Case(
        "bedrock/openinference-py-bedrock-claude-3-haiku-converse-stream.eventstream.bin",
        "bedrock/openinference-py-bedrock-claude-3-haiku-converse-stream.json",
        "bedrock",
        (PASS,),
        "toolUse is block 0 (no text), first input delta '', every payload padded with a 'p'"
        " field; contentBlockStop, messageStop tool_use, metadata",
        calls=(("top_song",),),
    ),
    Case(
        "bedrock/openinference-py-bedrock-claude-3-haiku-converse-stream.decoded.jsonl",
        "bedrock/openinference-py-bedrock-claude-3-haiku-converse-stream.json",
        "bedrock",
        (PASS,),
        "the same frames as decoded JSON Lines",
        calls=(("top_song",),),
    ),
    # -- Not read yet: each of these is a case the open issues change ---------------------------
    Case(
        "bedrock/openinference-py-bedrock-claude-3-haiku-converse-stream.cassette.yaml",
        None,
        "bedrock",
        (PASS,),
        "a whole VCR cassette: the request's toolConfig declares top_song, the !!binary body is"
        " the event-stream above; imported with no --schemas, the recorded tool validates it",
        calls=(("top_song",),),
    ),
    Case(
        "google/pydai-gemini-3-pro-thought-signature.cassette.yaml",
        None,
        "gemini",
        (PASS, ("not_applicable", ())),
        "a whole VCR cassette (Gemini functionDeclarations with parameters_json_schema, two"
        " interactions): each request's get_country tool converts; interaction 0 calls it"
        " with args {} (thoughtSignature), then text '' + STOP; interaction 1 is the text"
        " answer after the tool result",
        calls=(("get_country",), ()),
    ),
    # -- Gemini / Vertex AI streamGenerateContent ----------------------------------------------
    # The schema files are in the OpenAI tools shape; the request's own Gemini
    # functionDeclarations shape is read from the cassette above.
    Case(
        "google/openinference-gemini-3.5-flash-parallel2-ids.sse",
        "google/openinference-gemini-3.5-flash-parallel2-ids.json",
        "gemini",
        (PASS,),
        "Gemini SSE with two whole functionCall parts carrying ids (dv8szvqe, j80tal12), one"
        " per chunk, thoughtSignature on the first only; the finish chunk is text '' + STOP,"
        " the one reason that executes calls",
        calls=(("get_weather", "get_weather"),),
    ),
    Case(
        "google/pydai-gemini-3-pro-thought-signature-no-args.sse",
        "google/pydai-gemini-3-pro-thought-signature-no-args.json",
        "gemini",
        (PASS,),
        "Gemini SSE (CRLF CRLF separators): one whole get_country call with args {} and no"
        " id (identity by position), then text '' + STOP",
        calls=(("get_country",),),
        extra={"arguments": "{}"},
    ),
    Case(
        "google/vercel-google-stream-tool-call-arguments-parallel2.jsonl",
        "google/vercel-google-stream-tool-call-arguments-parallel2.json",
        "gemini",
        (PASS,),
        "Vertex streamed partialArgs: two getWeather calls, each opened by a name part with"
        " willContinue; $.location is 'Boston' (willContinue) then '' (ends the string);"
        " an empty functionCall part ends each call, the last riding on STOP",
        calls=(("getWeather", "getWeather"),),
    ),
    # -- Cohere v2 chat stream ----------------------------------------------------------------
    Case(
        "cohere/vercel-cohere-tool-call-parallel2.jsonl",
        "cohere/vercel-cohere-tool-call-parallel2.json",
        "cohere",
        (PASS,),
        "Cohere v2: 28 tool-plan deltas, two calls (tool-call-start with arguments '', deltas,"
        " tool-call-end at index 0 then 1), message-end TOOL_CALL",
        calls=(("weather", "cityAttractions"),),
    ),
]


def _files() -> list[str]:
    if not CAPTURES.is_dir():
        return []
    return sorted(
        p.relative_to(CAPTURES).as_posix()
        for p in CAPTURES.rglob("*")
        if p.is_file() and p.name != "MANIFEST.md"
    )


@needs_captures
def test_every_capture_has_a_case() -> None:
    assert sorted(c.capture for c in CASES) == _files()


def test_every_schema_file_is_used() -> None:
    used = {c.schemas for c in CASES if c.schemas is not None}
    present = {p.relative_to(SCHEMAS).as_posix() for p in SCHEMAS.rglob("*.json")}
    assert used == present


def _import(tmp_path: Path, case: Case, *extra: str) -> Any:
    out = tmp_path / "out"
    args = ["import", str(CAPTURES / case.capture)]
    if case.schemas is not None:
        args += ["--schemas", str(SCHEMAS / case.schemas)]
    return CliRunner(env={"NO_COLOR": "1", "COLUMNS": "250"}).invoke(
        cli, [*args, *extra, "-o", f"{out}/"]
    ), out


@needs_captures
@pytest.mark.parametrize("case", CASES, ids=[c.capture for c in CASES])
def test_capture_gets_the_verdict_it_deserves(tmp_path: Path, case: Case) -> None:
    if case.refused:
        # Today's honest answer, asserted so that a change is seen: the file is refused
        # with a one-line reason and nothing is written.  See ``case.pending``.
        refused, out = _import(tmp_path, case)
        assert refused.exit_code != 0, refused.output
        assert case.refused in refused.output, refused.output
        assert "Traceback" not in refused.output
        assert not out.exists() or not any(out.iterdir())
        return
    if case.redact:
        refused, out = _import(tmp_path, case)
        assert refused.exit_code == 1, refused.output
        assert not out.exists()
        result, out = _import(tmp_path, case, "--redact")
    else:
        result, out = _import(tmp_path, case)
    assert result.exit_code == 0, result.output
    files = sorted(out.iterdir())
    assert len(files) == len(case.turns), case.reason
    for number, (path, (status, codes)) in enumerate(zip(files, case.turns, strict=True)):
        fixture = json.loads(path.read_bytes())
        assert fixture["meta"]["profile"] == case.profile, case.reason
        report = toolstream.validate_bytes(path.read_bytes())
        assert (report.status, tuple(report.codes)) == (status, codes), (
            f"{case.reason}\n{report.to_json()}"
        )
        assert report.dialects == case.dialects, case.reason
        clients = tuple(c.name for c in report.client_calls())
        if case.calls:
            assert clients == case.calls[number], case.reason
        if status == "pass":
            assert all(c.validated for c in report.client_calls())
        servers = [c for c in report.calls if c.kind == "server"]
        assert tuple(c.name for c in servers) == case.server
        assert not any(c.validated for c in servers), "a provider-run tool is never executable"
        if "arguments" in case.extra:
            assert [c.arguments for c in report.client_calls()] == [case.extra["arguments"]]


@needs_captures
def test_nothing_is_dropped(tmp_path: Path) -> None:
    """Every event of every capture is in its fixtures, in order; [DONE]
    markers are counted, not written."""
    for case in CASES:
        if case.refused:
            continue
        data = (CAPTURES / case.capture).read_bytes()
        container = open_container(data)  # a cassette: its streamed bodies
        bodies = [i.response for i in container.interactions] if container else [data]
        captures = [read_capture(body) for body in bodies]
        result, out = _import(tmp_path / case.capture.replace("/", "_"), case, "--redact")
        assert result.exit_code == 0, result.output
        fixtures = [json.loads(p.read_bytes()) for p in sorted(out.iterdir())]
        written = sum(len(f.get("events", f.get("chunks", []))) for f in fixtures)
        events = [r for c in captures for r in c.records if r.kind == "json" or c.format != "sse"]
        assert written == len(events), case.capture
        done = sum(c.done_markers for c in captures)
        assert sum(f["meta"]["done_markers"] for f in fixtures) == done


@needs_captures
def test_kimi_variant_c_loses_only_a_role_chunk() -> None:
    """The body starts with ' data:' (a space before the field name): SSE
    readers, ours included, ignore that line.  What it held: the role-only
    first chunk, no tool call and no finish reason, so the verdict cannot
    depend on it."""
    raw = (CAPTURES / "openai-compatible/simonw-llm-openrouter-kimi-k2-variant-c.sse").read_text()
    first, _, _ = raw.partition("\n")
    assert first.startswith(" data: ")
    chunk = json.loads(first[len(" data: ") :])
    (choice,) = chunk["choices"]
    assert choice["delta"] == {"role": "assistant", "content": ""}
    assert choice["finish_reason"] is None
    capture = read_capture(raw.encode())
    assert capture.warnings and "line 1" in capture.warnings[0]
    assert all(r.payload != chunk for r in capture.records)


@needs_captures
def test_eventstream_and_decoded_captures_agree(tmp_path: Path) -> None:
    for stem in (
        "bedrock/openllmetry-bedrock-claude-converse-stream-tooluse",
        "bedrock/pydai-bedrock-nova-micro-iter-stream-tooluse",
        "bedrock/openinference-py-bedrock-claude-3-haiku-converse-stream",
    ):
        events = []
        for suffix in (".eventstream.bin", ".decoded.jsonl"):
            case = next(c for c in CASES if c.capture == stem + suffix)
            result, out = _import(tmp_path / case.capture.replace("/", "_"), case)
            assert result.exit_code == 0
            (path,) = out.iterdir()
            events.append(json.loads(path.read_bytes())["events"])
        assert events[0] == events[1]


@needs_captures
def test_secrets_never_reach_the_output(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.redact)
    refused, _ = _import(tmp_path, case)
    assert "password" in refused.stderr
    assert "mellon" not in refused.output and "radiance" not in refused.output
    result, out = _import(tmp_path, case, "--redact")
    assert result.exit_code == 0
    (path,) = out.iterdir()
    text = path.read_text(encoding="ascii")
    assert "mellon" not in text and "radiance" not in text
    assert json.loads(text)["meta"]["redactions"]
