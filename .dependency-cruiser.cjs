// The layering check of issue #17, run by `npm run check:layers` (and so by .ci/run before the tests): folders of the
// product code form a directed graph with no cycle. A folder is a node; an import from a file in one folder to a
// file in another is an edge, type-only imports included (tsPreCompilationDeps), since a type import ties the
// folders just as much for a reader. Layers, ground first: schemas and parsers; sources, bus, rows, sink, store;
// queries; the daemon's assembly, CLI and HTTP (docs/map.md). test/folder-cycles.test.ts proves the rule bites.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment: 'Two folders import each other, directly or through others: move the shared part down a layer.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    // The layer order of docs/map.md, so the map stays true: a lower layer never imports a higher one.
    {
      name: 'ground-layer',
      comment: 'schemas/ and parsers/ are the ground: pure data shapes and byte parsers, no pipeline, no analytics.',
      severity: 'error',
      from: { path: '^(schemas|parsers)/' },
      to: { path: '^(ingest|queries|simulate)/' },
    },
    {
      name: 'pipeline-layer',
      comment: 'Sources, bus, rows, sink, store and their configs run the write path; they know nothing of reports, the CLI, HTTP or how the daemon is assembled.',
      severity: 'error',
      from: { path: '^ingest/(alert|apdex|bus|config|errors|families|observe|retry|rows|sink|source|store)/' },
      to: { path: '^(queries|simulate)/|^ingest/(assembly|cli|distributed|http|report-html)/|^ingest/[^/]+$' },
    },
    {
      name: 'queries-layer',
      comment: 'queries/ is the analytics layer: the CLI and the HTML page format what it returns, never the other way.',
      severity: 'error',
      from: { path: '^queries/' },
      to: { path: '^(simulate)/|^ingest/(assembly|cli|distributed|report-html)/|^ingest/[^/]+$' },
    },
    {
      name: 'html-report-formats-only',
      comment: 'The HTML page formats what queries/ returns; it shares nothing with the CLI, which formats the same data as text.',
      severity: 'error',
      from: { path: '^ingest/report-html/' },
      to: { path: '^ingest/cli/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Product code only: tests, benches and scripts may reach anywhere.
    exclude: { path: '^(node_modules|dist|test|bench|scripts)/|\\.test\\.ts$' },
  },
};
