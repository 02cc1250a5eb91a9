#!/usr/bin/env -S node --max-semi-space-size=2
// The compiled CLI (npm install builds it through the `prepare` script). V8's young generation is capped at 2 MiB
// semi-spaces: an ingest allocates short-lived objects at a high rate, and V8 grew that space to 32-64 MiB of
// resident memory for no gain in speed (1 GB TJ ingest: peak RSS 542 → 493 MiB, same CPU time; docs/write-path.md).
import { setFlagsFromString } from 'node:v8';

// The old generation grows by a fifth between major collections instead of V8's default factor (up to 4× for a
// small heap): an ingest's old space held 16-25 MiB of live objects and grew to 45-67 MiB of garbage between
// collections; at 20 % it stays at ~30 MiB (1 GB TJ ingest: peak RSS 479-501 → 461-467 MiB, docs/write-path.md §7).
// Set here rather than in the shebang: an unknown flag there stops Node, here it is only reported.
setFlagsFromString('--heap-growing-percent=20');
await import('../dist/ingest/cli/entry.js');
