// The Vercel AI SDK's streamText, read to the end: what every AI SDK driver
// (ai_sdk.mjs, ai_sdk_openai_compatible.mjs) shares.  It imports only "ai",
// so a driver module imports its provider package and this, nothing else.
//
// run(model, request, signal): tools declared without `execute`
// (jsonSchema(schema) as inputSchema); the "tool-call" parts of fullStream
// not marked `invalid` are the calls handed over, the invalid ones reported
// as invalid; the "finish" part's finishReason; an "error" part, or an
// AISDKError thrown while reading, is the refusal; anything else thrown
// propagates (a crash).
//
// ai 4 (a provider of specification v1: @ai-sdk/openai-compatible 0.x,
// installed beside ai 4.3.19 by --client NAME==VERSION) names a tool's
// schema `parameters` and a call's input `args`, and has no `invalid` mark:
// a call it cannot parse (arguments that are not JSON or miss the schema,
// an unknown tool) comes as an "error" part holding AI_InvalidToolArgumentsError
// or AI_NoSuchToolError while the other calls still come, which is what
// ai 5 and 6 mark `invalid`; so those two are reported as invalid, not as
// the turn's refusal.  ai 5 (spec v2) reads as ai 6 does.
import { AISDKError, jsonSchema, streamText, tool } from "ai";

import { PROMPT, reasonOf } from "./common.mjs";

const AI4_CALL_ERRORS = new Set(["AI_InvalidToolArgumentsError", "AI_NoSuchToolError"]);

function tools(request, v1) {
  const out = {};
  for (const [name, schema] of request.tools) {
    out[name] = tool(v1 ? { parameters: jsonSchema(schema) } : { inputSchema: jsonSchema(schema) });
  }
  return out;
}

// The AI SDK's toolChoice from an OpenAI-style one.
function toolChoice(choice) {
  if (choice == null) return undefined;
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (choice === "any") return "required";
  const name = choice?.function?.name ?? choice?.name;
  if (typeof name === "string") return { type: "tool", toolName: name };
  return undefined;
}

export async function run(model, request, signal) {
  const v1 = model.specificationVersion === "v1"; // ai 4's API (the header)
  const result = streamText({
    model,
    prompt: PROMPT,
    tools: tools(request, v1),
    toolChoice: toolChoice(request.tool_choice),
    maxRetries: 0,
    abortSignal: signal,
    onError: () => {},
  });
  const calls = [];
  const invalid = [];
  let finish = null;
  let refused = null;
  try {
    for await (const part of result.fullStream) {
      if (part.type === "tool-call") {
        const input = v1 ? part.args : part.input;
        const call = { id: part.toolCallId ?? null, name: part.toolName ?? null, input };
        if (part.invalid) invalid.push(JSON.stringify({ ...call, error: reasonOf(part.error) }));
        else calls.push(call);
      } else if (part.type === "error" && v1 && AI4_CALL_ERRORS.has(part.error?.name)) {
        const { toolName, toolArgs } = part.error;
        const call = { id: null, name: toolName ?? null, arguments: toolArgs ?? null };
        invalid.push(JSON.stringify({ ...call, error: reasonOf(part.error) }));
      } else if (part.type === "error") {
        refused ??= part.error;
      } else if (part.type === "finish") {
        finish = part.finishReason ?? null;
      }
    }
  } catch (error) {
    if (AISDKError.isInstance(error)) refused ??= error;
    else throw error;
  }
  if (refused !== null) return { rejected: true, reason: reasonOf(refused), caught: refused };
  return { calls, invalid, finish_reason: finish };
}
