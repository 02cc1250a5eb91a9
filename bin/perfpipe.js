#!/usr/bin/env -S node --max-semi-space-size=2
// The compiled CLI (npm install builds it through the `prepare` script). V8's young generation is capped at 2 MiB
// semi-spaces: an ingest allocates short-lived objects at a high rate, and V8 grew that space to 32-64 MiB of
// resident memory for no gain in speed (1 GB TJ ingest: peak RSS 542 → 493 MiB, same CPU time; docs/write-path.md).
import '../dist/cli/entry.js';
