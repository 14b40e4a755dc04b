// Shared by the JS drivers: the dummy key, the model name, the prompt.
export const API_KEY = "toolstream-dummy-key";
export const MODEL = "toolstream";
export const PROMPT = "toolstream case";

// "Type: message" of a refusal, one line.
export function reasonOf(error) {
  const name = error?.constructor?.name ?? typeof error;
  return `${name}: ${String(error?.message ?? error)}`.replace(/\s+/g, " ").slice(0, 300);
}
