import test from 'ava';
import { timeTicks, valueTicks } from './ticks.js';

test('value ticks start at zero, step 1, 2, 2.5 or 5 × 10ⁿ and reach the maximum', (t) => {
  t.deepEqual(valueTicks(1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  t.deepEqual(valueTicks(21.5), [0, 5, 10, 15, 20, 25]);
  t.deepEqual(valueTicks(0.003), [0, 0.001, 0.002, 0.003]);
  t.deepEqual(valueTicks(0), [0, 1]);
});

test('count axes never step below one', (t) => {
  t.deepEqual(valueTicks(2, 5, true), [0, 1, 2]);
  t.deepEqual(valueTicks(1, 5, true), [0, 1]);
});

test('time ticks fall on whole minutes of the zone, at most eight of them', (t) => {
  const from = Date.UTC(2026, 10, 30, 10, 0) / 1000;
  t.deepEqual(timeTicks(from, from + 600, 'UTC').map((x) => (x - from) / 60), [0, 2, 4, 6, 8, 10]);
  // Kolkata is UTC+05:30: an hourly tick is on its hour, i.e. at half past in UTC.
  const day = timeTicks(from, from + 6 * 3600, 'Asia/Kolkata');
  t.true(day.length <= 8);
  t.true(day.every((x) => (x / 60 + 330) % 60 === 0), day.join(' '));
});
