// jsonProblem: whether a harness's arguments can be sent as JSON at all,
// checked before a call so that a BigInt or a cycle is an argument error,
// not a failure of the transport that would have serialized them.

/** Why value cannot be written as JSON (JSON.stringify's message), or undefined when it can. */
export function jsonProblem(value: unknown): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message.split('\n')[0] : String(err);
  }
}
