import test from 'ava';
import { ALL_TIME, parseTimeFlag, reportWindow } from './report-window.js';
import { windowParams } from '../../queries/reports/window-params.js';

test('times are ISO-8601 (a missing offset is UTC) or Unix seconds', (t) => {
  const ten = Date.UTC(2026, 10, 30, 10) / 1000;
  const cases: Array<[string, number]> = [
    ['2026-11-30T10:00:00Z', ten], ['2026-11-30T10:00:00', ten], ['2026-11-30 10:00', ten], ['2026-11-30T13:00:00+03:00', ten],
    ['2026-11-30T13:00+0300', ten], ['2026-11-30', ten - 36_000], ['2026-11-30T10:00:00.250Z', ten + 0.25], [String(ten), ten], ['0', 0], ['1.5', 1.5],
  ];
  for (const [text, expected] of cases) t.is(parseTimeFlag('from', text), expected, text);
});

test('an unreadable or empty window says what is expected', (t) => {
  t.is(t.throws(() => parseTimeFlag('to', '30.11.2026'))?.message, '--to: "30.11.2026" is not a time; expected ISO-8601 (e.g. "2026-11-30T10:00:00Z") or Unix seconds');
  t.is(t.throws(() => reportWindow('2026-11-30T10:00:00Z', '1764496800'))?.message, '--from 2026-11-30T10:00:00Z is not before --to 1764496800');
});

test('no flags mean everything, passed as text ClickHouse reads as Unix seconds', (t) => {
  t.deepEqual(reportWindow(undefined, undefined), ALL_TIME);
  t.deepEqual(windowParams(ALL_TIME), { from: '0.000', to: '7258118400.000' });
});
