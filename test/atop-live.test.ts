// Runs the installed atop (scripts/test-env.sh installs it; reported skipped when absent, failing under CI=true): live -P output of this host parses
// without errors, and a raw log replayed with -P gives CPU and disk figures equal to atopsar's.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AtopRecord } from '../schemas/atop-record.js';
import { createAtopParser } from '../parsers/atop/index.js';
import { deriveSample, groupSamples } from '../parsers/atop/derive.js';
import { missingPrograms, testIf } from './support/prerequisites.js';

const maybe = testIf(missingPrograms('atop', 'atopsar'), { serial: true });

function parse(text: string) {
  const parser = createAtopParser({ host: 'agent', source: 'atop', file: 'live', file_key: 'k', offset: 0 });
  const out = parser.push(Buffer.from(text));
  const end = parser.finish();
  return { events: [...out.events, ...end.events] as AtopRecord[], errors: [...out.errors, ...end.errors] };
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', timeout: 60_000, maxBuffer: 256 << 20 });

maybe('live atop -P ALL of this host parses with zero errors and a since-boot first sample', (t) => {
  const text = run('atop', ['-P', 'ALL', '1', '2']);
  const { events, errors } = parse(text);
  t.deepEqual(errors, []);
  const dataLines = text.split('\n').filter((l) => l !== '' && l !== 'SEP' && l !== 'RESET').length;
  t.is(events.length, dataLines);
  t.true(events.filter((e) => e.sample === 0).every((e) => e.since_boot));
  t.true(events.filter((e) => e.sample === 1).every((e) => !e.since_boot));
});

maybe('a raw log replayed with -P gives the CPU and disk figures atopsar prints for it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-atop-'));
  try {
    const raw = join(dir, 'atop.raw');
    run('atop', ['-w', raw, '1', '4']);
    const { events, errors } = parse(run('atop', ['-r', raw, '-P', 'CPU,cpu,LVM,MDD,DSK']));
    t.deepEqual(errors, []);
    const byTime = new Map(groupSamples(events).map((s) => [s[0]!.time, deriveSample(s)!] as const));
    let section = '';
    let time = '';
    let checked = 0;
    for (const line of run('atopsar', ['-r', raw, '-c', '-d']).split('\n')) {
      const words = line.trim().split(/\s+/).filter((w) => w !== '');
      if (words.at(-1) === '_cpu_' || words.at(-1) === '_dsk_') {
        section = words.at(-1)!;
        continue;
      }
      if (words.length === 0 || line.startsWith('-')) continue;
      if (/^\d\d:\d\d:\d\d$/.test(words[0]!)) time = words.shift()!;
      const m = byTime.get(time);
      if (m === undefined || words.length === 0) continue;
      const close = (v: number, printed: string) => Math.abs(v - Number(printed)) <= 0.5 * 10 ** -(printed.split('.')[1]?.length ?? 0) + 1e-9;
      if (section === '_cpu_' && m.cpu !== null) {
        const u = words[0] === 'all' ? m.cpu.total : m.cpu.per_cpu.find((c) => c.cpu === Number(words[0]));
        if (u === undefined) return t.fail(`cpu ${words[0]} missing at ${time}`);
        const ours = [u.user_pct, u.nice_pct, u.system_pct, u.irq_pct, u.softirq_pct, u.steal_pct, u.guest_pct, u.iowait_pct, u.idle_pct];
        ours.forEach((v, i) => t.true(close(v, words[i + 1]!), `${time} cpu ${words[0]} column ${i}: ${v} vs ${words[i + 1]}`));
        checked += 1;
      } else if (section === '_dsk_') {
        const d = m.disks.find((x) => x.name === words[0]);
        if (d === undefined) return t.fail(`disk ${words[0]} missing at ${time}`);
        t.true(close(d.busy_pct, words[1]!.replace('%', '')), `${time} ${words[0]} busy`);
        t.true(close(d.reads_per_s, words[2]!) && close(d.writes_per_s, words[4]!), `${time} ${words[0]} IOPS`);
        checked += 1;
      }
    }
    t.true(checked >= 3, `compared ${checked} atopsar lines`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
