"""The members the ``bedrock`` profile knows on the objects of a
ConverseStream stream that carry no call, by the object's path (the path an
unknown member's finding names).

``metadata`` (token usage, latency, the guardrail and prompt-router traces,
the performance configuration and service tier of the request) comes after
the turn's end and carries no call's id, name or input; the deltas of the
blocks that carry no call (reasoning, citations, images, tool results of a
server tool) carry none either.  Their members are known and ignored.  A
member outside its object's set blocks the turn (no reviewed ``bedrock``
dialect exists yet).  What carries a call (``contentBlockStart.start.toolUse``,
``contentBlockDelta.delta.toolUse``) and the events around it are closed in
``bedrock.py`` itself.

Source of every set: the Bedrock Runtime API reference
(https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html,
``ConverseStreamMetadataEvent`` and the shapes it names) as botocore 1.44.8
spells it (``botocore/data/bedrock-runtime/2023-09-30/service-2.json``:
``ConverseStreamMetadataEvent``, ``TokenUsage``, ``CacheDetail``,
``ConverseStreamMetrics``, ``ConverseStreamTrace``,
``GuardrailTraceAssessment``, ``PromptRouterTrace``,
``PerformanceConfiguration``, ``ServiceTier``,
``ReasoningContentBlockDelta``, ``CitationsDelta``, ``ImageBlockDelta``,
``ToolResultBlockDelta``); ``p`` is the event-stream padding every event may
carry.  ``usage.serverToolUsage`` is not in botocore's ``TokenUsage`` (nor in
its newest service JSON, 2026-08), but Bedrock sends it: traceloop/openllmetry
``packages/opentelemetry-instrumentation-bedrock/tests/traces/cassettes/
test_anthropic/test_anthropic_converse_stream_with_tool_use.yaml`` and vercel/ai
``packages/amazon-bedrock/src/__fixtures__/amazon-bedrock-redacted-content.chunks.txt``
(both ``"serverToolUsage": {}``): it is closed with no member known, so a
member inside it blocks until reviewed.  The objects inside the non-call
deltas and block starts, and the entries of ``metadata``'s arrays, are
closed too (``INNER_LEVELS``); an object below them at a path no table
lists blocks.
"""

from __future__ import annotations

METADATA_LEVELS: dict[str, frozenset[str]] = {
    # ConverseStreamMetadataEvent
    "metadata": frozenset({"usage", "metrics", "trace", "performanceConfig", "serviceTier", "p"}),
    # TokenUsage (serverToolUsage: recorded, above; cacheDetails: INNER_LEVELS)
    "metadata.usage": frozenset(
        {
            "inputTokens",
            "outputTokens",
            "totalTokens",
            "cacheReadInputTokens",
            "cacheWriteInputTokens",
            "cacheDetails",
            "serverToolUsage",
        }
    ),
    # ConverseStreamMetrics
    "metadata.metrics": frozenset({"latencyMs"}),
    # ConverseStreamTrace
    "metadata.trace": frozenset({"guardrail", "promptRouter"}),
    # GuardrailTraceAssessment
    "metadata.trace.guardrail": frozenset(
        {"modelOutput", "inputAssessment", "outputAssessments", "actionReason"}
    ),
    # PromptRouterTrace
    "metadata.trace.promptRouter": frozenset({"invokedModelId"}),
    # PerformanceConfiguration
    "metadata.performanceConfig": frozenset({"latency"}),
    # ServiceTier
    "metadata.serviceTier": frozenset({"type"}),
    # (recorded as {} and in no public type: nothing known inside it)
    "metadata.usage.serverToolUsage": frozenset(),
}
"""Object path -> the members the profile knows there."""

METADATA_NESTED: dict[str, tuple[str, ...]] = {
    "metadata": ("usage", "metrics", "trace", "performanceConfig", "serviceTier"),
    "metadata.trace": ("guardrail", "promptRouter"),
    "metadata.usage": ("serverToolUsage",),
}
"""Object path -> its members that are closed objects."""

