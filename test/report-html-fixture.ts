// A small load test with answers known by construction, for the HTML report tests: the APDEX fixture export
// (simulate/apdex-fixture.ts), a TJ hour with managed-lock waits, a timeout and a deadlock, a PostgreSQL log with
// two lock waits, and an atop -P file whose CPU and disk busy % step by minute. All on 2026-11-30, 10:00–10:07 UTC.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeExport, writeApdexExport } from '../simulate/apdex-export.js';
import { FIXTURE_OPERATIONS } from '../simulate/apdex-fixture.js';

/** Contexts with every character HTML gives a meaning to, and a try at injecting markup. */
export const WRITE = `Форма.Записать <Номенклатура> & "Цены" 'опт'`;
export const INJECT = 'Обработка.</script><img src=x onerror=alert(1)><script>alert(2)</script>';
export const HOLDER = 'ОбщийМодуль.Цены.Модуль : 7 : Записать()';

const tjQuote = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** `MM:SS.ffffff-duration_us,EVENT,level,props` lines of hour 10 (docs/tj-format.md §2). */
const TJ = [
  `01:05.000000-0,TLOCK,6,p:processName=erp,t:connectID=18,Usr=Сидоров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=,Context=${tjQuote(HOLDER)}`,
  `01:20.000000-1500000,TLOCK,6,p:processName=erp,t:connectID=19,Usr=Петров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=18,Context=${tjQuote(WRITE)}`,
  `01:40.000000-500000,TLOCK,6,p:processName=erp,t:connectID=20,Usr=Иванов,Regions=AccumRg100.DIMS,Locks='AccumRg100.DIMS Exclusive Fld1=5',WaitConnections=18,Context=${tjQuote(INJECT)}`,
  `02:10.000000-20000000,TLOCK,6,p:processName=erp,t:connectID=19,Usr=Петров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=18,Context=${tjQuote(WRITE)}`,
  `02:10.000001-0,TTIMEOUT,5,p:processName=erp,t:connectID=19,Usr=Петров,WaitConnections=18,Context=${tjQuote(WRITE)}`,
  "04:36.115007-0,TDEADLOCK,6,p:processName=erp,t:connectID=17,Usr=DefUser,DeadlockConnectionIntersections='17 18 Reference10.REFLOCK Exclusive ID=10:9d31,18 17 Reference10.REFLOCK Exclusive ID=10:95aa',Context='Форма.Записать'",
  `04:50.000000-2000000,TLOCK,6,p:processName=erp,t:connectID=21,Usr=Иванов,Regions=InfoRg200.DIMS,Locks='InfoRg200.DIMS Shared Fld2=1',WaitConnections=17,Context='Документ.Провести'`,
  '',
].join('\n');

/** Expected per minute (Unix s of the minute → value), worked out from the lines above. */
const at = (hh: number, mm: number): number => Date.UTC(2026, 10, 30, hh, mm) / 1000;
export const EXPECT = {
  lockWaits: new Map([[at(10, 1), 2], [at(10, 2), 1], [at(10, 4), 1]]),
  lockTimeouts: new Map([[at(10, 2), 1]]),
  lockDeadlocks: new Map([[at(10, 4), 1]]),
  lockWaitS: new Map([[at(10, 1), 2], [at(10, 2), 20], [at(10, 4), 2]]),
  /** Lock space → total wait, s; largest first. */
  spaces: [['Reference10.REFLOCK · erp', 21.5], ['InfoRg200.DIMS · erp', 2], ['AccumRg100.DIMS · erp', 0.5]] as Array<[string, number]>,
  /** Per-minute APDEX of the fixture export (measurements every 20 s from 10:00:00, simulate/apdex-fixture.ts). */
  apdex: new Map<string, Map<number, number>>([
    ['ПроведениеДокументаЗаказКлиента', new Map([[at(10, 0), 1], [at(10, 1), 0.5], [at(10, 2), 0]])],
    ['ЗаписьСправочникаНоменклатура', new Map([[at(10, 2), 1], [at(10, 3), 0.833], [at(10, 4), 0]])],
    ['ФормированиеОтчетаОстатки', new Map([[at(10, 4), 1], [at(10, 5), 1]])],
  ]),
  pgAcquired: new Map([[at(10, 3), 1]]),
  pgTimeouts: new Map([[at(10, 6), 1]]),
  /** atop: one sample per minute 10:01–10:05 at :30. */
  cpuBusy: new Map([[at(10, 1), 10], [at(10, 2), 20], [at(10, 3), 30], [at(10, 4), 40], [at(10, 5), 50]]),
  diskBusy: new Map([[at(10, 1), 5], [at(10, 2), 15], [at(10, 3), 25], [at(10, 4), 35], [at(10, 5), 45]]),
};

