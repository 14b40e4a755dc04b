"""``copilot_usage``: GitHub Copilot's billing counts, beside ``response`` on
the ``response.completed`` event of its Responses API endpoint."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

DIALECT = _d.Dialect(
    name="github_copilot_usage",
    profile="openai-responses",
    level="event",
    member="copilot_usage",
    path="response.completed.copilot_usage",
    shape="object of {token_details: [{token_type, token_count, batch_size, cost_per_batch}], ...}",
    servers=("GitHub Copilot (Responses API)",),
    sources=(
        "vercel/ai packages/openai/src/responses/__fixtures__/"
        "github-copilot-id-rotation.1.chunks.txt"
        " (a recorded Copilot stream: copilot_usage on response.completed)",
    ),
    treatment=_d.Treatment.INERT,
    reason="token counts and their prices, on the event that ends the turn:"
    " no call identity, name or arguments",
)
