// openai-node (the "openai" npm package), Chat Completions streaming.
//
// openai-node-chat-stream: the SDK's streaming helper read to the end, then
//   stream.finalChatCompletion(): choices[0].message.tool_calls (id,
//   function.name, function.arguments text).  Tools non-strict.
// openai-node-chat-create: client.chat.completions.create({stream: true}),
//   its Stream handed to the SDK's own accumulator with
//   ChatCompletionStream.fromReadableStream(stream.toReadableStream()) (the
//   documented way to accumulate a create() stream), then
//   finalChatCompletion().
//
// Releases (`--client openai-node-chat-stream==VERSION`): the oldest is
// 4.16.0, the first whose ChatCompletionStream accumulates tool_calls
// (4.15.x added lib/ChatCompletionStream and the streaming helper, but
// accumulates function_call only, so every tool call would be dropped by
// the release, not by the stream); in 4.x the helper is
// client.beta.chat.completions.stream(), from 5.0.0 on
// client.chat.completions.stream() (the driver calls whichever the release
// has).  toReadableStream() and fromReadableStream() are in every release
// from 4.15.0 on.
//
// Client: new OpenAI({apiKey: dummy, baseURL: <case>/v1, maxRetries: 0,
// timeout}).  Refusal: any OpenAI.OpenAIError (APIError and subclasses:
// HTTP status, connection, timeout, abort; "stream ended without producing a
// ChatCompletionMessage"; LengthFinishReasonError, ContentFilterFinishReasonError).
// Anything else (TypeError, SyntaxError from a data line...) is a crash.
import OpenAI from "openai";
import { ChatCompletionStream } from "openai/lib/ChatCompletionStream";

import { API_KEY, MODEL, PROMPT, reasonOf } from "./common.mjs";

function client(request) {
  return new OpenAI({
    apiKey: API_KEY,
    baseURL: request.v1,
    maxRetries: 0,
    timeout: request.timeout_ms,
  });
}

function body(request) {
  const out = { model: MODEL, messages: [{ role: "user", content: PROMPT }] };
  if (request.tools.length) {
    out.tools = request.tools.map(([name, parameters]) => ({
      type: "function",
      function: { name, parameters },
    }));
  }
  if (request.tool_choice != null) out.tool_choice = request.tool_choice;
  return out;
}

function completionResult(completion) {
  const choice = completion.choices?.[0];
  if (choice === undefined) return {};
  const calls = (choice.message?.tool_calls ?? []).map((call) => ({
    id: call.id ?? null,
    name: call.function?.name ?? null,
    arguments: call.function?.arguments ?? null,
  }));
  return { calls, finish_reason: choice.finish_reason ?? null };
}

// The object with the streaming helper: chat.completions from 5.0.0 on,
// beta.chat.completions in 4.x.
function streamingHelper(openai) {
  if (typeof openai.chat.completions.stream === "function") return openai.chat.completions;
  return openai.beta.chat.completions;
}

async function guarded(run) {
  try {
    return completionResult(await run());
  } catch (error) {
    if (error instanceof OpenAI.OpenAIError) {
      return { rejected: true, reason: reasonOf(error), caught: error };
    }
    throw error;
  }
}

export const DRIVERS = {
  "openai-node-chat-stream": (request, signal) =>
    guarded(async () => {
      const stream = streamingHelper(client(request)).stream(body(request), { signal });
      for await (const _chunk of stream);
      return stream.finalChatCompletion();
    }),
  "openai-node-chat-create": (request, signal) =>
    guarded(async () => {
      const raw = await client(request).chat.completions.create(
        { ...body(request), stream: true },
        { signal },
      );
      const stream = ChatCompletionStream.fromReadableStream(raw.toReadableStream());
      for await (const _chunk of stream);
      return stream.finalChatCompletion();
    }),
};
