"""The members the ``gemini`` profile knows on the objects of a
``streamGenerateContent`` stream that carry no call, by the object's path
(the path an unknown member's finding names): the chunk's usage, prompt
feedback and model status (:data:`CHUNK_LEVELS`), a candidate's reports
(:data:`CANDIDATE_LEVELS`: safety ratings, citations, grounding, log
probabilities, URL context) and the inner objects of its parts
(:data:`PART_LEVELS`: inline and file data, code and its result, video
metadata, media resolution, audio transcription, the built-in tool call and
response, a streamed call's ``partialArgs`` entries).

``usageMetadata`` (token counts, by modality too) and ``promptFeedback``
(why the prompt was blocked, its safety ratings) carry no call's name or
arguments: the profile reads ``promptFeedback.blockReason`` (a blocked
prompt is ``provider_error``) and ignores the rest.  A member outside its
object's set, or outside an entry's set in one of their arrays, blocks the
turn unless a reviewed dialect (profile ``gemini``, level = the object's
path) names it.  What carries a call (the chunk, candidate, content, part,
``functionCall``) is closed in ``gemini.py`` itself.  Every object below
those is closed here, at every depth, except the objects in
:data:`OPEN_LEVELS` (a call's own arguments, a built-in tool's arguments and
output, the caller's part metadata).

Source of every set: the Gemini API reference, GenerateContentResponse
(https://ai.google.dev/api/generate-content#generatecontentresponse:
``UsageMetadata``, ``PromptFeedback``, ``ModalityTokenCount``,
``SafetyRating``) as google-genai 3.6.1 spells it (``google/genai/types.py``:
``GenerateContentResponseUsageMetadata``,
``GenerateContentResponsePromptFeedback``, ``ModalityTokenCount``,
``SafetyRating``; the wire names are their camelCase aliases), and for the
candidate and part levels the Candidate and Part references
(https://ai.google.dev/api/generate-content#candidate,
https://ai.google.dev/api/caching#Part) as google-genai 3.6.1's
``google/genai/types.py`` spells them: ``Candidate``, ``SafetyRating``,
``CitationMetadata``/``Citation``/``GoogleTypeDate``, ``GroundingMetadata``
and its ``GroundingChunk*``, ``RagChunk*``, ``GroundingSupport``,
``Segment``, ``RetrievalMetadata``, ``SearchEntryPoint``,
``GroundingMetadataSourceFlaggingUri``, ``LogprobsResult*``,
``UrlContextMetadata``/``UrlMetadata``, ``Blob``, ``FileData``,
``ExecutableCode``, ``CodeExecutionResult``, ``VideoMetadata``,
``PartMediaResolution``, ``Transcription``/``WordInfo``, ``ToolCall``,
``ToolResponse``, ``PartialArg``, ``ModelStatus``.  The Gemini API spells
a candidate's citations ``citationMetadata.citationSources[]``
(``CitationSource``: startIndex, endIndex, uri, license), which
google-genai renames to ``citations`` (``CitationMetadata._rename_citation_sources``
and ``models._CitationMetadata_from_mldev``): both are known, with the
``Citation`` members.
``usageMetadata.serviceTier`` is not in ``GenerateContentResponseUsageMetadata``
but is in js-genai's ``UsageMetadata`` ("Output only. Service tier of the
request": https://googleapis.github.io/js-genai/release_docs/interfaces/types.UsageMetadata.html)
and the Gemini API sends it in generateContent usage: Arize-ai/openinference
``python/instrumentation/openinference-instrumentation-google-genai/tests/
cassettes/test_instrumentation/test_streaming_reasoning_with_multiple_tool_calls.yaml``
(gemini-3.5-flash, two parallel calls: ``serviceTier`` in every
``usageMetadata``).
"""

from __future__ import annotations

# ModalityTokenCount
_MODALITY_COUNT = frozenset({"modality", "tokenCount"})
# SafetyRating
_SAFETY_RATING = frozenset(
    {
        "blocked",
        "category",
        "overwrittenThreshold",
        "probability",
        "probabilityScore",
        "severity",
        "severityScore",
    }
)

CHUNK_LEVELS: dict[str, frozenset[str]] = {
    # GenerateContentResponseUsageMetadata (serviceTier: above)
    "usageMetadata": frozenset(
        {
            "cacheTokensDetails",
            "cachedContentTokenCount",
            "candidatesTokenCount",
            "candidatesTokensDetails",
            "promptTokenCount",
            "promptTokensDetails",
            "thoughtsTokenCount",
            "toolUsePromptTokenCount",
            "toolUsePromptTokensDetails",
            "totalTokenCount",
            "trafficType",
            "serviceTier",
        }
    ),
    **{
        f"usageMetadata.{array}[]": _MODALITY_COUNT
        for array in (
            "cacheTokensDetails",
            "candidatesTokensDetails",
            "promptTokensDetails",
            "toolUsePromptTokensDetails",
        )
    },
    # GenerateContentResponsePromptFeedback
    "promptFeedback": frozenset({"blockReason", "blockReasonMessage", "safetyRatings"}),
    "promptFeedback.safetyRatings[]": _SAFETY_RATING,
    # ModelStatus
    "modelStatus": frozenset({"message", "modelStage", "retirementTime"}),
}
"""Object path -> the members the profile knows there (``name[]``: each
entry of the array ``name``)."""

