import test from 'ava';
import { backoffMs } from './backoff.js';
import { sleep, waitAtMost } from './sleep.js';

test('backoffMs doubles from the first pause and stops at the cap', (t) => {
  // The publish retry of the sources (publish-until-acked.ts): 0.4 s doubling to 30 s.
  t.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 50].map((f) => backoffMs(f, 400, 30_000)), [400, 800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000]);
  // The sink's insert retry: 0.2 s doubling to 10 s.
  t.deepEqual([1, 2, 6, 7].map((f) => backoffMs(f, 200, 10_000)), [200, 400, 6400, 10_000]);
  // A failure count of 0 (or less) is the first pause; a huge one does not overflow to Infinity or NaN.
  t.is(backoffMs(0, 500, 10_000), 500);
  t.is(backoffMs(10_000, 500, 10_000), 10_000);
});

test('sleep waits, and a signal cuts it short without throwing', async (t) => {
  let t0 = performance.now();
  await sleep(50);
  t.true(performance.now() - t0 >= 45);
  const stop = new AbortController();
  t0 = performance.now();
  setTimeout(() => stop.abort(), 20);
  await sleep(10_000, stop.signal);
  t.true(performance.now() - t0 < 5_000);
  t0 = performance.now();
  await sleep(10_000, stop.signal); // already aborted
  t.true(performance.now() - t0 < 1_000);
});

test('waitAtMost ends with the work, or at its bound, and passes the work\'s failure on', async (t) => {
  let t0 = performance.now();
  await waitAtMost(new Promise((r) => setTimeout(r, 20)), 10_000);
  t.true(performance.now() - t0 < 5_000);
  t0 = performance.now();
  await waitAtMost(new Promise(() => {}), 50);
  t.true(performance.now() - t0 >= 45);
  await waitAtMost(undefined, 10_000); // nothing to wait for
  await t.throwsAsync(waitAtMost(Promise.reject(new Error('drain failed')), 10_000), { message: 'drain failed' });
});
