// The repository stands alone: every `*.md` that code (.ts, .js, .sql, .sh, templates, the example config) or
// documentation cites must be a file of the repository, found from the repository root or from the citing file's
// folder. Nothing may point into ../shared for documentation; only the corpus (test data, ../shared/corpus) is cited
// from outside. The source files and folders that comments and documents name must exist too, so that a move leaves
// no pointer behind.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.git', 'perfpipe-data', 'bench/work']);
const CITING = /\.(ts|js|cjs|sql|sh|md|tmpl|ya?ml)$/;
/** Documents of the corpus (test data under ../shared/corpus) that tests quote figures from. */
const CORPUS_DOCS = new Set(['PROVENANCE.md', 'EXPECTED.md', 'generated/EXPECTED.md']);
/** A file name ending in `.md`, with the folders written before it; not part of a URL. */
const CITATION = /(?<![\w/.:-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.md)\b/g;

function* files(dir: string, wanted = CITING): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (SKIP.has(relative(root, path))) continue;
    if (statSync(path).isDirectory()) yield* files(path, wanted);
    else if (wanted.test(name)) yield path;
  }
}

interface Citation { file: string; line: number; cited: string }

function citations(): Citation[] {
  const out: Citation[] = [];
  for (const file of files(root)) {
    readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
      for (const m of text.matchAll(CITATION)) out.push({ file: relative(root, file), line: i + 1, cited: m[1] as string });
    });
  }
  return out;
}

/** Why the citation does not resolve to a file of the repository, or null. */
function problem(c: Citation): string | null {
  if (c.cited.includes('../shared/') || c.cited.startsWith('shared/')) {
    return c.cited.includes('corpus/') ? null : 'points into ../shared, outside the repository';
  }
  if (CORPUS_DOCS.has(c.cited)) return null;
  if (existsSync(join(root, c.cited)) || existsSync(join(root, dirname(c.file), c.cited))) return null;
  return 'no such file in the repository (documentation lives in docs/)';
}

test('the scan finds the citations it is meant to check', (t) => {
  const cited = new Set(citations().map((c) => c.cited));
  // Two citations that certainly exist in code: if the pattern stopped matching, every other check would be empty.
  t.true(cited.has('docs/tj-format.md'), 'docs/tj-format.md is cited by the TJ parser');
  t.true(cited.has('docs/write-path.md'), 'docs/write-path.md is cited by bin/perfpipe.js');
});

test('every *.md cited in code, SQL and docs is a file of the repository', (t) => {
  const missing = citations().flatMap((c) => {
    const why = problem(c);
    return why === null ? [] : [`${c.file}:${c.line}: ${c.cited}: ${why}`];
  });
  t.deepEqual(missing, []);
});

/**
 * Pointers that name a document without a path of the repository, or a place outside it: a bare capitalised
 * name with a section (the design and style notes outside the clone were cited that way), a short document name
 * with a section instead of its `docs/…` path, the shared folder beside the clone for anything but the corpus,
 * and absolute paths of the machine the code was written on.
 */
const OUTSIDE: Array<[RegExp, string]> = [
  [/(?<![\w/.-])[A-Z][A-Z_]{2,}(?:\.md)? §\d/, 'a document by a bare name; cite docs/<name>.md §N'],
  [/(?<![\w/.-])[a-z]\w*(?:-\w+)+ §\d/, 'a document by a short name; cite its docs/<name>.md path'],
  [/(?:\.\.\/)+shared\/(?!corpus\b)/, 'points into ../shared, outside the repository (only the corpus lives there)'],
  [/(?<![\w.-])\/(?:work|tmp\/helpers)\//, 'an absolute path outside the repository'],
];

test('no citation points outside the repository or names a document without its path', (t) => {
  const self = relative(root, fileURLToPath(import.meta.url));
  const found: string[] = [];
  for (const file of files(root)) {
    const name = relative(root, file);
    if (name === self) continue; // its patterns above would match themselves
    readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
      for (const [pattern, why] of OUTSIDE) {
        const m = pattern.exec(text);
        if (m && ![...CORPUS_DOCS].some((doc) => m[0].startsWith(doc))) found.push(`${name}:${i + 1}: ${m[0]}: ${why}`);
      }
    });
  }
  t.deepEqual(found, []);
});

test('the documents the code cites by section exist, with the sections cited', (t) => {
  const SECTION = /(docs\/[\w-]+\.md) §(\d+(?:\.\d+)?)/g;
  const missing: string[] = [];
  for (const file of files(root)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(SECTION)) {
      const doc = join(root, m[1] as string);
      if (!existsSync(doc)) continue; // reported by the test above
      const heading = new RegExp(`^#+ ${(m[2] as string).replace('.', '\\.')}\\.? `, 'm');
      if (!heading.test(readFileSync(doc, 'utf8'))) missing.push(`${relative(root, file)}: ${m[1]} §${m[2]}`);
    }
  }
  t.deepEqual([...new Set(missing)], []);
});