_C = "candidates[]"
_GROUNDING = f"{_C}.groundingMetadata"
_CHUNK = f"{_GROUNDING}.groundingChunks[]"
_MAPS = f"{_CHUNK}.maps"
_CONTEXT = f"{_CHUNK}.retrievedContext"
# Citation (the Gemini API's CitationSource is a subset)
_CITATION = frozenset({"endIndex", "license", "publicationDate", "startIndex", "title", "uri"})
# GroundingChunkMapsPlaceAnswerSourcesReviewSnippet
_REVIEW_SNIPPET = frozenset(
    {
        "authorAttribution",
        "flagContentUri",
        "googleMapsUri",
        "relativePublishTimeDescription",
        "review",
        "reviewId",
        "title",
    }
)
# LogprobsResultCandidate
_LOGPROB = frozenset({"logProbability", "token", "tokenId"})

CANDIDATE_LEVELS: dict[str, frozenset[str]] = {
    # SafetyRating
    f"{_C}.safetyRatings[]": _SAFETY_RATING,
    # CitationMetadata (citationSources: the Gemini API's spelling)
    f"{_C}.citationMetadata": frozenset({"citations", "citationSources"}),
    f"{_C}.citationMetadata.citations[]": _CITATION,
    f"{_C}.citationMetadata.citations[].publicationDate": frozenset({"day", "month", "year"}),
    f"{_C}.citationMetadata.citationSources[]": _CITATION,
    f"{_C}.citationMetadata.citationSources[].publicationDate": frozenset({"day", "month", "year"}),
    # GroundingMetadata
    _GROUNDING: frozenset(
        {
            "googleMapsWidgetContextToken",
            "groundingChunks",
            "groundingSupports",
            "imageSearchQueries",
            "retrievalMetadata",
            "retrievalQueries",
            "searchEntryPoint",
            "sourceFlaggingUris",
            "webSearchQueries",
        }
    ),
    # GroundingChunk: one of its members names the kind of source
    _CHUNK: frozenset({"image", "maps", "retrievedContext", "web"}),
    f"{_CHUNK}.web": frozenset({"domain", "title", "uri"}),
    f"{_CHUNK}.image": frozenset({"domain", "imageUri", "sourceUri", "title"}),
    # GroundingChunkMaps and its place answer sources, route
    _MAPS: frozenset({"placeAnswerSources", "placeId", "route", "text", "title", "uri"}),
    f"{_MAPS}.placeAnswerSources": frozenset({"flagContentUri", "reviewSnippet", "reviewSnippets"}),
    f"{_MAPS}.placeAnswerSources.reviewSnippet[]": _REVIEW_SNIPPET,
    f"{_MAPS}.placeAnswerSources.reviewSnippet[].authorAttribution": frozenset(
        {"displayName", "photoUri", "uri"}
    ),
    f"{_MAPS}.placeAnswerSources.reviewSnippets[]": _REVIEW_SNIPPET,
    f"{_MAPS}.placeAnswerSources.reviewSnippets[].authorAttribution": frozenset(
        {"displayName", "photoUri", "uri"}
    ),
    f"{_MAPS}.route": frozenset({"distanceMeters", "duration", "encodedPolyline"}),
    # GroundingChunkRetrievedContext, RagChunk, GroundingChunkCustomMetadata
    _CONTEXT: frozenset(
        {
            "customMetadata",
            "documentName",
            "fileSearchStore",
            "mediaId",
            "pageNumber",
            "ragChunk",
            "text",
            "title",
            "uri",
        }
    ),
    f"{_CONTEXT}.ragChunk": frozenset({"chunkId", "fileId", "pageSpan", "text"}),
    f"{_CONTEXT}.ragChunk.pageSpan": frozenset({"firstPage", "lastPage"}),
    f"{_CONTEXT}.customMetadata[]": frozenset(
        {"key", "numericValue", "stringListValue", "stringValue"}
    ),
    f"{_CONTEXT}.customMetadata[].stringListValue": frozenset({"values"}),
    # GroundingSupport, Segment
    f"{_GROUNDING}.groundingSupports[]": frozenset(
        {"confidenceScores", "groundingChunkIndices", "renderedParts", "segment"}
    ),
    f"{_GROUNDING}.groundingSupports[].segment": frozenset(
        {"endIndex", "partIndex", "startIndex", "text"}
    ),
    # RetrievalMetadata, SearchEntryPoint, GroundingMetadataSourceFlaggingUri
    f"{_GROUNDING}.retrievalMetadata": frozenset({"googleSearchDynamicRetrievalScore"}),
    f"{_GROUNDING}.searchEntryPoint": frozenset({"renderedContent", "sdkBlob"}),
    f"{_GROUNDING}.sourceFlaggingUris[]": frozenset({"flagContentUri", "sourceId"}),
    # LogprobsResult, LogprobsResultTopCandidates, LogprobsResultCandidate
    f"{_C}.logprobsResult": frozenset({"chosenCandidates", "logProbabilitySum", "topCandidates"}),
    f"{_C}.logprobsResult.chosenCandidates[]": _LOGPROB,
    f"{_C}.logprobsResult.topCandidates[]": frozenset({"candidates"}),
    f"{_C}.logprobsResult.topCandidates[].candidates[]": _LOGPROB,
    # UrlContextMetadata, UrlMetadata
    f"{_C}.urlContextMetadata": frozenset({"urlMetadata"}),
    f"{_C}.urlContextMetadata.urlMetadata[]": frozenset({"retrievedUrl", "urlRetrievalStatus"}),
}
"""A candidate's reports, by path: none carries a call."""

