// The layering check, run by `npm run check:layers` (and so by .ci/run before the tests). Two kinds of rule:
//
// 1. The top-level folders are the layers (docs/map.md), ground first. A folder may import from its own layer and
//    from the layers before it, never from one after it: a reversed import fails with the rule `layer-<name>`.
// 2. Folders of the product code form a directed graph with no cycle. A folder is a node; an import from a file in one
//    folder to a file in another is an edge, type-only imports included (tsPreCompilationDeps), since a type import
//    ties the folders just as much for a reader.
//
// test/folder-cycles.test.ts proves that both rules bite.

/** Ground first. `simulate` (the load generator) stands beside the pipeline: it writes files, it reads only the ground. */
const LAYERS = [
  { name: 'ground', folders: ['schemas', 'parsers'], job: 'event and row shapes (zod) and byte parsers: no I/O, no pipeline' },
  { name: 'pipeline', folders: ['ingest', 'simulate'], job: 'sources, bus, rows, sink, store, alerts: the write path' },
  { name: 'analytics', folders: ['queries'], job: 'tables, views, the reports and the HTML page: what the store answers' },
  { name: 'daemon', folders: ['daemon'], job: 'a running process assembled from the config: pipeline, agent, sink, HTTP endpoints' },
  { name: 'interface', folders: ['cli'], job: 'the command line' },
];

const folderPattern = (folders) => `^(${folders.join('|')})/`;

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.folders.join('/, ')}/ (${layer.job}) imports only from its own layer or below, never from ${LAYERS.slice(i + 1).flatMap((l) => l.folders).join('/, ')}/.`,
  severity: 'error',
  from: { path: folderPattern(layer.folders) },
  to: { path: folderPattern(LAYERS.slice(i + 1).flatMap((l) => l.folders)) },
}));

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
    ...layerRules,
    {
      name: 'simulate-stands-apart',
      comment: 'The load generator writes what a load test leaves on disk; it shares nothing with the pipeline that reads it.',
      severity: 'error',
      from: { path: '^simulate/' },
      to: { path: '^ingest/' },
    },
    {
      name: 'html-report-formats-only',
      comment: 'The HTML page formats what queries/ returns; it shares nothing with the CLI, which formats the same data as text.',
      severity: 'error',
      from: { path: '^queries/report-html/' },
      to: { path: '^cli/' },
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
