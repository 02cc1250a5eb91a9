import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../ingest/config/config.js';
import { explainNothingToRead } from './nothing-to-read.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-nothing-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const source = (s: Record<string, unknown>) => parseConfig({ sources: [s as { type: 'pg'; location: string }] }).sources[0]!;

function dirWith(name: string, files: string[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f), 'x\n');
  return dir;
}

test('a PostgreSQL directory whose only log misses the default pattern names the file and the pattern', async (t) => {
  const dir = dirWith('pg-plain', ['postgresql.log']);
  t.is(await explainNothingToRead(source({ type: 'pg', location: dir })),
    `pg source ${JSON.stringify(dir)}: no file matches the log_filename pattern "postgresql-*"; it holds postgresql.log. `
    + 'Give the log file itself as the location, or its name pattern (--pg-filename, or filename: in the config)');
});

test('the pattern named is the destination\'s own: csvlog looks for .csv files', async (t) => {
  const dir = dirWith('pg-csv', ['postgresql-2026-11-30.log']);
  t.regex((await explainNothingToRead(source({ type: 'pg', location: dir, filename: 'postgresql-%Y-%m-%d.log', format: 'csvlog' }))) ?? '',
    /no file matches the log_filename pattern "postgresql-%Y-%m-%d\.csv" \(format csvlog\); it holds postgresql-2026-11-30\.log\./);
});

test('a log file given as the location has something to read whatever its name', async (t) => {
  const dir = dirWith('pg-file', ['postgresql.log']);
  t.is(await explainNothingToRead(source({ type: 'pg', location: join(dir, 'postgresql.log') })), null);
  t.is(await explainNothingToRead(source({ type: 'tj', location: join(dir, 'postgresql.log') })), null);
  t.is(await explainNothingToRead(source({ type: 'apdex', location: join(dir, 'postgresql.log') })), null);
});

test('a TJ location without *.log files lists what it holds, at most 8 names', async (t) => {
  const dir = dirWith('tj-none', ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt', 'g.txt', 'h.txt', 'i.txt', 'j.txt']);
  mkdirSync(join(dir, 'rphost_123'));
  t.is(await explainNothingToRead(source({ type: 'tj', location: dir })),
    `tj source ${JSON.stringify(dir)}: no *.log file in it or in its folders (up to 6 levels down); it holds a.txt, b.txt, c.txt, d.txt, e.txt, f.txt, g.txt, h.txt and 3 more`);
});

test('missing and empty locations say so; a location with matching files has nothing to explain', async (t) => {
  const missing = join(work, 'nowhere');
  t.is(await explainNothingToRead(source({ type: 'pg', location: missing })), `pg source ${JSON.stringify(missing)}: no such file or directory`);
  const empty = dirWith('empty', []);
  t.is(await explainNothingToRead(source({ type: 'apdex', location: empty })), `apdex source ${JSON.stringify(empty)}: the directory is empty`);
  t.is(await explainNothingToRead(source({ type: 'pg', location: dirWith('pg-ok', ['postgresql-2026-11-30_000000.log']) })), null);
  const atop = dirWith('atop', ['atop.log']);
  t.is(await explainNothingToRead(source({ type: 'atop', location: atop })),
    `atop source ${JSON.stringify(atop)}: no file matches the pattern "*.txt"; it holds atop.log. Give the file itself as the location, or its name pattern (pattern: in the config)`);
});
