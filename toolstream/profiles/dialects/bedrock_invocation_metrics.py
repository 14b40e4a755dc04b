"""``amazon-bedrock-invocationMetrics``: the token counts and latencies
Amazon Bedrock adds to the last event (``message_stop``) of an Anthropic
model's InvokeModelWithResponseStream stream, read by the ``anthropic``
profile inside ``bedrock-invoke`` frames."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

DIALECT = _d.Dialect(
    name="bedrock_invocation_metrics",
    profile="anthropic",
    level="message_stop",
    member="amazon-bedrock-invocationMetrics",
    path="message_stop.amazon-bedrock-invocationMetrics",
    shape="object of {inputTokenCount, outputTokenCount, invocationLatency, firstByteLatency, ...}",
    servers=("Amazon Bedrock (InvokeModelWithResponseStream, Anthropic models)",),
    sources=(
        "Jawabreh0/anthropic README.md (a recorded Bedrock Claude stream: message_stop with"
        " amazon-bedrock-invocationMetrics)",
    ),
    treatment=_d.Treatment.INERT,
    reason="token counts and latencies of the invocation, after the turn's end:"
    " no call identity, name or arguments",
)
