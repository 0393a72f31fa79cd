import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The documentation check (`npm test`): every relative link in README.md, CHANGELOG.md and
 * docs/*.md points at a file that exists (and at a heading that exists, for `#anchor` links), and
 * every shell block marked runnable (a fence opened with ```sh runnable) succeeds.
 *
 * A runnable block runs in bash with `set -eu` (no pipefail, so `command | grep expected` checks an
 * output whatever the command's status), from the repository root (its commands
 * name repository paths, as a reader types them there), with a fresh temporary folder as
 * SCHOLIA_DATA_DIR so a server it starts writes nothing into the tree (TMPDIR is left alone: tsx
 * keeps its compile cache there, and a cold cache makes a server start take 20 s or more on a busy
 * host); blocks put their own files under `mktemp -d`. The block's whole process group is ended
 * afterwards, so a server it started in the background never outlives it. Blocks must be cheap and
 * need no network.
 *
 * Every other shell block names what runs its commands, so no command in the docs goes untried:
 * ```sh tested-by=.ci/run,server/test/compiled-server.test.ts lists the files (each must exist) that run
 * the same steps: `npm install && npm start` is too slow for this check, but `.ci/run` installs on a
 * fresh machine and the compiled-server test builds and runs the server with the start script's
 * settings. Benchmarks (```sh bench) take minutes to hours and are run by hand, not by any test.
 *
 *   node scripts/check-docs.mjs              # links and runnable blocks
 *   node scripts/check-docs.mjs --links-only
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BLOCK_TIMEOUT_MS = 120_000;

/** The documentation files of a tree: README.md, CHANGELOG.md and docs/*.md, those that exist. */
export function docFiles(root) {
  const docsDir = path.join(root, 'docs');
  const docs = fs.existsSync(docsDir) ? fs.readdirSync(docsDir).filter((f) => f.endsWith('.md')).sort().map((f) => path.join(docsDir, f)) : [];
  return [path.join(root, 'README.md'), path.join(root, 'CHANGELOG.md'), ...docs].filter((f) => fs.existsSync(f));
}

/** A Markdown file split into prose lines (with their numbers) and fenced code blocks. */
export function parseMarkdown(text) {
  const prose = [];
  const blocks = [];
  let open;
  text.split('\n').forEach((line, index) => {
    const fence = /^\s*(```+|~~~+)\s*(.*)$/.exec(line);
    if (open) {
      if (fence && fence[1].startsWith(open.marker) && fence[2] === '') {
        blocks.push({ info: open.info, line: open.line, code: open.lines.join('\n') });
        open = undefined;
      } else open.lines.push(line);
    } else if (fence) open = { marker: fence[1], info: fence[2].trim(), line: index + 1, lines: [] };
    else prose.push({ text: line, line: index + 1 });
  });
  return { prose, blocks };
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
export function headingAnchors(text) {
  const anchors = new Set();
  const seen = new Map();
  for (const { text: line } of parseMarkdown(text).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = heading[1]
        .replace(/`([^`]*)`/g, '$1')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  }
  return anchors;
}

/** Broken relative links of one file, as `file:line: message` strings. */
export function brokenLinks(file, root) {
  const text = fs.readFileSync(file, 'utf8');
  const problems = [];
  for (const { text: line, line: number } of parseMarkdown(text).prose) {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [targetPath, anchor] = target.split('#');
      const resolved = targetPath ? path.resolve(path.dirname(file), decodeURIComponent(targetPath)) : file;
      const where = `${path.relative(root, file)}:${number}`;
      if (!fs.existsSync(resolved)) {
        problems.push(`${where}: broken link ${target} (no such file)`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !headingAnchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
        problems.push(`${where}: broken link ${target} (no heading #${anchor})`);
      }
    }
  }
  return problems;
}

const SHELL_INFO = /^(sh|bash|shell)(\s|$)/;

/** Shell blocks that neither run here nor name a test running them, or name a file that is gone. */
export function untestedBlocks(file, root) {
  const problems = [];
  for (const block of parseMarkdown(fs.readFileSync(file, 'utf8')).blocks) {
    if (!SHELL_INFO.test(block.info)) continue;
    const where = `${path.relative(root, file)}:${block.line}`;
    const words = block.info.split(/\s+/).slice(1);
    if (words.includes('runnable') || words.includes('bench')) continue;
    const testedBy = words.find((word) => word.startsWith('tested-by='));
    if (!testedBy) {
      problems.push(`${where}: shell block is neither "runnable" nor "tested-by=<files>" (nor "bench")`);
      continue;
    }
    for (const named of testedBy.slice('tested-by='.length).split(',')) {
      if (!named || !fs.existsSync(path.join(root, named))) problems.push(`${where}: tested-by names ${named || 'nothing'}, which does not exist`);
    }
  }
  return problems;
}

/** The shell blocks of a file marked runnable. */
export function runnableBlocks(file) {
  return parseMarkdown(fs.readFileSync(file, 'utf8')).blocks.filter((block) => /^(sh|bash|shell)\s+runnable\b/.test(block.info));
}

/** Runs one block as described above; resolves to its exit code and output. */
export function runBlock(code, { cwd, timeoutMs = BLOCK_TIMEOUT_MS } = {}) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-docs-'));
  fs.mkdirSync(path.join(scratch, 'data'));
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -eu\n${code}`], {
      cwd,
      detached: true,
      env: { ...process.env, SCHOLIA_DATA_DIR: path.join(scratch, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    const timer = setTimeout(() => {
      output += `\n(timed out after ${timeoutMs / 1000} s)`;
      endGroup(child.pid);
    }, timeoutMs);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      endGroup(child.pid);
      fs.rmSync(scratch, { recursive: true, force: true });
      resolve({ status: status ?? (signal ? 1 : 0), output });
    });
  });
}

function endGroup(pid) {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // the group has already ended
  }
}

/** Every problem of the documentation under `root`, as `file:line: message` strings. */
export async function checkDocs(root, { runBlocks = true, log = () => {} } = {}) {
  const files = docFiles(root);
  const problems = files.flatMap((file) => [...brokenLinks(file, root), ...untestedBlocks(file, root)]);
  if (runBlocks) {
    for (const file of files) {
      for (const block of runnableBlocks(file)) {
        const where = `${path.relative(root, file)}:${block.line}`;
        const started = Date.now();
        const { status, output } = await runBlock(block.code, { cwd: root });
        log(`${where}: runnable block ${status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        if (status !== 0) problems.push(`${where}: runnable block exited with ${status}\n${output.trim().split('\n').slice(-20).join('\n')}`);
      }
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = await checkDocs(ROOT, { runBlocks: !process.argv.includes('--links-only'), log: console.log });
  for (const problem of problems) console.error(problem);
  console.log(`docs: ${docFiles(ROOT).length} files checked, ${problems.length} problems`);
  process.exit(problems.length ? 1 : 0);
}
