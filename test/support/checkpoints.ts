// What the checkpoint stores under a data directory's `checkpoints/` say (ingest/source/checkpoint-store.ts: a
// snapshot.json and a journal.jsonl of `i` intent, `a` ack, `d` forget lines per file key), read here from the files
// so that a test's proof does not rest on the store's own reading of them. An intent above its file's acked offset is
// a range published and not yet acknowledged: a daemon whose sources hold none has nothing in flight, and what it
// acknowledged is stored (a source acknowledges after the sink, or the broker, did).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Checkpoints {
  /** Acknowledged offset per file key (a byte offset, or an epoch for atop raw logs). */
  acked: Map<string, number>;
  /** Published ranges not yet acknowledged, `file_key@end`. */
  open: string[];
}

export function readCheckpoints(checkpoints: string): Checkpoints {
  const acked = new Map<string, number>();
  const intents: Array<{ k: string; e: number }> = [];
  for (const dir of existsSync(checkpoints) ? readdirSync(checkpoints) : []) {
    const snapshot = join(checkpoints, dir, 'snapshot.json');
    if (existsSync(snapshot)) {
      for (const f of (JSON.parse(readFileSync(snapshot, 'utf8')) as { files: Array<{ file_key: string; offset: number; intents: Array<{ end: number }> }> }).files) {
        acked.set(f.file_key, f.offset);
        for (const i of f.intents) intents.push({ k: f.file_key, e: i.end });
      }
    }
    const journal = join(checkpoints, dir, 'journal.jsonl');
    for (const line of existsSync(journal) ? readFileSync(journal, 'utf8').split('\n') : []) {
      if (!line.endsWith('}')) continue; // empty, or torn by a kill
      const e = JSON.parse(line) as { t: string; k: string; e?: number };
      if (e.t === 'i') intents.push({ k: e.k, e: e.e! });
      else if (e.t === 'a') acked.set(e.k, Math.max(acked.get(e.k) ?? 0, e.e!));
      else if (e.t === 'd') { acked.delete(e.k); for (let i = intents.length - 1; i >= 0; i--) if (intents[i]!.k === e.k) intents.splice(i, 1); }
    }
  }
  const open = [...new Set(intents.filter((i) => i.e > (acked.get(i.k) ?? 0)).map((i) => `${i.k}@${i.e}`))];
  return { acked, open };
}
