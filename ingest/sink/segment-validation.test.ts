import test from 'ava';
import { createTjParser } from '../../parsers/tj/index.js';
import { segmentId, type Segment } from '../bus/bus.js';
import { validateSegment } from './segment-validation.js';

function tjSegment(events: unknown[], family: Segment['family'] = 'tj'): Segment {
  return {
    id: segmentId('db1', 'k1', 0, 100), family, host: 'db1', source: 'tj', file: '/tj/rphost_1/26113014.log', file_key: 'k1',
    start: 0, end: 100, events, errors: [],
  };
}

const parsed = createTjParser({ host: 'db1', source: 'tj', file: '/tj/rphost_1/26113014.log', file_key: 'k1', offset: 0, hour: '26113014', tz: 'UTC' })
  .push(Buffer.from('00:01.000001-10,CALL,1,Usr=a\n00:02.000002-20,CALL,1,Usr=b\n')).events;

test('a segment of valid events passes unchanged', (t) => {
  t.is(parsed.length, 2);
  const segment = tjSegment(parsed);
  const out = validateSegment(segment);
  t.is(out.segment, segment);
  t.deepEqual(out.invalid, []);
});

test('an event that breaks the schema becomes an invalid_event error and the others are kept', (t) => {
  const bad = { ...(parsed[1] as object), duration_us: -5 };
  const out = validateSegment(tjSegment([parsed[0], bad]));
  t.deepEqual(out.segment.events, [parsed[0]]);
  t.is(out.invalid.length, 1);
  t.is(out.invalid[0]?.index, 1);
  t.is(out.segment.errors.length, 1);
  const error = out.segment.errors[0]!;
  t.is(error.kind, 'invalid_event');
  t.is(error.offset, 29); // the second line starts after the first line's 29 bytes
  t.is(error.reason, 'event 1 of segment db1|k1|0-100 does not match the tj event schema: duration_us: Too small: expected number to be >=0');
  t.true(error.excerpt.startsWith('{"event":"CALL"'));
});

test('the same segment validates to the same rows (replays keep their dedup tokens)', (t) => {
  const segment = tjSegment([parsed[0], { nope: true }]);
  t.deepEqual(validateSegment(segment), validateSegment(structuredClone(segment)));
});

test('a family without ClickHouse tables (a message from a newer agent) keeps only its errors', (t) => {
  const out = validateSegment(tjSegment([{ any: 1 }], 'gpu' as Segment['family']));
  t.deepEqual(out.segment.events, []);
  t.is(out.segment.errors[0]?.reason, 'the gpu family has no ClickHouse tables in this perfpipe version');
});

test('an atop event is checked against the atop record schema', (t) => {
  const out = validateSegment(tjSegment([{ label: 'CPU' }], 'atop'));
  t.deepEqual(out.segment.events, []);
  t.regex(out.segment.errors[0]?.reason ?? '', /^event 0 of segment db1\|k1\|0-100 does not match the atop event schema: host: /);
});
