// `perfpipe ingest --tj DIR`: one-shot backfill of everything under the locations, with progress on
// a terminal and a summary line. Checkpoints make a second run over the same files store nothing new.
import type { Logger } from 'pino';
import { startPipeline } from '../../daemon/pipeline.js';
import { configFromFlags } from '../flags/config-from-flags.js';
import { SourceError } from '../../ingest/errors/errors.js';
import { explainSourcesWithNothingToRead } from '../../daemon/assembly/nothing-to-read.js';
import { clockWarnings, ingestSpans, storeNowS } from '../../queries/reports/clock-check.js';
import { tjLocationZone } from '../../ingest/source/tj/tj-zone.js';

const USAGE = 'perfpipe ingest (--tj DIR|FILE | --pg DIR|FILE [--pg-prefix P] [--pg-format stderr|csvlog|jsonlog] [--pg-filename PATTERN] | --apdex DIR|FILE | --atop PATH | --atop-raw DIR) [--tz ZONE] [--hour YYMMDDHH] [--host NAME] [--data DIR | --clickhouse URL] [--config FILE]';

export async function ingestCommand(argv: string[], log: Logger): Promise<number> {
  const { config, help } = configFromFlags(argv, USAGE);
  if (help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  // A backfill that finds no file says why instead of "ingested 0 events from 0 files" (issue #15); it fails only
  // when no source has anything, so one empty location among several does not stop the others.
  const nothing = await explainSourcesWithNothingToRead(config.sources);
  if (nothing.length === config.sources.length) {
    const first = config.sources[0];
    throw new SourceError(`nothing to read:\n  ${nothing.join('\n  ')}`, first && 'location' in first ? first.location : '', { permanent: true });
  }
  for (const reason of nothing) process.stderr.write(`perfpipe: nothing to read: ${reason}\n`);
  const t0 = performance.now();
  const startedS = Math.floor(Date.now() / 1000) - 1;
  const pipeline = await startPipeline(config, 'backfill', log);
  const m = pipeline.metrics;
  // One clock (issue 30): the TJ and the PostgreSQL log or atop of the same run must not sit whole hours apart. Rows
  // of this ingest are those stamped since it started, by the store's clock (a server's may differ from ours).
  const tjZones = [...new Set(config.sources.flatMap((src) => (src.type === 'tj' ? [src.tz ?? tjLocationZone(src.location).zone] : [])))];
  const checkClock = tjZones.length > 0 && config.sources.some((src) => src.type !== 'tj' && src.type !== 'apdex');
  const since = checkClock ? startedS + (await storeNowS(pipeline.store.client) - Math.floor(Date.now() / 1000)) : 0;
  const progress = process.stderr.isTTY ? setInterval(() => {
    const s = (performance.now() - t0) / 1000;
    const read = m.total('perfpipe_source_bytes_total');
    const total = pipeline.sources.reduce((a, src) => a + src.totalBytes, 0);
    const rate = read / s;
    const eta = rate > 0 && total > read ? ` ETA ${Math.ceil((total - read) / rate)} s` : '';
    process.stderr.write(`\r${mb(read)}/${mb(total)} MB, ${Math.round(m.total('perfpipe_events_total') / s)} events/s${eta}   `);
  }, 500) : null;
  const stop = (): void => { void pipeline.stop(); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await pipeline.done();
  if (progress) { clearInterval(progress); process.stderr.write('\n'); }
  const s = (performance.now() - t0) / 1000;
  const events = m.total('perfpipe_events_total');
  const errors = m.total('perfpipe_ingest_errors_total');
  const files = m.total('perfpipe_files_added_total');
  const where = pipeline.store.where;
  const clock = checkClock ? clockWarnings(await ingestSpans(pipeline.store.client, since), tjZones) : [];
  // PostgreSQL logs no log_line_prefix fits were not read (each named with its lines above): a failure, not a success.
  const unframed = m.total('perfpipe_pg_unframed_files_total');
  await pipeline.stop();
  process.stdout.write(`ingested ${events} events and ${errors} ingest errors from ${files} files (${mb(m.total('perfpipe_source_bytes_total'))} MB) in ${s.toFixed(1)} s, ${Math.round(events / s)} events/s, into ${where}\n`);
  for (const w of clock) process.stderr.write(`perfpipe: warning: ${w}\n`);
  if (unframed > 0) {
    process.stderr.write(`perfpipe: ${unframed} PostgreSQL log file${unframed === 1 ? ' was' : 's were'} not read: no log_line_prefix fits ${unframed === 1 ? 'its' : 'their'} first lines (named above); `
      + 'give the server\'s with --pg-prefix (psql: SHOW log_line_prefix) and run the same ingest again\n');
    return 1;
  }
  return 0;
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
