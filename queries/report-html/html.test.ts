import test from 'ava';
import { clip, esc, fmt } from './html.js';

test('esc turns every character HTML gives a meaning to into an entity', (t) => {
  t.is(esc(`<a href="x">Петров & 'Co'</a>`), '&lt;a href=&quot;x&quot;&gt;Петров &amp; &#39;Co&#39;&lt;/a&gt;');
  t.is(esc(null), '');
});

test('fmt drops trailing zeros, groups thousands and shows a missing value as a dash', (t) => {
  t.is(fmt(0.5), '0.5');
  t.is(fmt(0.8333333), '0.833');
  t.is(fmt(21.5, 3), '21.5');
  t.is(fmt(1234567, 0), '1\u2009234\u2009567');
  t.is(fmt(-1500.25, 1), '-1\u2009500.3');
  t.is(fmt(null), '—');
  t.is(fmt(Number.NaN), '—');
});

test('clip cuts by code points and marks the cut', (t) => {
  t.is(clip('Номенклатура', 5), 'Номе…');
  t.is(clip('short', 5), 'short');
});
