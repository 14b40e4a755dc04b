// Shared by the JS drivers: the dummy keys, the model name, the prompt.
export const API_KEY = "toolstream-dummy-key";
// Bedrock's dummy credentials (what boto3-converse-stream is given too).
export const AWS_ACCESS_KEY_ID = "toolstream";
export const AWS_SECRET = "toolstream-dummy-secret";
export const MODEL = "toolstream";
export const PROMPT = "toolstream case";

// "Type: message" of a refusal, one line.
export function reasonOf(error) {
  const name = error?.constructor?.name ?? typeof error;
  return `${name}: ${String(error?.message ?? error)}`.replace(/\s+/g, " ").slice(0, 300);
}
