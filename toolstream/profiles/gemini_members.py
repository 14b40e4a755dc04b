"""The members the ``gemini`` profile knows on the chunk-level objects of a
``streamGenerateContent`` stream that carry no call, by the object's path
(the path an unknown member's finding names).

``usageMetadata`` (token counts, by modality too) and ``promptFeedback``
(why the prompt was blocked, its safety ratings) carry no call's name or
arguments: the profile reads ``promptFeedback.blockReason`` (a blocked
prompt is ``provider_error``) and ignores the rest.  A member outside its
object's set, or outside an entry's set in one of their arrays, blocks the
turn unless a reviewed dialect (profile ``gemini``, level = the object's
path) names it.  What carries a call (the chunk, candidate, content, part,
``functionCall``) is closed in ``gemini.py`` itself.

Source of every set: the Gemini API reference, GenerateContentResponse
(https://ai.google.dev/api/generate-content#generatecontentresponse:
``UsageMetadata``, ``PromptFeedback``, ``ModalityTokenCount``,
``SafetyRating``) as google-genai 3.6.1 spells it (``google/genai/types.py``:
``GenerateContentResponseUsageMetadata``,
``GenerateContentResponsePromptFeedback``, ``ModalityTokenCount``,
``SafetyRating``; the wire names are their camelCase aliases).
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
}
"""Object path -> the members the profile knows there (``name[]``: each
entry of the array ``name``)."""

CHUNK_ARRAYS: dict[str, tuple[str, ...]] = {
    "usageMetadata": (
        "cacheTokensDetails",
        "candidatesTokensDetails",
        "promptTokensDetails",
        "toolUsePromptTokensDetails",
    ),
    "promptFeedback": ("safetyRatings",),
}
"""Object path -> its members that are arrays of closed objects."""

OPEN_LEVELS: dict[str, str] = {}
"""Objects whose members are open on purpose: path -> why, with the source.
The closed-world walk (tests/support/every_level/walk.py) leaves them out."""
