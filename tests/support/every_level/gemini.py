"""Every object level of the ``gemini`` profile, in valid streams of our own
(see ``tests/support/every_level/__init__.py``).  Shapes from the Gemini API
reference (GenerateContentResponse, Candidate, Part) as google-genai 3.6.1's
``google/genai/types.py`` spells them (camelCase wire names)."""

from __future__ import annotations

from typing import Any

from tests.support.builders_gemini_cohere_invoke import (
    gem_call,
    gem_chunk,
    gem_more,
    gem_open,
    gemini,
    pa,
)

PROFILE = "gemini"

_MODALITY = [{"modality": "TEXT", "tokenCount": 12}]
_USAGE = {
    "promptTokenCount": 12,
    "candidatesTokenCount": 8,
    "totalTokenCount": 40,
    "thoughtsTokenCount": 20,
    "cachedContentTokenCount": 0,
    "toolUsePromptTokenCount": 0,
    "promptTokensDetails": _MODALITY,
    "candidatesTokensDetails": _MODALITY,
    "cacheTokensDetails": _MODALITY,
    "toolUsePromptTokensDetails": _MODALITY,
    "trafficType": "ON_DEMAND",
    "serviceTier": "standard",
}
_RATING = {
    "category": "HARM_CATEGORY_HARASSMENT",
    "probability": "NEGLIGIBLE",
    "probabilityScore": 0.01,
    "severity": "HARM_SEVERITY_NEGLIGIBLE",
    "severityScore": 0.02,
    "blocked": False,
}


def _last(chunk: dict[str, Any], **candidate: Any) -> dict[str, Any]:
    # The chunk's one candidate, with more members.
    chunk["candidates"][0].update(candidate)
    return chunk


def _usage_chunk(chunk: dict[str, Any]) -> dict[str, Any]:
    chunk.update(
        usageMetadata=_USAGE,
        responseId="resp_1",
        createTime="2026-01-01T00:00:00Z",
        modelStatus={
            "message": "",
            "modelStage": "STABLE",
            "retirementTime": "2027-01-01T00:00:00Z",
        },
    )
    return chunk


# A tool turn: a thought with its signature, then a whole call with an id
# (its args nested: open, the call's own arguments).
_tool_turn = [
    gem_chunk({"text": "Thinking about the weather.", "thought": True}),
    _usage_chunk(
        _last(
            gem_chunk(
                {
                    **gem_call("clock", args={"zone": {"name": "UTC"}}, id="call_1"),
                    "thoughtSignature": "c2lnbmF0dXJl",
                },
                finish="STOP",
            ),
            index=0,
            safetyRatings=[_RATING],
        )
    ),
]

# A streamed call (Vertex AI partialArgs), then a no-argument call (a
# functionCall with a name and no args: issue 25's field case).
_streamed_turn = [
    gem_chunk(gem_open("weather", pa("$.city", "Par", more=True), id="call_2")),
    gem_chunk(gem_more(pa("$.city", "is"), more=False)),
    gem_chunk({"functionCall": {"name": "clock"}}),
    _usage_chunk(gem_chunk({"text": ""}, finish="STOP")),
]

_grounding = {
    "webSearchQueries": ["weather in Paris"],
    "imageSearchQueries": ["Paris skyline"],
    "retrievalQueries": ["Paris"],
    "googleMapsWidgetContextToken": "token",
    "searchEntryPoint": {"renderedContent": "<div></div>", "sdkBlob": "e30="},
    "retrievalMetadata": {"googleSearchDynamicRetrievalScore": 0.7},
    "sourceFlaggingUris": [{"flagContentUri": "https://example.com/flag", "sourceId": "s1"}],
    "groundingChunks": [
        {"web": {"uri": "https://example.com/", "title": "Example", "domain": "example.com"}},
        {
            "image": {
                "sourceUri": "https://example.com/page",
                "imageUri": "https://example.com/a.png",
                "title": "A",
                "domain": "example.com",
            }
        },
        {
            "retrievedContext": {
                "uri": "gs://bucket/doc.pdf",
                "title": "Doc",
                "text": "Paris is sunny.",
                "documentName": "doc",
                "fileSearchStore": "fileSearchStores/store",
                "pageNumber": 3,
                "mediaId": "m1",
                "ragChunk": {
                    "text": "Paris is sunny.",
                    "chunkId": "c1",
                    "fileId": "f1",
                    "pageSpan": {"firstPage": 3, "lastPage": 4},
                },
                "customMetadata": [
                    {"key": "lang", "stringValue": "en"},
                    {"key": "score", "numericValue": 1.5},
                    {"key": "tags", "stringListValue": {"values": ["a", "b"]}},
                ],
            }
        },
        {
            "maps": {
                "uri": "https://maps.example.com/p",
                "title": "Cafe",
                "text": "A cafe.",
                "placeId": "places/1",
                "route": {"distanceMeters": 1200, "duration": "900s", "encodedPolyline": "abc"},
                "placeAnswerSources": {
                    "flagContentUri": "https://example.com/flag",
                    "reviewSnippets": [
                        {
                            "reviewId": "r1",
                            "googleMapsUri": "https://maps.example.com/r1",
                            "title": "Good",
                            "review": "Nice place.",
                            "relativePublishTimeDescription": "a week ago",
                            "flagContentUri": "https://example.com/flag",
                            "authorAttribution": {
                                "displayName": "A",
                                "uri": "https://example.com/a",
                                "photoUri": "https://example.com/a.jpg",
                            },
                        }
                    ],
                    "reviewSnippet": [
                        {
                            "reviewId": "r2",
                            "authorAttribution": {"displayName": "B"},
                        }
                    ],
                },
            }
        },
    ],
    "groundingSupports": [
        {
            "segment": {"partIndex": 0, "startIndex": 0, "endIndex": 5, "text": "Sunny"},
            "groundingChunkIndices": [0],
            "confidenceScores": [0.9],
            "renderedParts": [0],
        }
    ],
}
_citation = {
    "startIndex": 0,
    "endIndex": 5,
    "uri": "https://example.com/",
    "title": "Example",
    "license": "cc-by",
    "publicationDate": {"year": 2026, "month": 1, "day": 2},
}
_logprob = {"token": "Sunny", "tokenId": 7, "logProbability": -0.1}