_PART = f"{_C}.content.parts[]"
PARTIAL_ARG_LEVEL = f"{_PART}.functionCall.partialArgs[]"

PART_LEVELS: dict[str, frozenset[str]] = {
    # Blob, FileData
    f"{_PART}.inlineData": frozenset({"data", "displayName", "mimeType"}),
    f"{_PART}.fileData": frozenset({"displayName", "fileUri", "mimeType"}),
    # ExecutableCode, CodeExecutionResult (the code the built-in code
    # execution tool ran, and its output)
    f"{_PART}.executableCode": frozenset({"code", "id", "language"}),
    f"{_PART}.codeExecutionResult": frozenset({"id", "outcome", "output"}),
    # VideoMetadata, PartMediaResolution
    f"{_PART}.videoMetadata": frozenset({"contentLayers", "endOffset", "fps", "startOffset"}),
    f"{_PART}.mediaResolution": frozenset({"level", "numTokens"}),
    # Transcription, WordInfo
    f"{_PART}.audioTranscription": frozenset(
        {"endOffset", "finished", "languageCode", "speakerLabel", "startOffset", "text", "words"}
    ),
    f"{_PART}.audioTranscription.words[]": frozenset({"endOffset", "startOffset", "word"}),
    # ToolCall, ToolResponse (a built-in tool the provider runs)
    f"{_PART}.toolCall": frozenset({"args", "id", "toolType"}),
    f"{_PART}.toolResponse": frozenset({"id", "response", "toolType"}),
    # PartialArg (Vertex AI streamFunctionCallArguments)
    PARTIAL_ARG_LEVEL: frozenset(
        {"boolValue", "jsonPath", "nullValue", "numberValue", "stringValue", "willContinue"}
    ),
}
"""The inner objects of a candidate's parts, by path."""

OPEN_LEVELS: dict[str, str] = {
    f"{_PART}.functionCall.args": (
        "the call's own arguments object (FunctionCall.args, 'the function parameters and"
        " values in JSON object format': https://ai.google.dev/api/caching#FunctionCall),"
        " checked against the tool's schema instead"
    ),
    f"{_PART}.toolCall.args": (
        "a built-in tool call's own arguments (google-genai types.py ToolCall.args,"
        ' dict[str, Any]: \'The tool call arguments. Example: {"arg1": "value1"}\'), named'
        " by the tool's parameters; the call is a server call, never executed"
    ),
    f"{_PART}.toolResponse.response": (
        "a built-in tool's output (google-genai types.py ToolResponse.response,"
        " dict[str, Any]: 'The tool response'), the tool's own document"
    ),
    f"{_PART}.partMetadata": (
        "the caller's own key-value pairs (google-genai types.py Part.part_metadata,"
        " dict[str, Any]: 'Custom metadata associated with the Part')"
    ),
}
"""Objects whose members are open on purpose: path -> why, with the source.
The closed-world walk (tests/support/every_level/walk.py) leaves them out."""

LEVELS: dict[str, frozenset[str]] = {**CHUNK_LEVELS, **CANDIDATE_LEVELS, **PART_LEVELS}
"""Every closed object below the chunk, candidate, content, part and
``functionCall`` (which ``gemini.py`` closes itself)."""


def _children(levels: dict[str, frozenset[str]]) -> dict[str, tuple[tuple[str, str, bool], ...]]:
    # Object path -> (member, its path, whether it is an array of objects),
    # for each member of the object that is a closed level.
    out: dict[str, list[tuple[str, str, bool]]] = {}
    for path in levels:
        parent, _, member = path.rpartition(".")
        name = member.removesuffix("[]")
        out.setdefault(parent, []).append((name, path, member.endswith("[]")))
    return {parent: tuple(members) for parent, members in out.items()}


CHILDREN: dict[str, tuple[tuple[str, str, bool], ...]] = _children(LEVELS)
"""Object path (``""``: the chunk) -> its members that are closed levels:
(member, the level's path, whether the member is an array of them)."""