DELTA_LEVELS: dict[str, frozenset[str]] = {
    # ReasoningContentBlockDelta
    "contentBlockDelta.delta.reasoningContent": frozenset({"text", "redactedContent", "signature"}),
    # CitationsDelta
    "contentBlockDelta.delta.citation": frozenset({"title", "source", "sourceContent", "location"}),
    # ImageBlockDelta
    "contentBlockDelta.delta.image": frozenset({"source", "error"}),
    # ToolResultBlockDelta (each entry of the delta's toolResult array)
    "contentBlockDelta.delta.toolResult[]": frozenset({"text", "json"}),
}
"""The delta objects of the blocks that carry no call: path -> members
(``text`` is a string, the other text-like delta)."""

_LOCATION_RANGE = frozenset({"documentIndex", "start", "end"})

INNER_LEVELS: dict[str, frozenset[str]] = {
    # CitationSourceContentDelta (each entry of a citation's sourceContent)
    "contentBlockDelta.delta.citation.sourceContent[]": frozenset({"text"}),
    # CitationLocation, a union by member, and its variants
    "contentBlockDelta.delta.citation.location": frozenset(
        {"web", "documentChar", "documentPage", "documentChunk", "searchResultLocation"}
    ),
    "contentBlockDelta.delta.citation.location.web": frozenset({"url", "domain"}),
    "contentBlockDelta.delta.citation.location.documentChar": _LOCATION_RANGE,
    "contentBlockDelta.delta.citation.location.documentPage": _LOCATION_RANGE,
    "contentBlockDelta.delta.citation.location.documentChunk": _LOCATION_RANGE,
    "contentBlockDelta.delta.citation.location.searchResultLocation": frozenset(
        {"searchResultIndex", "start", "end"}
    ),
    # ImageSource (a union by member: bytes, s3Location), S3Location, ErrorBlock
    "contentBlockDelta.delta.image.source": frozenset({"bytes", "s3Location"}),
    "contentBlockDelta.delta.image.source.s3Location": frozenset({"uri", "bucketOwner"}),
    "contentBlockDelta.delta.image.error": frozenset({"message"}),
    # ContentBlockStart's variants that open a block without a call:
    # ToolResultBlockStart, ImageBlockStart; a reasoning block's start is in
    # no botocore shape (nothing known inside it: any member blocks)
    "contentBlockStart.start.toolResult": frozenset({"toolUseId", "type", "status"}),
    "contentBlockStart.start.image": frozenset({"format"}),
    "contentBlockStart.start.reasoningContent": frozenset(),
    # CacheDetail (each entry of TokenUsage.cacheDetails)
    "metadata.usage.cacheDetails[]": frozenset({"ttl", "inputTokens"}),
}
"""The objects inside the non-call deltas, the non-call block starts and
``metadata``'s arrays: path (``[]`` for an array's entry) -> members.  An
object at a path below these levels that no table lists blocks."""

OPEN_INNER_LEVELS: dict[str, str] = {
    "contentBlockDelta.delta.toolResult[].json": (
        "a Document (botocore's ToolResultBlockDelta.json, any JSON): a server"
        " tool's own result, whatever that tool returns; the block carries no"
        " call of the client"
    ),
}
"""Objects inside arrays whose members are open on purpose: path -> why."""

OPEN_LEVELS: dict[str, str] = {
    "messageStop.additionalModelResponseFields": (
        "a Document (botocore's MessageStopEvent.additionalModelResponseFields,"
        " any JSON): the model's own response fields that the request's"
        " additionalModelResponseFieldPaths asked for, so its members are"
        " whatever the model and the caller's paths name; it comes with the"
        " turn's end reason, after every block, and nothing the profile reads"
        " comes from it"
    ),
    "metadata.trace.guardrail.inputAssessment": (
        "a map keyed by the caller's guardrail identifiers (botocore's"
        " GuardrailAssessmentMap: key GuardrailId, a string the caller chose when"
        " creating the guardrail): its keys are whatever the caller named, and"
        " nothing the profile reads comes from it"
    ),
    "metadata.trace.guardrail.outputAssessments": (
        "a map keyed by the caller's guardrail identifiers (botocore's"
        " GuardrailAssessmentListMap, key GuardrailId), as inputAssessment"
    ),
}
"""Objects whose members are open on purpose: path -> why, with the source."""