# A text turn with every report a candidate carries, and prompt feedback.
_reported_text_turn = [
    gem_chunk({"text": "Sunny"}),
    _last(
        gem_chunk({"text": " today."}, finish="STOP"),
        index=0,
        safetyRatings=[_RATING],
        citationMetadata={"citations": [_citation], "citationSources": [_citation]},
        groundingMetadata=_grounding,
        logprobsResult={
            "logProbabilitySum": -0.3,
            "chosenCandidates": [_logprob],
            "topCandidates": [{"candidates": [_logprob]}],
        },
        urlContextMetadata={
            "urlMetadata": [
                {
                    "retrievedUrl": "https://example.com/",
                    "urlRetrievalStatus": "URL_RETRIEVAL_STATUS_SUCCESS",
                }
            ]
        },
        avgLogprobs=-0.1,
        tokenCount=2,
        finishMessage="",
        continuationToken="tok",
    ),
]
_reported_text_turn[0]["promptFeedback"] = {"safetyRatings": [_RATING]}

# A text turn holding every other kind of part that carries no call: inline
# and file data, the built-in tools' code and result, video metadata, media
# resolution, an audio transcription, the caller's part metadata.
_parts_turn = [
    gem_chunk(
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0K", "displayName": "a.png"}},
        {"fileData": {"mimeType": "video/mp4", "fileUri": "gs://b/v.mp4", "displayName": "v"}},
        {"executableCode": {"language": "PYTHON", "code": "print(1)", "id": "ex_1"}},
        {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n", "id": "ex_1"}},
    ),
    gem_chunk(
        {
            "fileData": {"mimeType": "video/mp4", "fileUri": "gs://b/v.mp4"},
            "videoMetadata": {
                "startOffset": "0s",
                "endOffset": "10s",
                "fps": 1.0,
                "contentLayers": ["FRAMES"],
            },
            "mediaResolution": {"level": "MEDIA_RESOLUTION_LOW", "numTokens": 64},
        },
        {
            "audioTranscription": {
                "text": "hello",
                "finished": True,
                "languageCode": "en-US",
                "speakerLabel": "spk_1",
                "startOffset": "0s",
                "endOffset": "1s",
                "words": [{"word": "hello", "startOffset": "0s", "endOffset": "1s"}],
            }
        },
        {"text": "Done.", "partMetadata": {"caller_key": "value"}},
        finish="STOP",
    ),
]

# A built-in tool the provider runs (a server call) and its response.
_server_tool_turn = [
    gem_chunk(
        {
            "toolCall": {
                "id": "tool_1",
                "toolType": "GOOGLE_SEARCH_WEB",
                "args": {"query": "weather in Paris"},
            }
        },
        {
            "toolResponse": {
                "id": "tool_1",
                "toolType": "GOOGLE_SEARCH_WEB",
                "response": {"results": [{"title": "Sunny"}]},
            }
        },
    ),
    gem_chunk({"text": "Sunny."}, finish="STOP"),
]

CASES: list[tuple[str, dict[str, Any]]] = [
    ("tool turn", gemini(_tool_turn)),
    ("streamed and no-argument calls", gemini(_streamed_turn)),
    ("text turn with every candidate report", gemini(_reported_text_turn)),
    ("text turn with every kind of part", gemini(_parts_turn)),
    ("server tool turn", gemini(_server_tool_turn)),
]
