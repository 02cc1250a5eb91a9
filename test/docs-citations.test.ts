// The repository stands alone: every `*.md` that code (.ts, .js, .sql, .sh, templates) or documentation cites must
// be a file of the repository, found from the repository root or from the citing file's folder. Nothing may point
// into ../shared for documentation; only the corpus (test data, ../shared/corpus) is cited from outside.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.git', 'perfpipe-data', 'bench/work']);
const CITING = /\.(ts|js|sql|sh|md|tmpl)$/;
/** Documents of the corpus (test data under ../shared/corpus) that tests quote figures from. */
const CORPUS_DOCS = new Set(['PROVENANCE.md', 'EXPECTED.md', 'generated/EXPECTED.md']);
/** A file name ending in `.md`, with the folders written before it; not part of a URL. */
const CITATION = /(?<![\w/.:-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.md)\b/g;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (SKIP.has(relative(root, path))) continue;
    if (statSync(path).isDirectory()) yield* files(path);
    else if (CITING.test(name)) yield path;
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
