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
    servers=(
        "DeepSeek",
        "xAI",
        "vLLM",
        "SGLang",
        "TensorRT-LLM",
        "llama.cpp",
        "Zhipu (Z.ai)",
        "Moonshot (Kimi)",
    ),
    sources=(
        _d.Source(
            "vercel/ai packages/deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt",
            ("DeepSeek",),
        ),
        _d.Source("vercel/ai packages/xai/src/__fixtures__/xai-tool-call.chunks.txt", ("xAI",)),
        _d.Source("vllm-project/vllm docs/source/features/reasoning_outputs.md", ("vLLM",)),
        _d.Source(
            "https://docs.rs/dynamo-protocols/5.2.0/dynamo_protocols/types/struct.ChatCompletionStreamResponseDelta.html"
            " (reasoning_content: DeepSeek, SGLang, TRT-LLM)",
            ("DeepSeek", "SGLang", "TensorRT-LLM"),
        ),
        _d.Source(
            "lacerbi/genai-lite docs/dev/2025-10-17_llamacpp-reasoning-extraction.md"
            " (llama-server --reasoning-format deepseek)",
            ("llama.cpp",),
        ),
        _d.Source(
            "https://docs.rs/zai-rs/0.6.0/zai_rs/model/chat_stream_response/struct.Delta.html",
            ("Zhipu (Z.ai)",),
        ),
        _d.Source(
            "https://www.lava.so/docs/reference/providers/moonshot (kimi-k2-thinking:"
            " reasoning_content)",
            ("Moonshot (Kimi)",),
        ),
    ),
    treatment=_d.Treatment.INERT,
    reason="free text shown to the user; tool calls still arrive in delta.tool_calls",
)
