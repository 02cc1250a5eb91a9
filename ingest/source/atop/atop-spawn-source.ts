// The `atop_spawn` source: perfpipe runs `atop -P LABELS INTERVAL` itself (atop-process.ts keeps it running) and
// reads its stdout as a stream through the same parser, held to whole samples (atop-samples.ts), into the same
// segments and tables as the text source. Each atop run is one stream with its own key; its first sample is the
// since-boot one (RESET), which the parser marks and the sink does not store, so a restarted atop costs one
// interval of data and never a since-boot sample stored as rates.
//
// Segments cover byte ranges of the run's output and are published as each sample closes. Nothing is replayed:
// a sample that was not acknowledged when perfpipe stopped is gone with the atop run that printed it, so no
// checkpoint is kept and no sample can be stored twice.
import type { Readable } from 'node:stream';
import { createAtopParser } from '../../../parsers/atop/index.js';
import type { Family, Segment } from '../../bus/bus.js';
import { segmentId } from '../../bus/bus.js';
import { buildRows, type RowBuilder } from '../../rows/row-builder.js';
import { ConfigError, SourceError } from '../../errors/errors.js';
import { runSource, type Source } from '../source.js';
import type { SourceContext } from '../source-context.js';
import type { AtopSpawnSourceConfig } from './atop-spawn-source-config.js';
import type { SourceEvents } from '../source-events.js';
import { fnv1a64Hex } from '../fingerprint.js';
import { holdUntilSampleEnd } from './atop-samples.js';
import { publishUntilAcked } from '../publish-until-acked.js';
import { superviseAtop, type AtopProcess, type AtopRun } from './atop-process.js';
import { waitAtMost } from '../../retry/sleep.js';

export interface AtopSpawnSourceOptions {
  /** The atop executable. */
  command: string;
  interval_s: number;
  labels: string[];
  restart_backoff_max_s: number;
  host: string;
  /** Written into every record's origin and error: `atop_spawn`. */
  source: string;
  /** The family its segments carry, and a builder of its rows (its descriptor's). */
  family: Family;
  createRows(): RowBuilder;
  publish(segment: Segment): Promise<void>;
  events: SourceEvents;
  mode: 'follow' | 'backfill';
}

export function createAtopSpawnSource(o: AtopSpawnSourceOptions): Source {
  if (o.mode === 'backfill') {
    throw new ConfigError('an atop_spawn source samples this host live: run it with `perfpipe run` or `perfpipe agent`, not `ingest`');
  }
  const args = ['-P', o.labels.join(','), String(o.interval_s)];
  const abort = new AbortController();
  let atop: AtopProcess | null = null;

  /** One run's output, published sample by sample; true once it delivered an interval sample. */
  async function read(stdout: Readable, run: AtopRun): Promise<boolean> {
    const file = `${o.command} ${args.join(' ')} [pid ${run.pid}]`;
    const fileKey = `spawn-${fnv1a64Hex(Buffer.from(`${o.host}|${run.pid}|${run.startedAt}`))}`;
    o.events.fileAdded(file, fileKey, 0);
    const parser = holdUntilSampleEnd(createAtopParser({ host: o.host, source: o.source, file, file_key: fileKey, offset: 0 }));
    let start = 0;
    let healthy = false;
    for await (const chunk of stdout as AsyncIterable<Buffer>) {
      o.events.bytesRead(file, chunk.length);
      const out = parser.push(chunk);
      if (out.events.length === 0 && out.errors.length === 0) continue;
      const end = parser.settled;
      const segment: Segment = {
        id: segmentId(o.host, fileKey, start, end), family: o.family, host: o.host, source: o.source,
        file, file_key: fileKey, start, end, ...buildRows(o.createRows, out.events), errors: out.errors,
      };
      if (!(await publishUntilAcked(o.publish, segment, o.events, abort.signal, end - start))) break;
      start = end;
      healthy ||= out.events.some((e) => !e.since_boot);
    }
    // A sample cut off by the end of the run (atop killed mid-sample) is left out: stored, it would lack lines.
    o.events.fileFinished(file, fileKey, start);
    return healthy;
  }

  return runSource(abort, {
    begin() {
      atop = superviseAtop({
        command: o.command, args, read, maxBackoffMs: o.restart_backoff_max_s * 1000,
        ended: (run, reason, retryMs) => o.events.readFailed(
          run === null ? o.command : `${o.command} [pid ${run.pid}]`,
          new SourceError(`${reason}; starting it again in ${retryMs / 1000} s`, o.command),
        ),
      });
      return null;
    },
    async end() {
      // atop is gone once this resolves; a publish still with the bus gets 5 s to be acknowledged.
      await waitAtMost(atop?.stop(), 5000);
    },
  });
}

/** An `atop_spawn` entry's source: what atop-family.ts loads once one is configured. */
export function createSource(s: AtopSpawnSourceConfig, ctx: SourceContext): Source {
  return createAtopSpawnSource({
    ...ctx, source: s.type, command: s.location, interval_s: s.interval_s, labels: s.labels,
    restart_backoff_max_s: s.restart_backoff_max_s,
  });
}
