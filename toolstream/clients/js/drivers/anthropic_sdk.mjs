// @anthropic-ai/sdk, Messages streaming.
//
// anthropic-node-messages-stream: client.messages.stream({...}) read to the
//   end, then stream.finalMessage(): every tool_use content block (id, name,
//   input: the parsed value the SDK hands over; it never hands over the
//   JSON text).  No tool_choice (the cases carry none).
//
// Client: new Anthropic({apiKey: dummy, baseURL: <case root>, maxRetries: 0,
// timeout}).  Refusal: any Anthropic.AnthropicError (APIError and
// subclasses: HTTP status, error event, connection, timeout, abort; the
// stream's own "request ended without sending any chunks" and partial-JSON
// parse errors).  Anything else is a crash.
import Anthropic from "@anthropic-ai/sdk";

import { API_KEY, MODEL, PROMPT, reasonOf } from "./common.mjs";

export const DRIVERS = {
  "anthropic-node-messages-stream": async (request, signal) => {
    const client = new Anthropic({
      apiKey: API_KEY,
      baseURL: request.root,
      maxRetries: 0,
      timeout: request.timeout_ms,
    });
    const body = {
      model: MODEL,
      max_tokens: 1024,
      messages: [{ role: "user", content: PROMPT }],
    };
    if (request.tools.length) {
      body.tools = request.tools.map(([name, input_schema]) => ({ name, input_schema }));
    }
    try {
      const stream = client.messages.stream(body, { signal });
      for await (const _event of stream);
      const message = await stream.finalMessage();
      const calls = (message.content ?? [])
        .filter((block) => block.type === "tool_use")
        .map((block) => ({ id: block.id ?? null, name: block.name ?? null, input: block.input }));
      return { calls, finish_reason: message.stop_reason ?? null };
    } catch (error) {
      if (error instanceof Anthropic.AnthropicError) {
        return { rejected: true, reason: reasonOf(error), caught: error };
      }
      throw error;
    }
  },
};
