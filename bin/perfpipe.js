#!/usr/bin/env node
// The compiled CLI (npm install builds it through the `prepare` script).
import '../dist/ingest/cli/entry.js';
