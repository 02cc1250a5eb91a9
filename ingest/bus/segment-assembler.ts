// Rebuilds segments from one partition's messages and says which offset is safe to commit.
//
// A producer sends a segment's messages in one send, so they normally sit next to each other; but an agent
// that crashed mid-send and replayed the range leaves a head (messages 0..k) followed by the full copy, and
// several agents share partitions. So parts are collected per segment id, not by position: a segment is
// complete when all `count` parts arrived; index 0 of an id already open means a replay, and the stale copy
// is dropped. The commit offset never passes the first message of a still-open segment, so a restart reads
// every open segment again from its start. Pure: no Kafka, no clock.
import type { Segment, TableRows } from './bus.js';
import { decodeMessage, type IncomingMessage, type SegmentHead, type SegmentPart } from './segment-codec.js';

export interface Rejected {
  message: IncomingMessage;
  reason: string;
}

export type AssemblyOutput =
  | { type: 'segment'; segment: Segment; lastOffset: bigint; invalid: Rejected[] }
  | { type: 'malformed'; rejected: Rejected; offset: bigint };

interface OpenSegment {
  head: SegmentHead;
  firstOffset: bigint;
  count: number;
  parts: Array<{ part: SegmentPart; message: IncomingMessage } | undefined>;
  received: number;
}

export class PartitionAssembler {
  readonly #open = new Map<string, OpenSegment>();
  #next: bigint | undefined;

  get openSegments(): number {
    return this.#open.size;
  }

  /** Forgets everything, e.g. after a rebalance, when reading restarts from the committed offset. */
  reset(): void {
    this.#open.clear();
    this.#next = undefined;
  }

  push(message: IncomingMessage): AssemblyOutput[] {
    const offset = BigInt(message.offset);
    // Reading went backwards: the consumer re-fetches from the committed offset, which is never past
    // an open segment's first message, so everything open will be read again.
    if (this.#next !== undefined && offset < this.#next) this.reset();
    this.#next = offset + 1n;
    const decoded = decodeMessage(message);
    if (!decoded.ok) return [{ type: 'malformed', rejected: { message, reason: decoded.reason }, offset }];
    const { part } = decoded;
    let open = this.#open.get(part.head.id);
    if (part.index === 0) {
      open = { head: part.head, firstOffset: offset, count: part.count, parts: new Array(part.count), received: 0 };
      this.#open.set(part.head.id, open);
    } else if (!open) {
      return [this.#malformed(message, offset, `part ${part.index} of segment ${part.head.id} arrived without its first part`)];
    } else if (open.count !== part.count) {
      return [this.#malformed(message, offset, `part ${part.index} of segment ${part.head.id} says count ${part.count}, its first part said ${open.count}`)];
    } else if (open.parts[part.index]) {
      return [this.#malformed(message, offset, `part ${part.index} of segment ${part.head.id} arrived twice`)];
    }
    open.parts[part.index] = { part, message };
    open.received += 1;
    if (open.received < open.count) return [];
    this.#open.delete(part.head.id);
    return [this.#complete(open, offset)];
  }

  /** The offset to commit once everything through `handled` was acknowledged. */
  commitOffset(handled: bigint): bigint {
    let safe = handled + 1n;
    for (const open of this.#open.values()) if (open.firstOffset < safe) safe = open.firstOffset;
    return safe;
  }

  #malformed(message: IncomingMessage, offset: bigint, reason: string): AssemblyOutput {
    return { type: 'malformed', rejected: { message, reason }, offset };
  }

  #complete(open: OpenSegment, lastOffset: bigint): AssemblyOutput {
    const segment: Segment = { ...open.head, records: 0, tables: [], errors: [] };
    const invalid: Rejected[] = [];
    // A table's parts in part order, joined once: the bytes go to the store as they came.
    const bodies = new Map<string, { rows: Omit<TableRows, 'body'>; parts: Buffer[] }>();
    let legacy: unknown[] | null = null;
    for (const slot of open.parts) {
      if (!slot) continue;
      const { payload } = slot.part;
      segment.records = slot.part.records;
      if (payload.record === 'empty') continue;
      if (payload.record === 'rows') {
        const { body, ...rows } = payload.rows;
        const key = `${rows.table}\u0000${rows.layout}`;
        const held = bodies.get(key);
        if (held) { held.rows.rows += rows.rows; held.parts.push(body); } else bodies.set(key, { rows: { ...rows }, parts: [body] });
        continue;
      }
      if (payload.record === 'events') for (const v of payload.values) (legacy ??= []).push(v);
      else for (const v of payload.values) segment.errors.push(v);
      if (payload.invalid !== null) invalid.push({ message: slot.message, reason: payload.invalid });
    }
    for (const { rows, parts } of bodies.values()) {
      segment.tables.push({ ...rows, body: parts.length === 1 ? parts[0] as Buffer : Buffer.concat(parts) });
    }
    if (legacy !== null) {
      segment.legacy = legacy;
      segment.records = legacy.length;
    }
    return { type: 'segment', segment, lastOffset, invalid };
  }
}
