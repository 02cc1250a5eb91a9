// Issue #7 item 4: `perfpipe ingest` at 1 GB and 10 GB of generated TJ, to show rate and peak RSS staying flat as
// the input grows. Long (about 15 minutes, 11 GB of input generated once into bench/work), so `npm run bench` runs it
// only when named: `npm run bench -- tj-ingest-scale`.
// Usage: npx tsx bench/tj-ingest-scale.ts [--sizes-mb 1000,10000]
import { parseArgs } from 'node:util';
import { run as runIngest } from './tj-ingest.js';
import { isMain } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';

export async function run(options: { sizesMb?: number[] } = {}): Promise<BenchResult> {
  const sizes = options.sizesMb ?? [1000, 10_000];
  const figures: BenchResult['figures'] = [];
  const notes: string[] = [];
  const input: BenchResult['input'] = {};
  const rates: number[] = [];
  const peaks: number[] = [];
  let ok = true;
  for (const sizeMb of sizes) {
    // One round each (the 10 GB one takes minutes), beside its read + decode ceiling; seed 11, not the tests' 42.
    const r = await runIngest({ sizeMb, seed: 11, rounds: 1 });
    ok &&= r.ok;
    const rate = r.figures.find((f) => f.unit === 'events/s')?.value ?? 0;
    const peak = r.figures.find((f) => f.unit === 'MiB')?.value ?? 0;
    const ratio = r.figures.find((f) => f.unit === '×')?.value ?? 0;
    rates.push(rate);
    peaks.push(peak);
    input[`bytes_${sizeMb}mb`] = r.input.bytes ?? 0;
    input[`events_${sizeMb}mb`] = r.input.events ?? 0;
    figures.push(
      { name: `ingest ${sizeMb} MB into embedded store`, value: rate, unit: 'events/s' },
      { name: `ingest ${sizeMb} MB / read + decode ceiling over the same files`, value: ratio, unit: '×' },
      { name: `ingest ${sizeMb} MB, peak RSS`, value: peak, unit: 'MiB' },
    );
    notes.push(`${sizeMb} MB: ${(r.notes ?? []).join(' ')}`);
  }
  if (sizes.length > 1) {
    figures.push(
      { name: `rate at ${sizes.at(-1)} MB / rate at ${sizes[0]} MB`, value: rates.at(-1)! / rates[0]!, unit: '×' },
      { name: `peak RSS at ${sizes.at(-1)} MB / at ${sizes[0]} MB`, value: peaks.at(-1)! / peaks[0]!, unit: '×' },
    );
  }
  return { bench: 'tj-ingest-scale', input, figures, ok, notes };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'sizes-mb': { type: 'string' } } });
  const r = await run(values['sizes-mb'] ? { sizesMb: values['sizes-mb'].split(',').map(Number) } : {});
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
}
