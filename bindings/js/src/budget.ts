// Budget: one call's time budget and its caller's signal as one signal, and
// the LspError a call that ended early rejects with (the tool objects).

import { isLspError, LspError } from './errors.js';

/** The call's budget: the timeout and the caller's signal, as one signal. */
export class Budget {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #caller: AbortSignal | undefined;
  readonly #onAbort = () => this.#controller.abort(new LspError('LSP_CANCELLED', `${this.#label}: the call was cancelled`));
  readonly #timeoutMs: number;
  readonly #label: string;
  readonly #what: string;

  /**
   * label names the tool in messages ("lsp: …"); what is what failed ("the
   * query failed"). timeoutMs is the caller's budget, the one messages
   * report; graceMs is waited on top of it for an answer the other side
   * sends when its own timeoutMs runs out (createTools: the shim's
   * LSP_TIMEOUT answer), and is named apart so the caller recognises its
   * own number.
   */
  constructor(label: string, what: string, timeoutMs: number, caller: AbortSignal | undefined, graceMs = 0) {
    this.#label = label;
    this.#what = what;
    this.#timeoutMs = timeoutMs;
    this.#caller = caller;
    caller?.addEventListener('abort', this.#onAbort, { once: true });
    const waited = graceMs > 0 ? `${timeoutMs} ms (timeoutMs) and a further ${graceMs} ms for the shim's own timeout answer` : `${timeoutMs} ms`;
    this.#timer = setTimeout(
      () =>
        this.#controller.abort(
          new LspError('LSP_TIMEOUT', `${label}: no answer within ${waited}; the language server may still be loading the project, try again shortly`),
        ),
      timeoutMs + graceMs,
    );
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Settles with p, or rejects as soon as the budget ends (for clients that ignore signals). */
  race<T>(p: Promise<T>): Promise<T> {
    const signal = this.#controller.signal;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** The error to reject with: the budget's reason once it ended, an LspError always. */
  explain(err: unknown): LspError {
    const signal = this.#controller.signal;
    if (signal.aborted && isLspError(signal.reason)) return signal.reason;
    if (isLspError(err)) return err;
    const message = err instanceof Error ? err.message : String(err);
    return new LspError('LSP_SERVER_FAILED', `${this.#label}: the ${this.#what} failed: ${message} (budget ${this.#timeoutMs} ms)`, { cause: err });
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#onAbort);
  }
}
