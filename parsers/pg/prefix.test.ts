// Case table for the log_line_prefix compiler: each row is a prefix, a line written by a server with it (or taken from
// docs/pg-format.md / the pgBadger fixtures), and the fields read by hand from that line.
import test from 'ava';
import { compilePrefix, type PrefixFields } from './prefix.js';

interface Case {
  title: string;
  prefix: string;
  line: string;
  fields: Partial<PrefixFields>;
  head: { type: 'sev' | 'label'; severity?: string; label?: string; word: string };
  /** The message text as it starts after the separator. */
  text: string;
}

const CASES: Case[] = [
  {
    title: 'Debian default `%m [%p] %q%u@%d ` with a client session',
    prefix: '%m [%p] %q%u@%d ',
    line: '2022-02-17 14:45:10.440 UTC [691] postgres@stackoverflow LOG:  duration: 0.140 ms',
    fields: { time: '2022-02-17 14:45:10.440 UTC', pid: 691, user: 'postgres', database: 'stackoverflow' },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'duration: 0.140 ms',
  },
  {
    title: 'Debian default stops at %q for the postmaster',
    prefix: '%m [%p] %q%u@%d ',
    line: '2025-01-21 18:32:48.288 CET [77898] FATAL:  configuration file "/etc/postgresql/17/main/postgresql.conf" contains errors',
    fields: { time: '2025-01-21 18:32:48.288 CET', pid: 77898, user: null, database: null },
    head: { type: 'sev', severity: 'FATAL', word: 'FATAL' }, text: 'configuration file "/etc/postgresql/17/main/postgresql.conf" contains errors',
  },
  {
    title: 'user and database names holding spaces are found by anchoring on the severity',
    prefix: '%m [%p] %q%u@%d ',
    line: '2026-11-30 14:09:45.442 UTC [15923] odd user@my shop ERROR:  boom',
    fields: { pid: 15923, user: 'odd user', database: 'my shop' },
    head: { type: 'sev', severity: 'ERROR', word: 'ERROR' }, text: 'boom',
  },
  {
    title: 'RDS `%t:%r:%u@%d:[%p]:` with a client, no space before the severity',
    prefix: '%t:%r:%u@%d:[%p]:',
    line: '2020-03-11 20:41:01 CET:10.0.0.5(52130):monitor@appdb:[12790]:LOG:  duration: 1.234 ms  statement: SELECT 1',
    fields: { time: '2020-03-11 20:41:01 CET', client: '10.0.0.5(52130)', user: 'monitor', database: 'appdb', pid: 12790 },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'duration: 1.234 ms  statement: SELECT 1',
  },
  {
    title: 'Azure `%t-%c-`: no %p, the pid is read from the session id (hex after the dot)',
    prefix: '%t-%c-',
    line: '2026-12-03 10:20:34 UTC-6b114272.1a2f-LOG:  duration: 0.345 ms  statement: SELECT 1',
    fields: { time: '2026-12-03 10:20:34 UTC', session_id: '6b114272.1a2f', pid: 6703 },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'duration: 0.345 ms  statement: SELECT 1',
  },
  {
    title: 'RDS prefix of a background process: zone stops at the colon, session fields empty',
    prefix: '%t:%r:%u@%d:[%p]:',
    line: '2020-03-11 20:40:43 CET::@:[12760]:LOG:  starting PostgreSQL 12.2',
    fields: { time: '2020-03-11 20:40:43 CET', client: null, user: null, database: null, pid: 12760 },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'starting PostgreSQL 12.2',
  },
  {
    title: 'generated corpus prefix with `[unknown]` before authentication',
    prefix: '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ',
    line: '2026-11-30 14:09:45.508 UTC [15926]: [1-1] user=[unknown],db=[unknown],app=[unknown],client=127.0.0.1 LOG:  connection received: host=127.0.0.1 port=34814',
    fields: { pid: 15926, line_num: 1, user: null, database: null, application: null, client: '127.0.0.1' },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'connection received: host=127.0.0.1 port=34814',
  },
  {
    title: 'a DETAIL line carries the same prefix and is a label, not a new entry',
    prefix: '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ',
    line: '2026-11-30 14:09:45.948 UTC [15937]: [5-1] user=app,db=shop,app=sessB,client=127.0.0.1 DETAIL:  Process holding the lock: 15932. Wait queue: 15937.',
    fields: { pid: 15937, line_num: 5, user: 'app', database: 'shop', application: 'sessB' },
    head: { type: 'label', label: 'DETAIL', word: 'DETAIL' }, text: 'Process holding the lock: 15932. Wait queue: 15937.',
  },
  {
    title: 'user name holding the separator `,` backtracks to the next literal that fits',
    prefix: '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ',
    line: '2026-11-30 14:09:45.948 UTC [1]: [2-1] user=a,b,db=d,app=x,client=10.1.1.1 LOG:  x',
    fields: { user: 'a,b', database: 'd', application: 'x' },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'x',
  },
  {
    title: 'application name with spaces and commas',
    prefix: '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ',
    line: '2026-11-30 14:09:45.948 UTC [1]: [2-1] user=u,db=d,app=1C:Enterprise 8.3, rphost,client=10.1.1.1 LOG:  x',
    fields: { application: '1C:Enterprise 8.3, rphost', client: '10.1.1.1' },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'x',
  },
  {
    title: 'a rich prefix (every escape of docs/pg-format.md §3), client backend',
    prefix: '%m %n [%p] %c:%l %s vxid=%v xid=%x sqlstate=%e qid=%Q type=%b %q%u@%d app=%a client=%r ',
    line: '2026-11-30 14:10:11.905 UTC 1796047811.905 [17545] 6b0d83c3.4489:4 2026-11-30 14:10:11 UTC vxid=4/2 xid=925 sqlstate=00000 qid=-1249988261523267271 type=client backend app@shop app=sessB client=127.0.0.1(51994) LOG:  process 17545 still waiting for ShareLock on transaction 924 after 100.166 ms',
    fields: {
      time: '2026-11-30 14:10:11.905 UTC', epoch: '1796047811.905', pid: 17545, session_id: '6b0d83c3.4489', line_num: 4,
      session_start: '2026-11-30 14:10:11 UTC', vxid: '4/2', xid: 925, sqlstate: '00000', query_id: '-1249988261523267271',
      backend_type: 'client backend', user: 'app', database: 'shop', application: 'sessB', client: '127.0.0.1(51994)',
    },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'process 17545 still waiting for ShareLock on transaction 924 after 100.166 ms',
  },
  {
    title: 'rich prefix of a postmaster line stops at %q, empty vxid',
    prefix: '%m %n [%p] %c:%l %s vxid=%v xid=%x sqlstate=%e qid=%Q type=%b %q%u@%d app=%a client=%r ',
    line: '2026-11-30 14:10:11.000 UTC 1796047811.000 [17500] 6b0d83c3.445c:7 2026-11-30 14:10:05 UTC vxid= xid=0 sqlstate=00000 qid=0 type=postmaster LOG:  received fast shutdown request',
    fields: { pid: 17500, vxid: null, xid: 0, backend_type: 'postmaster', user: null, application: null, client: null },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'received fast shutdown request',
  },
  {
    title: 'Azure `%t-%c-`',
    prefix: '%t-%c-',
    line: '2024-05-01 10:00:00 UTC-6632a1b0.1f4-LOG:  checkpoint starting: time',
    fields: { time: '2024-05-01 10:00:00 UTC', session_id: '6632a1b0.1f4' },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'checkpoint starting: time',
  },
  {
    title: 'padding `%-10u` and `%5p`, `%%` literal, `%P` `%i` and unknown escapes',
    prefix: '%t [%5p/%P] %-10u %i 100%% %Z',
    line: '2024-05-01 10:00:00 +03 [  123/] bob        idle in transaction 100% WARNING:  there is no transaction in progress',
    fields: { time: '2024-05-01 10:00:00 +03', pid: 123, leader_pid: null, user: 'bob', command_tag: 'idle in transaction' },
    head: { type: 'sev', severity: 'WARNING', word: 'WARNING' }, text: 'there is no transaction in progress',
  },
  {
    title: 'Russian severity and `[н/д]` unknown user',
    prefix: '%m [%p] %q%u@%d ',
    line: '2026-11-30 14:20:00.001 MSK [16883] [н/д]@[н/д] СООБЩЕНИЕ:  принято подключение: узел=[local]',
    fields: { time: '2026-11-30 14:20:00.001 MSK', pid: 16883, user: null, database: null },
    head: { type: 'sev', severity: 'LOG', word: 'СООБЩЕНИЕ' }, text: 'принято подключение: узел=[local]',
  },
  {
    title: 'Russian label ПОДРОБНОСТИ is a DETAIL line',
    prefix: '%m [%p] ',
    line: '2026-11-30 14:20:00.001 MSK [16883] ПОДРОБНОСТИ:  Process holding the lock: 16880. Wait queue: 16883.',
    fields: { pid: 16883 },
    head: { type: 'label', label: 'DETAIL', word: 'ПОДРОБНОСТИ' }, text: 'Process holding the lock: 16880. Wait queue: 16883.',
  },
  {
    title: 'French label with a space before the colon (`ASTUCE :`)',
    prefix: '%m [%p] ',
    line: '2026-11-30 14:20:00.001 CET [7] ASTUCE :  Voir les journaux',
    fields: { pid: 7 },
    head: { type: 'label', label: 'HINT', word: 'ASTUCE' }, text: 'Voir les journaux',
  },
  {
    title: 'German FEHLER severity and epoch prefix `%n`',
    prefix: '%n [%p] ',
    line: '1796047756.051 [42] FEHLER:  Relation »x« existiert nicht',
    fields: { epoch: '1796047756.051', pid: 42 },
    head: { type: 'sev', severity: 'ERROR', word: 'FEHLER' }, text: 'Relation »x« existiert nicht',
  },
  {
    title: 'no trailing space: `txid=%x` glued to the severity',
    prefix: '%m [%p] txid=%x',
    line: '2026-11-30 14:20:00.001 UTC [9] txid=0LOG:  checkpoint starting: time',
    fields: { pid: 9, xid: 0 },
    head: { type: 'sev', severity: 'LOG', word: 'LOG' }, text: 'checkpoint starting: time',
  },
];

