import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { checkDocs, headingAnchors } from './check-docs.mjs';

/** A throwaway tree with the given files (path → text). */
function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-docs-test-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

test('anchors follow GitHub: lower case, punctuation dropped, repeats numbered', () => {
  const anchors = headingAnchors('# Run it\n## SQLite → PostgreSQL copy\n## `SCHOLIA_PORT` (the port)\n## Run it\n```\n# not a heading\n```\n');
  assert.deepEqual([...anchors].sort(), ['run-it', 'run-it-1', 'scholia_port-the-port', 'sqlite--postgresql-copy']);
});

test('links to existing files and headings pass; a missing file or heading is reported with its line', async () => {
  const root = tree({
    'README.md': '# Scholia\n[ok](docs/a.md) [ok too](docs/a.md#setup) [self](#scholia) [web](https://example.org/x)\n`[not a link](nowhere.md)`\n[gone](docs/missing.md)\n[bad anchor](docs/a.md#nowhere)\n',
    'docs/a.md': '# A\n## Setup\n[back](../README.md)\n```text\n[in code](nowhere.md)\n```\n',
  });
  const problems = await checkDocs(root, { runBlocks: false });
  assert.deepEqual(problems, [
    'README.md:4: broken link docs/missing.md (no such file)',
    'README.md:5: broken link docs/a.md#nowhere (no heading #nowhere)',
  ]);
});

test('runnable blocks run from the root in a scratch data folder; a failing one is reported, tested-by blocks are not run', async () => {
  const root = tree({
    'README.md': '# Scholia\n',
    'docs/a.md': [
      '# A',
      '```sh runnable',
      'test -f README.md',
      'touch "$SCHOLIA_DATA_DIR/written-here"',
      '```',
      '```sh tested-by=README.md',
      'exit 3',
      '```',
      '```sh runnable',
      'echo about to fail',
      'false',
      'echo never printed',
      '```',
      '',
    ].join('\n'),
  });
  const problems = await checkDocs(root);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /^docs\/a\.md:9: runnable block exited with 1\nabout to fail$/);
  assert.deepEqual(fs.readdirSync(root).sort(), ['README.md', 'docs']);
});

test('a shell block that names no test, or a test that is gone, is reported; other blocks are not', async () => {
  const root = tree({
    'README.md': [
      '# Scholia',
      '```sh',
      'npm start',
      '```',
      '```sh tested-by=README.md,nowhere.test.ts',
      'npm test',
      '```',
      '```sh bench',
      'npx tsx bench/scale.ts',
      '```',
      '```text',
      'plain output',
      '```',
      '',
    ].join('\n'),
  });
  assert.deepEqual(await checkDocs(root, { runBlocks: false }), [
    'README.md:2: shell block is neither "runnable" nor "tested-by=<files>" (nor "bench")',
    'README.md:5: tested-by names nowhere.test.ts, which does not exist',
  ]);
});
