// Cuts the byte stream into lines with their absolute file offsets, keeping a partial last line between
// pushes. A line longer than MAX_LINE (a binary raw log fed by mistake, say) is skipped, not buffered:
// only its start is kept for the error excerpt, so memory stays bounded.

/** Longest line kept: a CGR P line listing every PID of a big cgroup can run to tens of KiB. */
export const MAX_LINE = 1 << 20;
const EXCERPT_BYTES = 512;
const LF = 0x0a;

export interface Line {
  /** Offset of the first byte. */
  start: number;
  /** Offset after the line break (or after the last byte at the end of input). */
  next: number;
  /** The line without its line break (and without a trailing CR); for an oversized line, its first bytes. */
  bytes: Buffer;
  oversized: boolean;
}

export class LineFramer {
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private lineStart: number;
  private oversized = false;
  private keptBytes = 0;

  /** `maxLine` bounds a line's bytes: -P lines are small, a -J sample line holds every task of the host. */
  constructor(offset: number, private readonly maxLine = MAX_LINE) {
    this.lineStart = offset;
  }

  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let from = 0;
    for (let lf = chunk.indexOf(LF, from); lf >= 0; lf = chunk.indexOf(LF, from)) {
      this.keep(chunk.subarray(from, lf));
      lines.push(this.take(this.lineStart + this.pendingLength + 1));
      from = lf + 1;
    }
    this.keep(chunk.subarray(from));
    return lines;
  }

  /** Offset after the last byte pushed. */
  get position(): number {
    return this.lineStart + this.pendingLength;
  }

  /** The unterminated last line, if any bytes are left. */
  finish(): Line | null {
    if (this.pendingLength === 0) return null;
    return this.take(this.lineStart + this.pendingLength);
  }

  private keep(part: Buffer): void {
    if (part.length === 0) return;
    this.pendingLength += part.length;
    if (this.pendingLength > this.maxLine && !this.oversized) {
      this.oversized = true;
      const head = Buffer.concat(this.pending).subarray(0, EXCERPT_BYTES);
      this.pending = [head];
      this.keptBytes = head.length;
    }
    const room = (this.oversized ? EXCERPT_BYTES : this.maxLine) - this.keptBytes;
    if (room <= 0) return;
    // Copied: the caller may reuse the chunk's memory after push returns.
    const piece = Buffer.from(part.subarray(0, room));
    this.pending.push(piece);
    this.keptBytes += piece.length;
  }

  private take(next: number): Line {
    let bytes = Buffer.concat(this.pending);
    if (!this.oversized && bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    const line: Line = { start: this.lineStart, next, bytes, oversized: this.oversized };
    this.pending = [];
    this.pendingLength = 0;
    this.keptBytes = 0;
    this.oversized = false;
    this.lineStart = next;
    return line;
  }
}