for (const c of CASES) {
  test(`prefix: ${c.title}`, (t) => {
    const m = compilePrefix(c.prefix).match(c.line);
    if (m === null) return t.fail(`no match for ${c.line}`);
    for (const [k, v] of Object.entries(c.fields)) t.deepEqual(m.fields[k as keyof PrefixFields], v, k);
    t.is(m.head.type, c.head.type);
    t.is(m.head.word, c.head.word);
    if (c.head.severity !== undefined) t.is(m.head.severity as string | null, c.head.severity);
    if (c.head.label !== undefined) t.is(m.head.label as string | null, c.head.label);
    t.is(c.line.slice(m.head.textStart), c.text);
  });
}

const REJECTS: Array<[string, string, string]> = [
  ['a TAB continuation line', '%m [%p] ', '\tQuery Text: SELECT 1'],
  ['an orphan line from pg_ctl', '%m [%p] %q%u@%d ', 'pg_ctl: could not start server'],
  ['a prefixed line whose severity word is unknown', '%m [%p] ', '2026-11-30 14:20:00.001 UTC [9] LOGGING:  x'],
  ['a line written with another prefix', '%t [%p]: [%l-1] user=%u,db=%d ', '2026-11-30 14:20:00.001 UTC [9] LOG:  x'],
];
for (const [title, prefix, line] of REJECTS) {
  test(`prefix: rejects ${title}`, (t) => {
    t.is(compilePrefix(prefix).match(line), null);
  });
}
