import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apdexSourceParts, endsWithRootClose, listExportFiles } from './apdex-source.js';
import { encodeExport, writeApdexExport } from '../../../simulate/apdex-export.js';
import { FIXTURE_OPERATIONS } from '../../../simulate/apdex-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'perfpipe-apdexsrc-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const whole = encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'attributes' }));
const half = whole.subarray(0, Math.floor(whole.length / 2));

async function identify(parts: ReturnType<typeof apdexSourceParts>, path: string) {
  const handle = await open(path, 'r');
  try {
    const st = await handle.stat();
    return await parts.identify!(path, handle, st.dev, st.ino, false);
  } finally {
    await handle.close();
  }
}

test('only the matching files at the top of the directory are listed, oldest name first', async (t) => {
  const d = join(dir, 'list');
  mkdirSync(join(d, 'old.xml'), { recursive: true });
  for (const f of ['2026-11-30 12-00-00-00002.xml', '2026-11-30 12-00-00-00001.XML', 'notes.txt', '.hidden.xml']) writeFileSync(join(d, f), 'x');
  t.deepEqual(await listExportFiles(d, '*.xml'), [join(d, '2026-11-30 12-00-00-00001.XML'), join(d, '2026-11-30 12-00-00-00002.xml')]);
  t.deepEqual(await listExportFiles(join(dir, 'missing'), '*.xml'), []);
});

test('the closing root tag is found with a prefix, trailing space or in UTF-16', (t) => {
  t.true(endsWithRootClose(whole));
  t.true(endsWithRootClose(Buffer.from('<a:Performance>\n</a:Performance >\r\n')));
  t.true(endsWithRootClose(encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'elements' }), 'utf16le')));
  t.false(endsWithRootClose(half));
});

test('follow: a half-written export waits, the complete one is read and finished at once', async (t) => {
  const parts = apdexSourceParts({ location: dir, pattern: '*.xml', idle_finish_ms: 60_000 }, 'h', 'follow');
  const path = join(dir, 'a.xml');
  writeFileSync(path, half);
  t.is(await identify(parts, path), null);
  t.false(parts.isSuperseded(path, [path], 0));
  writeFileSync(path, whole);
  const id = await identify(parts, path);
  t.truthy(id);
  t.true(parts.isSuperseded(path, [path], 0));
  t.deepEqual(await identify(parts, path), id, 'an unchanged file keeps its key');
});

test('follow: new content under the same name is a new file; a half file left alone is read after the idle time', async (t) => {
  const parts = apdexSourceParts({ location: dir, pattern: '*.xml', idle_finish_ms: 60_000 }, 'h', 'follow');
  const path = join(dir, 'b.xml');
  writeFileSync(path, whole);
  const first = await identify(parts, path);
  writeFileSync(path, encodeExport(writeApdexExport(FIXTURE_OPERATIONS.slice(1), { shape: 'attributes' })));
  const second = await identify(parts, path);
  t.truthy(first && second);
  t.is(first?.ino, second?.ino, 'rewritten in place');
  t.not(first?.file_key, second?.file_key);
  writeFileSync(path, half);
  t.is(await identify(parts, path), null);
  const past = new Date(Date.now() - 120_000);
  utimesSync(path, past, past);
  t.truthy(await identify(parts, path));
});

test('backfill reads what is there, complete or not', async (t) => {
  const parts = apdexSourceParts({ location: dir, pattern: '*.xml', idle_finish_ms: 60_000 }, 'h', 'backfill');
  const path = join(dir, 'c.xml');
  writeFileSync(path, half);
  t.truthy(await identify(parts, path));
});
