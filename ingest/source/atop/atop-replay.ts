// Replays one atop raw log as `-P` text through the installed `atop -r` and hands out whole samples, each with the
// records and ingest errors the parser found in it (the same parser as the text source).
//
// Incremental reads: atop 2.8.1 takes a begin time only as `-b [YYYYMMDD]hhmm` (minutes, in the local time of the
// atop process; `hhmmss` is refused with the usage text). atop runs with TZ=UTC, so the begin time is the UTC
// minute of the epoch asked for and never falls into a DST gap or a repeated hour. Samples of that minute before
// the epoch come out again and the caller drops them by epoch. A begin time past the last record makes atop print
// the last record anyway (rawlog.c retries the last offset with the begin time cleared): dropped the same way.
//
// Since-boot samples: atop prints RESET before a record only when the record itself carries RRBOOT, which atop -w
// sets on the first sample after every atop start (rawlog.c: `flags = rr.flags & RRBOOT`; raw records hold deltas
// already, deviate.c). A read that begins mid-file with -b therefore starts with an ordinary interval sample, and
// an atop restart in the middle of a file still shows its RESET. The parser marks records after RESET, and only
// those, as since_boot: so a since-boot sample is never stored as rates, and no interval sample is lost.
//
// The end: atop exits 0 at the end of the file, and 7 with nothing on stderr when the last record is cut short
// because atop -w is still writing it (getrawsstat/getrawtstat fail, cleanstop(7)); every sample before it was
// printed whole, up to its SEP. Any other exit, or 7 with a message (another atop version, not a raw log), fails.
import { spawn } from 'node:child_process';
import { createAtopParser } from '../../../parsers/atop/index.js';
import { groupSamples } from '../../../parsers/atop/derive.js';
import type { AtopRecord } from '../../../schemas/atop-record.js';
import type { IngestError } from '../../../schemas/ingest-error.js';
import { holdUntilSampleEnd } from './atop-samples.js';

export interface RawSample {
  epoch: number;
  /**
   * Records with `origin.offset` set to the sample's epoch: a replay starting elsewhere gives equal records but
   * for `sample`, which counts from the read's start (the raw reader renumbers it per segment).
   */
  records: AtopRecord[];
  errors: IngestError[];
  /** Bytes of `-P` text the sample took. */
  bytes: number;
}

export interface ReplayOptions {
  command: string;
  file: string;
  fileKey: string;
  host: string;
  source: string;
  labels: string[];
  /** Read from the minute holding this epoch (`-b`); null reads the file from its start. */
  fromEpoch: number | null;
  signal: AbortSignal;
}

export type ReplayEnd =
  /** Read to the end of the file; `cut`: its last record was still being written. */
  | { kind: 'end'; cut: boolean; errors: IngestError[] }
  /** The sample callback asked to stop, or the source is stopping. */
  | { kind: 'stopped'; errors: IngestError[] }
  | { kind: 'failed'; reason: string; errors: IngestError[] };

/** atop's `-b` argument: the UTC minute holding `epoch`, as `YYYYMMDDhhmm`. */
export function beginArgument(epoch: number): string {
  return new Date(epoch * 1000).toISOString().slice(0, 16).replace(/[-T:]/g, '');
}

/** Runs the replay; `onSample` gets each whole sample in file order and returns false to stop reading. */
export async function replayRawLog(o: ReplayOptions, onSample: (s: RawSample) => Promise<boolean>): Promise<ReplayEnd> {
  const args = ['-r', o.file, '-P', o.labels.join(','), ...(o.fromEpoch === null ? [] : ['-b', beginArgument(o.fromEpoch)])];
  const child = spawn(o.command, args, { env: { ...process.env, TZ: 'UTC' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-2048); });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  const kill = (): void => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM'); };
  o.signal.addEventListener('abort', kill, { once: true });
  const parser = holdUntilSampleEnd(createAtopParser({ host: o.host, source: o.source, file: o.file, file_key: o.fileKey, offset: 0 }));
  const pending: IngestError[] = [];
  let stopped = false;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const out = parser.push(chunk);
      const { samples, leftover } = splitSamples(out.events, [...pending.splice(0), ...out.errors], parser.settled);
      pending.push(...leftover);
      for (const sample of samples) {
        if (o.signal.aborted || !(await onSample(sample))) { stopped = true; break; }
      }
      if (stopped) break;
    }
  } catch (error) {
    kill();
    if (!o.signal.aborted) throw error;
  } finally {
    o.signal.removeEventListener('abort', kill);
  }
  // Only a read we cut short is killed: at the end of its output atop is exiting with the status we want to see.
  if (stopped) kill();
  const end = await exited;
  if (stopped || o.signal.aborted) return { kind: 'stopped', errors: pending };
  if (end.error) return { kind: 'failed', reason: `cannot run ${o.command}: ${end.error.message}`, errors: pending };
  if (end.code === 0) return { kind: 'end', cut: false, errors: pending };
  if (end.code === 7 && stderr.trim() === '') return { kind: 'end', cut: true, errors: pending };
  return { kind: 'failed', reason: `${o.command} ${args.join(' ')} exited ${end.code}: ${stderr.trim() || '(no message)'}`, errors: pending };
}

/**
 * Whole samples from records the held parser released, each with the errors among its lines: an error goes with the
 * last sample starting at or before it (errors ahead of the first sample go with the first). Errors released without
 * any sample come back as `leftover` and go with the next one.
 */
function splitSamples(events: AtopRecord[], errors: IngestError[], settled: number): { samples: RawSample[]; leftover: IngestError[] } {
  const groups = groupSamples(events);
  if (groups.length === 0) return { samples: [], leftover: errors };
  const starts = groups.map((g) => g[0]!.origin.offset);
  const theirs: IngestError[][] = groups.map(() => []);
  for (const e of errors) {
    let i = 0;
    while (i + 1 < starts.length && starts[i + 1]! <= e.offset) i++;
    theirs[i]!.push(e);
  }
  const samples = groups.map((records, i): RawSample => {
    const epoch = records[0]!.epoch;
    return {
      epoch,
      bytes: (starts[i + 1] ?? settled) - starts[i]!,
      records: records.map((r) => ({ ...r, origin: { ...r.origin, offset: epoch } })),
      errors: theirs[i]!.map((e) => ({ ...e, offset: epoch })),
    };
  });
  return { samples, leftover: [] };
}
