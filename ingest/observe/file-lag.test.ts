import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentSourceEvents } from '../source/source-events.js';
import { FileLag } from './file-lag.js';

test('lag is the file size minus the checkpoint and the acknowledged segments, per file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-file-lag-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, '26113014.log');
  writeFileSync(file, Buffer.alloc(100));
  const lag = new FileLag();
  const events = lag.wrap(silentSourceEvents);
  events.fileAdded(file, 'k1', 10);
  events.segmentPublished(file, 3, 0, 40);
  await lag.refresh();
  t.is(lag.total, 50);
  appendFileSync(file, Buffer.alloc(25));
  await lag.refresh();
  t.is(lag.render(), `# HELP perfpipe_file_lag_bytes Bytes of a followed file not yet acknowledged downstream\n# TYPE perfpipe_file_lag_bytes gauge\nperfpipe_file_lag_bytes{file="${file}",file_key="k1"} 75\n`);
  events.fileFinished(file, 'k1', 125);
  t.is(lag.render(), '');
});
