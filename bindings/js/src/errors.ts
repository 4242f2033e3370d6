// LspError: every seam failure, from the core module, the shim or the tool
// layer, with the stable code of docs/errors.md's table.

import type { ConfigProblem, LspErrorCode, LspErrorData, TargetCandidate } from './types.js';

export class LspError extends Error {
  /** The stable code; branch on this, never on the message. */
  readonly code: LspErrorCode;
  /** The symbols of an LSP_AMBIGUOUS_TARGET, or the nearest names of a symbol's LSP_TARGET_NOT_FOUND. */
  readonly candidates?: TargetCandidate[];
  /** The input member an LSP_INVALID_ARGUMENT is about, when a host must know it. */
  readonly field?: string;
  /** LSP_UNSUPPORTED_OPERATION: what to use instead. */
  readonly instead?: string;
  /** The kind of error within its code, where hosts act on it (`editsOverlap`). */
  readonly reason?: string;
  /** LSP_CONFIG_INVALID from config validation: each problem with its config path. */
  readonly problems?: ConfigProblem[];

  constructor(
    code: LspErrorCode,
    message: string,
    options?: { cause?: unknown; candidates?: TargetCandidate[]; field?: string; instead?: string; reason?: string; problems?: ConfigProblem[] },
  ) {
    super(message, options);
    this.name = 'LspError';
    this.code = code;
    if (options?.candidates !== undefined) this.candidates = options.candidates;
    if (options?.field !== undefined) this.field = options.field;
    if (options?.instead !== undefined) this.instead = options.instead;
    if (options?.reason !== undefined) this.reason = options.reason;
    if (options?.problems !== undefined) this.problems = options.problems;
  }

  toJSON(): LspErrorData {
    const data: LspErrorData = { code: this.code, message: this.message };
    if (this.candidates !== undefined) data.candidates = this.candidates;
    if (this.field !== undefined) data.field = this.field;
    if (this.instead !== undefined) data.instead = this.instead;
    if (this.reason !== undefined) data.reason = this.reason;
    if (this.problems !== undefined) data.problems = this.problems;
    return data;
  }
}

/** True for an LspError (also one from another copy of this package). */
export function isLspError(value: unknown): value is LspError {
  return (
    value instanceof LspError ||
    (value instanceof Error && value.name === 'LspError' && typeof (value as { code?: unknown }).code === 'string')
  );
}

// Every code, checked exhaustive against LspErrorCode by the compiler.
const codes: Record<LspErrorCode, true> = {
  LSP_INVALID_ARGUMENT: true,
  LSP_WORKSPACE_REQUIRED: true,
  LSP_WORKSPACE_INVALID: true,
  LSP_TARGET_NOT_FOUND: true,
  LSP_AMBIGUOUS_TARGET: true,
  LSP_UNAVAILABLE: true,
  LSP_CONFLICT: true,
  LSP_DISPOSED: true,
  LSP_UNSUPPORTED_OPERATION: true,
  LSP_UNSUPPORTED_SYNC: true,
  LSP_SOURCE_REJECTED: true,
  LSP_MALFORMED_RESPONSE: true,
  LSP_PROTOCOL_ERROR: true,
  LSP_SERVER_FAILED: true,
  LSP_SERVER_ERROR: true,
  LSP_CANCELLED: true,
  LSP_TIMEOUT: true,
  LSP_CONFIG_INVALID: true,
  FS_NOT_OBSERVED: true,
  FS_STALE: true,
  FS_NOT_FOUND: true,
  FS_NO_MATCH: true,
  FS_AMBIGUOUS_MATCH: true,
  FS_INVALID_ARGUMENT: true,
  FS_REJECTED: true,
  LSP_UNKNOWN_METHOD: true,
  LSP_INTERNAL_ERROR: true,
  LSP_NOT_INITIALIZED: true,
  LSP_CORE_UNAVAILABLE: true,
};

/** Every stable error code. */
export const LSP_ERROR_CODES: readonly LspErrorCode[] = Object.freeze(Object.keys(codes) as LspErrorCode[]);
