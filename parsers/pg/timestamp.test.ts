// Time text → ISO-8601 UTC: zone forms PostgreSQL prints (docs/pg-format.md §3), with offsets worked out by hand.
import test from 'ava';
import { epochToIso, pgTimeToIso } from './timestamp.js';

const CASES: Array<[text: string, tz: string | undefined, iso: string | null]> = [
  ['2026-11-30 14:09:45.343 UTC', undefined, '2026-11-30T14:09:45.343Z'],
  ['2026-11-30 14:09:45 UTC', undefined, '2026-11-30T14:09:45.000Z'], // %t has no ms
  ['2021-01-22 10:03:22.785 CET', undefined, '2021-01-22T09:03:22.785Z'],
  ['2024-06-27 00:00:07.369 CEST', undefined, '2024-06-26T22:00:07.369Z'],
  ['2026-11-30 14:20:01.100 MSK', undefined, '2026-11-30T11:20:01.100Z'],
  ['2024-05-01 10:00:00 +03', undefined, '2024-05-01T07:00:00.000Z'],
  ['2024-05-01 10:00:00 -0330', undefined, '2024-05-01T13:30:00.000Z'],
  // IST is ambiguous (India, Ireland, Israel): the configured zone decides.
  ['2024-05-01 10:00:00 IST', 'Asia/Kolkata', '2024-05-01T04:30:00.000Z'],
  ['2024-05-01 10:00:00 IST', 'Europe/Dublin', '2024-05-01T09:00:00.000Z'],
  // Winter and summer time of one zone.
  ['2024-01-15 12:00:00.000 XYZ', 'Europe/Berlin', '2024-01-15T11:00:00.000Z'],
  ['2024-07-15 12:00:00.000 XYZ', 'Europe/Berlin', '2024-07-15T10:00:00.000Z'],
  ['not a time', undefined, null],
];

for (const [text, tz, iso] of CASES) {
  test(`time: ${text}${tz ? ` with tz ${tz}` : ''}`, (t) => {
    t.is(pgTimeToIso(text, tz), iso);
  });
}

test('time: %n epoch seconds with milliseconds', (t) => {
  t.is(epochToIso('1796047756.051'), '2026-11-30T14:09:16.051Z');
});