const PG = [
  '2026-11-30 10:03:02.000 UTC [4242] LOG:  process 4242 still waiting for ShareLock on transaction 731 after 1000.123 ms',
  '2026-11-30 10:03:02.000 UTC [4242] DETAIL:  Process holding the lock: 4343. Wait queue: 4242.',
  '2026-11-30 10:03:02.000 UTC [4242] STATEMENT:  UPDATE _InfoRg20642 SET _Fld20643 = $1 WHERE _Fld20644 = \'<&>\'',
  '2026-11-30 10:03:04.500 UTC [4242] LOG:  process 4242 acquired ShareLock on transaction 731 after 3500.456 ms',
  '2026-11-30 10:03:04.500 UTC [4242] STATEMENT:  UPDATE _InfoRg20642 SET _Fld20643 = $1 WHERE _Fld20644 = \'<&>\'',
  '2026-11-30 10:06:01.000 UTC [4250] LOG:  process 4250 still waiting for RowExclusiveLock on relation 16500 of database 16384 after 1000.000 ms',
  '2026-11-30 10:06:01.000 UTC [4250] DETAIL:  Process holding the lock: 4343. Wait queue: 4250.',
  '2026-11-30 10:06:01.000 UTC [4250] STATEMENT:  INSERT INTO _AccumRg100 VALUES (1)',
  '2026-11-30 10:06:03.000 UTC [4250] ERROR:  canceling statement due to lock timeout',
  '2026-11-30 10:06:03.000 UTC [4250] STATEMENT:  INSERT INTO _AccumRg100 VALUES (1)',
  '',
].join('\n');

/** atop -P 2.8 lines (the corpus's layout): CPU ticks give busy %, DSK io_ms gives disk busy % over a 60 s sample. */
function atopText(): string {
  const lines: string[] = [];
  const sample = (epoch: number, interval: number, cpuBusy: number, diskBusy: number): void => {
    const d = new Date(epoch * 1000).toISOString();
    const head = (label: string) => `${label} db1 ${epoch} ${d.slice(0, 10).replaceAll('-', '/')} ${d.slice(11, 19)} ${interval}`;
    const total = interval * 100 * 2;
    const user = Math.round((total * cpuBusy) / 100);
    lines.push(`${head('CPU')} 100 2 0 ${user} 0 ${total - user} 0 0 0 0 0 2000 100 0 0`);
    lines.push(`${head('DSK')} vda ${Math.round(interval * 1000 * diskBusy / 100)} 10 80 20 160 0 0 0 1.00`);
    lines.push('SEP');
  };
  lines.push('RESET');
  sample(at(10, 0) + 30, 1000, 3, 3); // since boot: atop stores none of it
  for (let i = 1; i <= 5; i++) sample(at(10, i) + 30, 60, i * 10, i * 10 - 5);
  return `${lines.join('\n')}\n`;
}

/** Writes the four sources under `dir` and returns the ingest flags for them. */
export function writeFixture(dir: string): string[] {
  const tj = join(dir, 'tj', 'rphost_1');
  mkdirSync(tj, { recursive: true });
  writeFileSync(join(tj, '26113010.log'), `\uFEFF${TJ}`);
  mkdirSync(join(dir, 'pg'), { recursive: true });
  writeFileSync(join(dir, 'pg', 'postgresql-2026-11-30.log'), PG);
  mkdirSync(join(dir, 'apdex'), { recursive: true });
  writeFileSync(join(dir, 'apdex', 'export.xml'), encodeExport(writeApdexExport(FIXTURE_OPERATIONS, { shape: 'attributes' })));
  mkdirSync(join(dir, 'atop'), { recursive: true });
  writeFileSync(join(dir, 'atop', 'atop.txt'), atopText());
  return ['--tj', join(dir, 'tj'), '--pg', join(dir, 'pg'), '--apdex', join(dir, 'apdex'), '--atop', join(dir, 'atop', 'atop.txt'), '--tz', 'UTC'];
}
