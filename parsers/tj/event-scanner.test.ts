// The byte-level scanner against the string path it stands in for: for every event of any journal, cut anywhere, the
// scanner either declines it or reads the header and the properties (names, and values once what their flags say is
// undone) that createTjFrameDecoder decodes from the same bytes.
import test from 'ava';
import fc from 'fast-check';
import { cutAt, tjJournal } from '../../test/support/tj-journals.js';
import { TjEventScanner } from './event-scanner.js';
import { Found, TjFramer } from './framing.js';
import { CRLF_INSIDE, DOUBLED_DQUOTE, DOUBLED_SQUOTE } from './property-ranges.js';
import { createTjFrameDecoder, type TjFileContext } from './tj-parser.js';
import { IsoMicrosFormatter } from './event-time.js';

const ctx: TjFileContext = { host: 'h', source: 'tj', file: '/j/rphost_1/26113014.log', file_key: 'k', offset: 0, hour: '26113014', tz: 'Europe/Moscow' };

interface Seen { event: string; ts: string; ts_start: string; duration_us: number; depth: number; properties: string[] }

/** A value's bytes read as the value: doubled quotes made one, CRLF made LF (what the flags say). */
function valueOf(f: Buffer, s: number, e: number, flags: number): string {
  let text = f.toString('utf8', s, e);
  if (flags & DOUBLED_SQUOTE) text = text.replaceAll("''", "'");
  if (flags & DOUBLED_DQUOTE) text = text.replaceAll('""', '"');
  if (flags & CRLF_INSIDE) text = text.replaceAll('\r\n', '\n');
  return text;
}

test('every event the scanner reads has the header and properties the string path decodes from its bytes', (t) => {
  const time = new IsoMicrosFormatter();
  let read = 0;
  let declined = 0;
  fc.assert(fc.property(tjJournal, fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => {
    const framer = new TjFramer(0);
    const scanner = new TjEventScanner(ctx, (name) => name);
    const decoder = createTjFrameDecoder(ctx);
    const check = (): void => {
      for (let found = framer.next(); found !== Found.nothing; found = framer.next()) {
        if (found !== Found.frame) continue;
        decoder.frame(framer.frame, framer.window, framer.at);
        const want = decoder.take().events[0];
        if (!scanner.read(framer)) { declined++; continue; }
        read++;
        if (want === undefined) { t.fail(`the scanner read an event the string path refused: ${framer.window.toString('latin1', framer.at, framer.at + 80)}`); continue; }
        const f = scanner.bytes;
        const ranges = scanner.ranges;
        if (ranges === null) { t.fail('no ranges'); continue; }
        const properties: string[] = [];
        for (let i = 0; i < ranges.count; i++) {
          const name = scanner.propertyNames[i];
          properties.push(name?.meaning ?? '?', valueOf(f, ranges.valueStart(i), ranges.valueEnd(i), ranges.flags(i)));
          if (name?.name !== f.toString('utf8', ranges.nameStart(i), ranges.nameEnd(i))) t.fail('a name is not its bytes');
        }
        const got: Seen = {
          event: f.toString('latin1', scanner.nameStart, scanner.nameEnd), ts: time.format(scanner.endUs),
          ts_start: time.format(scanner.endUs - scanner.durationUs), duration_us: scanner.durationUs, depth: scanner.depth, properties,
        };
        const { event, ts, ts_start, duration_us, depth } = want;
        t.deepEqual(got, { event, ts, ts_start, duration_us, depth, properties: want.properties });
        t.is(scanner.offset, want.origin.offset);
      }
    };
    for (const chunk of cutAt(bytes, cuts)) { framer.push(chunk); check(); }
    framer.end();
    check();
  }), { numRuns: 1500 });
  // The scanner reads most events and declines some: both sides are exercised.
  t.true(read > declined && declined > 0, `read ${read}, declined ${declined}`);
});
