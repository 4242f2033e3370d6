// JSON-RPC messages with LSP's Content-Length framing (the `lspseam serve`
// wire format): `Content-Length: N\r\n\r\n` followed by N bytes of JSON.

import { Buffer } from 'node:buffer';

export class FramingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FramingError';
  }
}

/** Encodes one message. */
export function frame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');
const MAX_HEADER_BYTES = 4096;

/** Splits a byte stream into messages; push() throws FramingError on a broken stream. */
export class FrameReader {
  #buf: Buffer = Buffer.alloc(0);
  #bodyLength = -1;
  readonly #onMessage: (message: unknown) => void;
  readonly #maxBytes: number;

  constructor(onMessage: (message: unknown) => void, maxBytes = 64 * 1024 * 1024) {
    this.#onMessage = onMessage;
    this.#maxBytes = maxBytes;
  }

  push(chunk: Uint8Array): void {
    this.#buf = this.#buf.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.#buf, chunk]);
    for (;;) {
      if (this.#bodyLength < 0) {
        const end = this.#buf.indexOf(HEADER_END);
        if (end < 0) {
          if (this.#buf.length > MAX_HEADER_BYTES) throw new FramingError('header section longer than 4096 bytes');
          return;
        }
        this.#bodyLength = parseHeaders(this.#buf.subarray(0, end).toString('ascii'), this.#maxBytes);
        this.#buf = this.#buf.subarray(end + HEADER_END.length);
      }
      if (this.#buf.length < this.#bodyLength) return;
      const body = this.#buf.subarray(0, this.#bodyLength).toString('utf8');
      this.#buf = this.#buf.subarray(this.#bodyLength);
      this.#bodyLength = -1;
      let message: unknown;
      try {
        message = JSON.parse(body);
      } catch {
        throw new FramingError(`a message body is not JSON: ${body.slice(0, 200)}`);
      }
      this.#onMessage(message);
    }
  }
}

function parseHeaders(headers: string, maxBytes: number): number {
  let length = -1;
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) throw new FramingError(`malformed header line ${JSON.stringify(line)}`);
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d+$/.test(value)) throw new FramingError(`bad Content-Length ${JSON.stringify(value)}`);
    length = Number(value);
  }
  if (length < 0) throw new FramingError('a message without Content-Length');
  if (length > maxBytes) throw new FramingError(`a message of ${length} bytes, over the ${maxBytes}-byte limit`);
  return length;
}
