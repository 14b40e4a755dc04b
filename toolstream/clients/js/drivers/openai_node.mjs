// openai-node (the "openai" npm package), Chat Completions streaming.
//
// openai-node-chat-stream: client.chat.completions.stream({...}) read to the
//   end, then stream.finalChatCompletion(): choices[0].message.tool_calls
//   (id, function.name, function.arguments text).  Tools non-strict.
// openai-node-chat-create: client.chat.completions.create({stream: true}),
//   its Stream handed to the SDK's own accumulator with
//   ChatCompletionStream.fromReadableStream(stream.toReadableStream()) (the
//   documented way to accumulate a create() stream), then
//   finalChatCompletion().
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

async function guarded(run) {
  try {
    return completionResult(await run());
  } catch (error) {
    if (error instanceof OpenAI.OpenAIError) return { rejected: true, reason: reasonOf(error) };
    throw error;
  }
}

export const DRIVERS = {
  "openai-node-chat-stream": (request, signal) =>
    guarded(async () => {
      const stream = client(request).chat.completions.stream(body(request), { signal });
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
