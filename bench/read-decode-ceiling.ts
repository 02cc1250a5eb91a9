// The reference process of bench/parse-cli.ts: reads a TJ file in 1 MiB chunks, decodes it as UTF-8 with a streaming
// TextDecoder and counts event headers with one regex. About the least any TJ reader does, so the rate of
// `perfpipe parse tj` is given as a share of this one (issue #11: at least half).
// Usage: node dist/bench/read-decode-ceiling.js FILE…   → prints {"bytes":…,"headers":…} (the files one after another)
import { closeSync, openSync, readSync } from 'node:fs';
import { isMain } from './bench-paths.js';

const CHUNK = 1 << 20;
/** A line that starts like a TJ event header: `mm:ss.ffff[ff]-duration,NAME,depth`. */
const HEADER = /^\d\d:\d\d\.\d{4}(?:\d\d)?-\d+,\w+,\d+/gm;

function countHeaders(text: string): number {
  let n = 0;
  HEADER.lastIndex = 0;
  while (HEADER.exec(text) !== null) n++;
  return n;
}

export function readDecodeCount(path: string): { bytes: number; headers: number } {
  const decoder = new TextDecoder('utf-8');
  const buf = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(path, 'r');
  let bytes = 0;
  let headers = 0;
  let carry = ''; // the last line of a chunk, incomplete until the next one
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      const text = carry + (n === 0 ? decoder.decode() : decoder.decode(buf.subarray(0, n), { stream: true }));
      const cut = n === 0 ? text.length : text.lastIndexOf('\n') + 1;
      headers += countHeaders(text.slice(0, cut));
      carry = text.slice(cut);
      if (n === 0) break;
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  return { bytes, headers };
}

if (isMain(import.meta.url)) {
  const paths = process.argv.slice(2);
  if (paths.length === 0) {
    process.stderr.write('usage: read-decode-ceiling FILE…\n');
    process.exitCode = 2;
  } else {
    const total = { bytes: 0, headers: 0 };
    for (const path of paths) {
      const one = readDecodeCount(path);
      total.bytes += one.bytes;
      total.headers += one.headers;
    }
    process.stdout.write(`${JSON.stringify(total)}\n`);
  }
}
