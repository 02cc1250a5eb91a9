// The APDEX source in follow mode (`perfpipe run`), in process on the embedded store: an export that appears
// whole is stored at once; one written in two steps waits for its closing tag; a file rewritten under the same
// name with new content is read again as a new file, and the old rows stay.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../ingest/config/config.js';
import { startPipeline, type Pipeline } from '../daemon/pipeline.js';
import { createLogger } from '../ingest/observe/logger.js';
import { encodeExport, writeApdexExport } from '../simulate/apdex-export.js';
import { FIXTURE_OPERATIONS, FIXTURE_START_MS } from '../simulate/apdex-fixture.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-apdexfollow-'));
const dir = join(work, 'export');
mkdirSync(dir);
let pipeline: Pipeline;

test.before(async () => {
  // idle_finish_s is long: any read in this test is triggered by a closing tag, never by the idle rule.
  const config = parseConfig({ data: join(work, 'data'), sources: [{ type: 'apdex', location: dir, idle_finish_s: 600 }], pipeline: { poll_interval_ms: 100 } });
  pipeline = await startPipeline(config, 'follow', createLogger('silent'));
});
test.after.always(async () => {
  await pipeline?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function count(): Promise<number> {
  const rs = await pipeline.store.client.query({ query: 'SELECT count() AS n FROM apdex_measurements', format: 'JSONEachRow' });
  return Number(((await rs.json()) as Array<{ n: string }>)[0]?.n);
}

async function until(n: number, ms = 15_000): Promise<number> {
  const deadline = Date.now() + ms;
  let c = await count();
  while (c !== n && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    c = await count();
  }
  return c;
}

let probes = 0;
/**
 * Proof that the source looked at every export file since the call: an export of one key operation without
 * measurements, under a later name, is stored (a key_operations row; the measurement count stays). The scan that
 * read it listed and weighed the older files too.
 */
async function scanned(): Promise<void> {
  const name = `Probe${++probes}`;
  writeFileSync(join(dir, `2026-11-30 13-00-00-${String(probes).padStart(5, '0')}.xml`),
    encodeExport(writeApdexExport([{ uid: `00000000-0000-4000-8000-${String(probes).padStart(12, '0')}`, name, nameFull: name, measurements: [] }], { shape: 'attributes' })));
  const stored = async () => {
    const rs = await pipeline.store.client.query({ query: 'SELECT count() AS n FROM key_operations WHERE name = {name:String}', query_params: { name }, format: 'JSONEachRow' });
    return Number(((await rs.json()) as Array<{ n: string }>)[0]?.n) > 0;
  };
  const deadline = Date.now() + 15_000;
  while (!(await stored())) {
    if (Date.now() > deadline) throw new Error(`the probe export ${name} was not stored within 15 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const [A, B, C] = FIXTURE_OPERATIONS as [(typeof FIXTURE_OPERATIONS)[number], (typeof FIXTURE_OPERATIONS)[number], (typeof FIXTURE_OPERATIONS)[number]];

test.serial('an export that appears whole is stored at once', async (t) => {
  writeFileSync(join(dir, '2026-11-30 12-00-00-00001.xml'), encodeExport(writeApdexExport([A], { shape: 'attributes' })));
  t.is(await until(8), 8);
});

test.serial('an export written in two steps is read only once its closing tag is there', async (t) => {
  const bytes = encodeExport(writeApdexExport([B], { shape: 'attributes' }));
  const path = join(dir, '2026-11-30 12-00-00-00002.xml');
  writeFileSync(path, bytes.subarray(0, bytes.length - 40));
  await scanned();
  t.is(await count(), 8);
  writeFileSync(path, bytes);
  t.is(await until(13), 13);
});

test.serial('new content under a known name is a new file: its measurements are added, the old ones stay', async (t) => {
  const late = { ...C, measurements: [{ value: 0.5, startMs: FIXTURE_START_MS + 600_000 }] };
  writeFileSync(join(dir, '2026-11-30 12-00-00-00001.xml'), encodeExport(writeApdexExport([late], { shape: 'elements' })));
  t.is(await until(14), 14);
  await scanned();
  t.is(await count(), 14, 'nothing is read twice');
});
