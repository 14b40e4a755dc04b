"""``choices[].delta.reasoning_content``: the reasoning text of
OpenAI-compatible reasoning servers, streamed beside ``content``."""

from __future__ import annotations

from toolstream.profiles import dialects as _d

DIALECT = _d.Dialect(
    name="reasoning_content",
    profile="openai",
    level="delta",
    member="reasoning_content",
    path="choices[].delta.reasoning_content",
    shape="string or null",
    servers=("DeepSeek", "xAI", "vLLM", "SGLang", "TensorRT-LLM", "llama.cpp", "Zhipu (Z.ai)"),
    sources=(
        "vercel/ai packages/deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt",
        "vercel/ai packages/xai/src/__fixtures__/xai-tool-call.chunks.txt",
        "vllm-project/vllm docs/source/features/reasoning_outputs.md",
        "https://docs.rs/dynamo-protocols/5.2.0/dynamo_protocols/types/struct.ChatCompletionStreamResponseDelta.html"
        " (reasoning_content: DeepSeek, SGLang, TRT-LLM)",
        "lacerbi/genai-lite docs/dev/2025-10-17_llamacpp-reasoning-extraction.md"
        " (llama-server --reasoning-format deepseek)",
        "https://docs.rs/zai-rs/0.6.0/zai_rs/model/chat_stream_response/struct.Delta.html",
    ),
    treatment=_d.Treatment.INERT,
    reason="free text shown to the user; tool calls still arrive in delta.tool_calls",
)
