"""The members the chat profiles (``openai``, ``mistral``) know inside a
chunk's bookkeeping objects: its ``usage``, a choice's ``logprobs``, a
delta's ``audio`` and ``annotations``, by the object's path (the path an
unknown member's finding names).

None of them carries a call's id, name or arguments: a client reads them
as counts, token probabilities, audio and citations of the message text.
Each is closed all the same, so that a vendor's member inside them (a
server that moves tool data there, or a new member nobody reviewed) blocks
the turn unless a reviewed dialect (``toolstream.profiles.dialects``,
profile ``openai``, level = the object's path) names it.  The objects that
carry a call (the chunk, its choices, the delta, ``tool_calls[]`` and its
``function``) are closed in ``openai_chat.py`` itself.

Source of every set: openai-python 3.57.0 (the pinned client),
``src/openai/types/completion_usage.py`` (``CompletionUsage``,
``CompletionTokensDetails``, ``PromptTokensDetails``),
``src/openai/types/chat/chat_completion_chunk.py`` (``ChoiceLogprobs``,
``ChoiceDeltaAudio``), ``chat_completion_token_logprob.py``
(``ChatCompletionTokenLogprob``, ``TopLogprob``), and for the delta's url
citations the chat reference's ``annotations`` (``chat_completion_message.py``:
``Annotation``, ``AnnotationURLCitation``), which a search model streams in
its deltas.
"""

from __future__ import annotations

USAGE_LEVELS: dict[str, frozenset[str]] = {
    # CompletionUsage
    "usage": frozenset(
        {
            "completion_tokens",
            "prompt_tokens",
            "total_tokens",
            "completion_tokens_details",
            "prompt_tokens_details",
        }
    ),
    # CompletionTokensDetails
    "usage.completion_tokens_details": frozenset(
        {
            "accepted_prediction_tokens",
            "audio_tokens",
            "reasoning_tokens",
            "rejected_prediction_tokens",
            "text_tokens",
        }
    ),
    # PromptTokensDetails
    "usage.prompt_tokens_details": frozenset(
        {"audio_tokens", "cache_write_tokens", "cached_tokens", "image_tokens", "text_tokens"}
    ),
}
"""``usage`` (on any chunk) and its two details objects."""

MISTRAL_USAGE_LEVELS: dict[str, frozenset[str]] = {
    **USAGE_LEVELS,
    # mistralai 3.7.0 src/mistralai/client/models/usageinfo.py (UsageInfo)
    "usage": USAGE_LEVELS["usage"] | {"prompt_audio_seconds", "service_tier"},
}
"""The ``mistral`` profile's usage: Mistral's ``UsageInfo`` adds two members."""

USAGE_NESTED: dict[str, tuple[str, ...]] = {
    "usage": ("completion_tokens_details", "prompt_tokens_details"),
}
"""Which members of a usage level are closed levels too."""

LOGPROBS_LEVELS: dict[str, frozenset[str]] = {
    # ChoiceLogprobs
    "choices[].logprobs": frozenset({"content", "refusal"}),
    # ChatCompletionTokenLogprob: each entry of content[] and refusal[]
    "choices[].logprobs.content[]": frozenset({"token", "bytes", "logprob", "top_logprobs"}),
    "choices[].logprobs.refusal[]": frozenset({"token", "bytes", "logprob", "top_logprobs"}),
    # TopLogprob
    "choices[].logprobs.content[].top_logprobs[]": frozenset({"token", "bytes", "logprob"}),
    "choices[].logprobs.refusal[].top_logprobs[]": frozenset({"token", "bytes", "logprob"}),
}
"""A choice's ``logprobs`` and the entries of its arrays."""

AUDIO_MEMBERS = frozenset({"id", "data", "expires_at", "transcript"})
"""``choices[].delta.audio`` (``ChoiceDeltaAudio``)."""

ANNOTATION_TYPES: dict[str, frozenset[str]] = {
    # Annotation (type "url_citation")
    "url_citation": frozenset({"type", "url_citation"}),
}
"""``choices[].delta.annotations[]`` entries, by their ``type``."""

URL_CITATION_MEMBERS = frozenset({"start_index", "end_index", "title", "url"})
"""``choices[].delta.annotations[].url_citation`` (``AnnotationURLCitation``)."""

OPEN_LEVELS: dict[str, str] = {}
"""Chat levels open on purpose: none (every object of a chunk is closed)."""