/**
 * A source file named with its folder (`ingest/rows/apdex-rows.ts`, `../assembly/sink-service.ts`,
 * `ndjson/pg-pieces.ts`), or a folder or file named from the top (`queries/ddl/`, `bin/perfpipe`). Not `*.md` (the
 * tests above), not `$HERE/x.sh`, a URL or a glob.
 */
const FILE_CITED = /(?<![\w/.$@{}:-])((?:\.{1,2}\/)*(?:[\w.-]+\/)+[\w.-]+\.(?:ts|js|cjs|mjs|sql|sh|tmpl))(?![\w/-])/g;
const TOP = readdirSync(root)
  .filter((n) => !n.startsWith('.') && !SKIP.has(n) && statSync(join(root, n)).isDirectory());
const FOLDER_CITED = new RegExp(
  `(?<![\\w/.$@{}:-])((?:${TOP.join('|')})(?:/[\\w-]*\\w)+/?)(?![\\w*-]|\\.\\w|/[\\w.*{])`, 'g');
/** A file whose paths are not the repository's: it writes a tree to a temporary folder to show the layer rules fail. */
const OWN_TREE = new Set(['test/folder-cycles.test.ts']);
/** Named on purpose though not in the tree: what the benches make as they run (git ignores it), the example family of
 * docs/adding-a-family.md, and `NNN` in a file name pattern. */
const NOT_IN_TREE = [/^bench\/work\b/, /\/?perfmon[/-]/, /NNN/];

/** Whether `cited`, named in `file`, is a file or folder of the repository (or of an installed package). */
function resolves(file: string, cited: string): boolean {
  const names = cited.endsWith('.js') ? [cited, cited.replace(/\.js$/, '.ts')] : [cited];
  const from: string[] = [];
  if (/^\.\.\//.test(cited)) from.push(dirname(file));
  else if (cited.startsWith('./')) from.push(dirname(file), '.'); // a command or import written at the top too
  else if (TOP.includes(cited.split('/')[0] as string)) from.push('.');
  else {
    // A short path names a file below a folder the text speaks of: the citing file's folder or one above it, an
    // installed package, or any folder of the tree that ends so (`tj/tj-source.ts` in a paragraph on ingest/source/).
    for (let d = dirname(file); ; d = dirname(d)) { from.push(d); if (d === '.') break; }
    from.push('node_modules');
    if (names.some((n) => tracked().some((f) => f.endsWith(`/${n}`)))) return true;
  }
  return names.some((n) => from.some((d) => existsSync(join(root, d, n))));
}

let allFiles: string[] | undefined;
function tracked(): string[] {
  allFiles ??= [...files(root, /./)].map((f) => relative(root, f));
  return allFiles;
}

function pathsCitedNowhere(): string[] {
  const self = relative(root, fileURLToPath(import.meta.url));
  const missing: string[] = [];
  for (const path of files(root)) {
    const file = relative(root, path);
    if (file === self || OWN_TREE.has(file)) continue;
    readFileSync(path, 'utf8').split('\n').forEach((text, i) => {
      for (const m of [...text.matchAll(FILE_CITED), ...text.matchAll(FOLDER_CITED)]) {
        const cited = m[1] as string;
        if (NOT_IN_TREE.some((p) => p.test(cited)) || resolves(file, cited)) continue;
        missing.push(`${file}:${i + 1}: ${cited}`);
      }
    });
  }
  return missing;
}

test('every source file and folder that comments and documents name exists', (t) => {
  t.deepEqual(pathsCitedNowhere(), []);
});

test('the path scan tells a moved file from a present one', (t) => {
  t.true(resolves('schemas/apdex-row.ts', 'ingest/source/apdex/apdex-rows.ts'), 'from the top');
  t.true(resolves('daemon/distributed/README.md', '../assembly/sink-service.ts'), 'relative to the citing file');
  t.true(resolves('cli/commands/parse-pg.ts', 'ndjson/pg-pieces.ts'), 'below a folder above the citing file');
  t.true(resolves('ingest/source/apdex/apdex-rows.ts', '../../../schemas/apdex-row.js'), 'an import, .js for .ts');
  t.true(resolves('queries/ddl/040_tj_locks.sql', 'queries/ddl/'), 'a folder');
  t.false(resolves('schemas/apdex-row.ts', 'ingest/sink/apdex-segment-rows.ts'), 'a file that is gone');
  t.false(resolves('daemon/distributed/README.md', '../sink/sink-service.ts'), 'a relative path that no longer fits');
  t.false(resolves('docs/map.md', 'ingest/cli/'), 'a folder that moved');
  t.false(resolves('daemon/distributed/README.md', 'ingest/distributed'), 'a moved folder named without its slash');
  const text = '# ingest/distributed — see ingest/source/atop-*.ts, queries/ddl/ and bin/perfpipe.';
  t.deepEqual([...text.matchAll(FOLDER_CITED)].map((m) => m[1]), ['ingest/distributed', 'queries/ddl/', 'bin/perfpipe'],
    'folders with or without their slash, not a glob');
  t.false(resolves('cli/commands/parse-files.ts', 'ndjson/json-bytes.ts'), 'a short path to a file that is gone');
});
