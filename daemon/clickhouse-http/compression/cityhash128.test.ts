// Test vectors from ClickHouse itself: a TinyLog table's column file is a run of ClickHouse compressed blocks, each
// behind the CityHash128 (1.0.2) the engine computed. Blocks of 11 bytes to over 100 KB cover every branch (the
// short paths below 16 and 128 bytes, the long loop and its tail).
import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'chdb';
import { cityHash128 } from './cityhash128.js';
import { compressBlocks, createBlockDecoder } from './compressed-block.js';

function findFile(dir: string, name: string): string | null {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) { const found = findFile(path, name); if (found) return found; } else if (entry === name) return path;
  }
  return null;
}

let blocks: Buffer;
test.before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-cityhash-'));
  const session = new Session(dir);
  try {
    await session.queryAsync('CREATE TABLE tl (s String) ENGINE = TinyLog');
    await session.queryAsync("INSERT INTO tl SELECT toString(number) || repeat('ab', number % 50) FROM numbers(300000)");
    for (let n = 0; n < 160; n += 3) await session.queryAsync(`INSERT INTO tl SELECT randomPrintableASCII(${n}) FROM numbers(1)`);
  } finally {
    session.close();
  }
  blocks = readFileSync(findFile(dir, 's.bin') ?? '');
  rmSync(dir, { recursive: true, force: true });
});

test('CityHash128 1.0.2 gives the checksum ClickHouse wrote before each of its compressed blocks', (t) => {
  let at = 0;
  const sizes: number[] = [];
  while (at < blocks.length) {
    const size = blocks.readUInt32LE(at + 17);
    const h = cityHash128(blocks.subarray(at + 16, at + 16 + size));
    t.is(h.low, blocks.readBigUInt64LE(at), `block of ${size} bytes, low half`);
    t.is(h.high, blocks.readBigUInt64LE(at + 8), `block of ${size} bytes, high half`);
    sizes.push(size);
    at += 16 + size;
  }
  t.true(Math.min(...sizes) < 16 && sizes.some((s) => s > 16 && s < 128) && Math.max(...sizes) > 100_000, `sizes ${Math.min(...sizes)}…${Math.max(...sizes)}`);
});

test('ClickHouse\'s blocks decode to their column, and blocks written here decode back to their bytes', async (t) => {
  const decode = async (data: Buffer): Promise<Buffer> => {
    const d = createBlockDecoder(true);
    const parts: Buffer[] = [];
    d.on('data', (c: Buffer) => parts.push(c));
    const done = new Promise((resolve, reject) => { d.on('end', resolve); d.on('error', reject); });
    for (let i = 0; i < data.length; i += 7777) d.write(data.subarray(i, i + 7777));
    d.end();
    await done;
    return Buffer.concat(parts);
  };
  const column = await decode(blocks);
  t.is(column[0], 1, 'the first string, "0", has length 1');
  t.is(column.subarray(1, 2).toString(), '0');
  const text = Buffer.from('perfpipe '.repeat(300_000));
  t.true((await decode(compressBlocks(text))).equals(text));
  const corrupt = compressBlocks(text);
  corrupt[40] = (corrupt[40] as number) ^ 0xff;
  await t.throwsAsync(decode(corrupt), { message: /^Checksum doesn't match: corrupted data in compressed block 0/ });
});
