// Axis ticks a reader can count on: values at 1, 2, 2.5 or 5 × 10ⁿ steps from zero, times at whole minutes or
// hours of the page's time zone (a 5-minute tick reads 10:05 in Kolkata too, not 10:35).
import { zoneOffsetMinutes } from './time-format.js';

/** 0, step, 2·step, … up to the first tick ≥ max; about `count` intervals. Counts (`integer`) never step below 1. */
export function valueTicks(max: number, count = 5, integer = false): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const nice = ([1, 2, 2.5, 5, 10].find((m) => m * pow >= raw) ?? 10) * pow;
  const step = integer ? Math.max(1, Math.ceil(nice)) : nice;
  const ticks: number[] = [];
  for (let i = 0; ; i++) {
    const v = Number((i * step).toPrecision(12));
    ticks.push(v);
    if (v >= max) return ticks;
  }
}

const STEPS_S = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

/**
 * Tick times (Unix s) inside [from, to]: the smallest step from STEPS_S giving at most `max` ticks, aligned
 * to the zone's wall clock at `from`. A DST change inside the window shifts later ticks by the change; load
 * tests rarely cross one, and the labels stay true times either way.
 */
export function timeTicks(from: number, to: number, timeZone: string, max = 8): number[] {
  const span = Math.max(to - from, 60);
  const step = STEPS_S.find((s) => span / s <= max) ?? (STEPS_S[STEPS_S.length - 1] as number);
  const offset = zoneOffsetMinutes(from * 1000, timeZone) * 60;
  const first = Math.ceil((from + offset) / step) * step - offset;
  const ticks: number[] = [];
  for (let t = first; t <= to; t += step) ticks.push(t);
  return ticks;
}
