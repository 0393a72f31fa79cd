import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildFakeDatasets, SEED_ORGANIZATION, writeSplitParquet, type FakeDataset } from './fake-datasets.js';

/**
 * A local stand-in for huggingface.co, the dataset viewer and Hugging Face's OpenID provider
 * (hub-contract §7): one HTTP server on 127.0.0.1, seeded datasets with parquet made at startup (some also as
 * public repos of an organization), repositories written by commits kept in memory so tests can read an export back.
 * Tokens belong to users; a `write` token may create and push repos in its user's namespace and in its organizations'.
 *
 * The Hub API answers as huggingface.co does (status codes, JSON shapes, headers) for what it implements,
 * which is what @huggingface/hub, huggingface_hub, `datasets` and the argilla SDK use to push and pull:
 * whoami-v2, repos/create, validate-yaml (front matter present or not; its YAML is not checked), dataset info (head or `revision/{rev}`, `?blobs=true`), tree (recursive, expand),
 * paths-info, preupload (the default `.gitattributes` LFS kinds, binary or >= 10 MB → `lfs`, else `regular`), the NDJSON commit (file, lfsFile,
 * deletedFile, deletedFolder; binary content inline is refused as on the Hub), the Git LFS batch API with the
 * basic transfer and verify, resolve (inline files with ETag = git blob id; LFS files 302 to a CDN stand-in
 * with X-Linked-Etag / X-Linked-Size; X-Repo-Commit), and the parquet export listing of the seeded datasets.
 * Left out, as no client here needs them: branches, tags and PRs (`main` or a commit oid of the head only;
 * older commits are not kept), the `.gitattributes` initial commit of a new repo, `parentCommit` checks,
 * multipart and xet transfers, cardData parsed from README front matter, listing/search of repos, pagination,
 * rate limits (except injected failures), repo settings, deletes and moves, and the parquet conversion of
 * pushed repos (only the seeded datasets have a refs/convert/parquet).
 */
export interface FakeHubUser {
  name: string;
  fullname: string;
  /** `write` may create repos in its own namespace and its organizations'; `read` may not. */
  role: 'read' | 'write';
  /** Organizations the user belongs to: their private repos are readable, and writable with `write`. */
  orgs?: string[];
}

export interface FakeHubOptions {
  /** Port on 127.0.0.1; a free one when left out. */
  port?: number;
}

/** A write token of a member of the `argilla-internal-testing` organization, whose public repos the fake seeds. */
export const ORG_WRITE_TOKEN = 'hf_write_internal_testing';

export interface FakeRepo {
  id: string;
  owner: string;
  private: boolean;
  /** Path → content at the head (LFS files too). */
  files: Map<string, Buffer>;
  /** Path → sha256 of the files committed as LFS pointers. */
  lfs: Map<string, string>;
  commits: { summary: string; paths: string[] }[];
}

export interface FakeHub {
  url: string;
  /** Valid tokens → user. */
  tokens: Map<string, FakeHubUser>;
  repos: Map<string, FakeRepo>;
  /** LFS objects by sha256: what clients uploaded through the batch API, plus the seeded parquet export. */
  lfsObjects: Map<string, Buffer>;
  /** Every request: method + path (no query), for assertions. */
  requests: { method: string; path: string; query: string }[];
  /** Answers the next `count` requests whose path starts with `prefix` with this failure. */
  failNext(prefix: string, status: number, options?: { errorCode?: string; count?: number; error?: string }): void;
  /** OAuth: the client the OIDC endpoints accept, and who signs in at /oauth/authorize. */
  oauth: { clientId: string; clientSecret: string; user: { preferred_username: string; name: string; sub: string } };
  close(): Promise<void>;
}

const NOT_ACCESSIBLE =
  'The dataset does not exist, or is not accessible without authentication (private or gated). Please check the spelling of the dataset name or retry with authentication.';

export async function startFakeHub(options: FakeHubOptions = {}): Promise<FakeHub> {
  const datasets = new Map<string, FakeDataset>(buildFakeDatasets().map((d) => [d.id, d]));
  // refs/convert/parquet files: `${dataset}/${config}/${split}/NNNN.parquet` → bytes
  const parquet = new Map<string, Buffer>();
  const parquetOids = new Map<string, string>(); // same keys → sha256 of the file, its LFS object id
  const lfsObjects = new Map<string, Buffer>(); // sha256 → bytes uploaded through the LFS batch API
  for (const dataset of datasets.values()) {
    if (dataset.rowsPerFile === 0) continue;
    for (const [split, rows] of Object.entries(dataset.splits)) {
      writeSplitParquet(dataset, rows).forEach((bytes, i) => {
        const key = `${dataset.id}/${dataset.config}/${split}/${String(i).padStart(4, '0')}.parquet`;
        parquet.set(key, Buffer.from(bytes));
        // The parquet export is stored in LFS on the Hub, so resolve redirects to it like any LFS file.
        const oid = createHash('sha256').update(bytes).digest('hex');
        parquetOids.set(key, oid);
        lfsObjects.set(oid, Buffer.from(bytes));
      });
    }
  }
  const failures: { prefix: string; status: number; errorCode?: string; error?: string; count: number }[] = [];
  const codes = new Map<string, string>(); // oauth code → username
  const oauthTokens = new Map<string, string>(); // oauth access token → username

  const hub: FakeHub = {
    url: '',
    tokens: new Map([
      ['hf_write_alice', { name: 'alice', fullname: 'Alice', role: 'write' }],
      ['hf_read_bob', { name: 'bob', fullname: 'Bob', role: 'read' }],
      [ORG_WRITE_TOKEN, { name: 'carol', fullname: 'Carol', role: 'write', orgs: [SEED_ORGANIZATION] }],
    ]),
    repos: seedRepos(datasets.values(), parquet, parquetOids),
    lfsObjects,
    requests: [],
    failNext(prefix, status, options = {}) {
      failures.push({ prefix, status, errorCode: options.errorCode, error: options.error, count: options.count ?? 1 });
    },
    oauth: { clientId: 'fake-client', clientSecret: 'fake-secret', user: { preferred_username: 'hf-alice', name: 'Alice HF', sub: '6600' } },
    close: async () => undefined,
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks));
      } catch (error) {
        json(res, 500, { error: error instanceof Error ? error.message : String(error) }, { 'X-Error-Code': 'UnexpectedError' });
      }
    });
  });

  function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const rawPath = url.pathname;
    hub.requests.push({ method: req.method ?? 'GET', path: rawPath, query: url.search });
    const failure = failures.find((f) => rawPath.startsWith(f.prefix) && f.count > 0);
    if (failure) {
      failure.count -= 1;
      const headers: Record<string, string> = failure.errorCode ? { 'X-Error-Code': failure.errorCode } : {};
      if (failure.status === 429) headers.RateLimit = '"api";r=0;t=0';
      return json(res, failure.status, { error: failure.error ?? 'Injected failure' }, headers);
    }
    const q = url.searchParams;
    const segments = rawPath.split('/').slice(1).map(decodeURIComponent);

    // ---- dataset viewer (hub-contract §1)
    if (['/is-valid', '/splits', '/info', '/first-rows', '/rows', '/parquet', '/size', '/statistics'].includes(rawPath)) {
      return viewer(rawPath, q, req, res);
    }
    if (segments[0] === 'cached-assets' || segments[0] === 'assets') {
      // /cached-assets/<ns>/<ds>/--/<sha>/--/<config>/<split>/<row>/<column>/image.xxx
      const dataset = datasets.get(`${segments[1]}/${segments[2]}`);
      const row = dataset?.splits[segments[7]]?.[Number(segments[8])];
      const image = row?.[segments[9]] as { bytes: Buffer } | undefined;
      if (!image) return json(res, 404, { error: 'Not found.' });
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': image.bytes.length });
      return void res.end(image.bytes);
    }

    // ---- OpenID Connect (hub-contract §6)
    if (rawPath === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer: hub.url,
        authorization_endpoint: `${hub.url}/oauth/authorize`,
        token_endpoint: `${hub.url}/oauth/token`,
        userinfo_endpoint: `${hub.url}/oauth/userinfo`,
        jwks_uri: `${hub.url}/oauth/jwks`,
        scopes_supported: ['openid', 'profile', 'email'],
      });
    }
    if (rawPath === '/oauth/authorize') {
      if (q.get('client_id') !== hub.oauth.clientId || q.get('response_type') !== 'code') return json(res, 400, { error: 'invalid_request' });
      const code = randomBytes(8).toString('hex');
      codes.set(code, hub.oauth.user.preferred_username);
      const target = new URL(q.get('redirect_uri') ?? '');
      target.searchParams.set('code', code);
      target.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { Location: target.toString() });
      return void res.end();
    }
    if (rawPath === '/oauth/token' && req.method === 'POST') {
      const form = new URLSearchParams(body.toString('utf8'));
      const basic = `Basic ${Buffer.from(`${hub.oauth.clientId}:${hub.oauth.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== basic) return json(res, 401, { error: 'invalid_client' });
      const code = form.get('code') ?? '';
      if (form.get('grant_type') !== 'authorization_code' || !codes.has(code)) return json(res, 400, { error: 'invalid_grant' });
      const token = `hf_oauth_${randomBytes(8).toString('hex')}`;
      oauthTokens.set(token, codes.get(code)!);
      codes.delete(code);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 28800, id_token: 'x.y.z', scope: 'openid profile' });
    }
    if (rawPath === '/oauth/userinfo') {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!oauthTokens.has(token)) return json(res, 401, { error: 'invalid_token' });
      const user = hub.oauth.user;
      return json(res, 200, { sub: user.sub, name: user.name, preferred_username: user.preferred_username, picture: '', profile: '', isPro: false, orgs: [] });
    }

    // ---- Hub API (hub-contract §4)
    const user = hub.tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (rawPath === '/api/whoami-v2') {
      if (!user) return json(res, 401, { error: 'Invalid credentials in Authorization header' });
      return json(res, 200, {
        type: 'user', id: `id-${user.name}`, name: user.name, fullname: user.fullname, email: `${user.name}@example.org`, emailVerified: true,
        isPro: false, canPay: false, avatarUrl: '', periodEnd: null,
        orgs: (user.orgs ?? []).map((org) => ({ type: 'org', id: `id-${org}`, name: org, fullname: org, roleInOrg: user.role })),
        auth: { type: 'access_token', accessToken: { displayName: 't', role: user.role, createdAt: '2024-01-01T00:00:00.000Z' } },
      });
    }
    if (rawPath === '/api/repos/create' && req.method === 'POST') {
      if (!user) return json(res, 401, { error: 'Invalid credentials in Authorization header' });
      // @huggingface/hub sends `organization` and `visibility`; huggingface_hub sends `organization: null` and `private`.
      const input = JSON.parse(body.toString('utf8')) as { name: string; organization?: string | null; type?: string; visibility?: string; private?: boolean };
      const owner = input.organization ?? user.name;
      if (!mayWrite(user, owner)) return json(res, 403, { error: `You don't have the rights to create a dataset under the namespace "${owner}"` });
      const id = `${owner}/${input.name}`;
      if (hub.repos.has(id)) return json(res, 409, { error: 'You already created this dataset repo', url: `${hub.url}/datasets/${id}` });
      hub.repos.set(id, { id, owner, private: input.visibility === 'private' || input.private === true, files: new Map(), lfs: new Map(), commits: [] });
      return json(res, 200, { url: `${hub.url}/datasets/${id}`, name: id, id: `repo-${id}` });
    }
    if (rawPath === '/api/validate-yaml' && req.method === 'POST') {
      // huggingface_hub checks a README's front matter before committing it; the fake checks only that there is one.
      const { content } = JSON.parse(body.toString('utf8')) as { content: string };
      const frontMatter = /^---\r?\n[\s\S]*?\r?\n---/.test(content);
      return json(res, 200, { warnings: frontMatter ? [] : [{ message: 'empty or missing yaml metadata in repo card', line: 0 }] });
    }
    // The Hub's list of a dataset's parquet export (refs/convert/parquet), for the seeded datasets.
    if (segments[0] === 'api' && segments[1] === 'datasets' && segments[4] === 'parquet' && datasets.has(`${segments[2]}/${segments[3]}`)) {
      return parquetListing(datasets.get(`${segments[2]}/${segments[3]}`)!, segments.slice(5), res);
    }
    if (segments[0] === 'api' && segments[1] === 'datasets' && segments.length >= 4) {
      const repo = hub.repos.get(`${segments[2]}/${segments[3]}`);
      const action = segments[4];
      if (!repo || (repo.private && !mayRead(user, repo.owner))) return repoNotFound(res, user);
      const writable = mayWrite(user, repo.owner);
      // Repo info (huggingface_hub's repo_info/dataset_info, snapshot_download), head or a given revision.
      if (action === undefined || action === 'revision') {
        if (action === 'revision' && !knownRevision(repo, segments[5])) return revisionNotFound(res, segments[5]);
        return json(res, 200, repoInfo(repo, q.get('blobs') === 'true'));
      }
      if (action === 'paths-info') {
        if (!knownRevision(repo, segments[5])) return revisionNotFound(res, segments[5]);
        const form = (req.headers['content-type'] ?? '').includes('json')
          ? (JSON.parse(body.toString('utf8')) as { paths: string[] }).paths
          : new URLSearchParams(body.toString('utf8')).getAll('paths');
        const all = treeEntries(repo, '', true);
        return json(res, 200, form.flatMap((path) => all.filter((e) => e.path === path.replace(/\/+$/, ''))));
      }
      if (action === 'preupload') {
        if (!user) return json(res, 401, { error: 'Invalid credentials in Authorization header' });
        if (!writable) return json(res, 403, { error: 'Forbidden' });
        const input = JSON.parse(body.toString('utf8')) as { files: { path: string; size: number; sample: string }[] };
        return json(res, 200, {
          files: input.files.map((f) => ({ path: f.path, uploadMode: storedInLfs(f.path, f.size, Buffer.from(f.sample ?? '', 'base64')) ? 'lfs' : 'regular', shouldIgnore: false, oid: null })),
        });
      }
      if (action === 'commit') {
        if (!user) return json(res, 401, { error: 'Invalid credentials in Authorization header' });
        if (!writable) return json(res, 403, { error: 'Forbidden' });
        return commit(repo, body, res);
      }
      if (action === 'tree') {
        if (!knownRevision(repo, segments[5])) return revisionNotFound(res, segments[5]);
        const prefix = segments.slice(6).join('/');
        const entries = treeEntries(repo, prefix, /^(true|1)$/i.test(q.get('recursive') ?? ''));
        if (prefix && entries.length === 0) return json(res, 404, { error: `Entry not found: ${prefix}` }, { 'X-Error-Code': 'EntryNotFound' });
        const expand = /^(true|1)$/i.test(q.get('expand') ?? '');
        const last = repo.commits.at(-1);
        return json(res, 200, expand && last ? entries.map((e) => ({ ...e, lastCommit: { id: headSha(repo), title: last.summary, date: new Date(0).toISOString() } })) : entries);
      }
    }
    // Git LFS batch API (basic transfer) and its verify action; the bytes are PUT to /lfs-upload/<oid>.
    const lfsRepo = /^\/datasets\/([^/]+)\/([^/]+)\.git\/info\/lfs\/objects\/(batch|verify)$/.exec(rawPath);
    if (lfsRepo && req.method === 'POST') {
      const repo = hub.repos.get(`${lfsRepo[1]}/${lfsRepo[2]}`);
      if (!repo || (repo.private && !mayRead(user, repo.owner))) return repoNotFound(res, user);
      if (!user) return json(res, 401, { error: 'Invalid credentials in Authorization header' });
      if (!mayWrite(user, repo.owner)) return json(res, 403, { error: 'Forbidden' });
      if (lfsRepo[3] === 'verify') {
        const object = JSON.parse(body.toString('utf8')) as { oid: string; size: number };
        if (hub.lfsObjects.get(object.oid)?.length !== object.size) return json(res, 404, { error: 'Object not found' });
        return json(res, 200, { success: true });
      }
      const input = JSON.parse(body.toString('utf8')) as { operation: string; objects: { oid: string; size: number }[] };
      const objects = input.objects.map(({ oid, size }) =>
        hub.lfsObjects.has(oid)
          ? { oid, size }
          : {
              oid, size, authenticated: true,
              actions: {
                upload: { href: `${hub.url}/lfs-upload/${oid}` },
                verify: { href: `${hub.url}/datasets/${repo.id}.git/info/lfs/objects/verify` },
              },
            },
      );
      const text = JSON.stringify({ transfer: 'basic', objects });
      res.writeHead(200, { 'Content-Type': 'application/vnd.git-lfs+json', 'Content-Length': Buffer.byteLength(text) });
      return void res.end(text);
    }
    if (segments[0] === 'lfs-upload' && req.method === 'PUT') {
      // The storage a batch answer points to: the bytes must hash to the announced oid.
      const oid = segments[1];
      if (createHash('sha256').update(body).digest('hex') !== oid) return json(res, 400, { error: 'The uploaded bytes do not match the object id' });
      hub.lfsObjects.set(oid, body);
      res.writeHead(200, { ETag: `"${createHash('md5').update(body).digest('hex')}"`, 'Content-Length': 0 });
      return void res.end();
    }
    if (segments[0] === 'lfs-objects') {
      // Stands in for the CDN that resolve redirects LFS files to.
      const bytes = hub.lfsObjects.get(segments[1]);
      if (!bytes) return json(res, 404, { error: 'Not found' });
      return sendBytes(req, res, bytes, `"${segments[1]}"`);
    }
    if (segments[0] === 'datasets' && segments[3] === 'resolve') {
      // /datasets/<ns>/<repo>/resolve/<rev>/<path…>   (rev may be refs%2Fconvert%2Fparquet)
      const id = `${segments[1]}/${segments[2]}`;
      const rev = segments[4];
      const path = segments.slice(5).join('/');
      if (rev === 'refs/convert/parquet') {
        const oid = parquetOids.get(`${id}/${path}`);
        if (!oid) return json(res, 404, { error: 'Entry not found' }, { 'X-Error-Code': 'EntryNotFound' });
        return redirectToLfs(res, oid, sha1(`${id}:parquet`));
      }
      const repo = hub.repos.get(id);
      if (!repo || (repo.private && !mayRead(user, repo.owner))) return repoNotFound(res, user);
      if (!knownRevision(repo, rev)) return revisionNotFound(res, rev);
      const bytes = repo.files.get(path);
      if (!bytes) return json(res, 404, { error: 'Entry not found' }, { 'X-Error-Code': 'EntryNotFound', 'X-Repo-Commit': headSha(repo) });
      const lfsOid = repo.lfs.get(path);
      if (lfsOid) return redirectToLfs(res, lfsOid, headSha(repo));
      // huggingface_hub's hf_hub_download reads the commit of what it downloads from X-Repo-Commit.
      return sendBytes(req, res, bytes, `"${gitBlobOid(bytes)}"`, { 'X-Repo-Commit': headSha(repo) });
    }
    json(res, 404, { error: `Fake hub: no route for ${req.method} ${rawPath}` });
  }

  /** One `commit` NDJSON body applied to the repo, as the Hub checks it. */
  function commit(repo: FakeRepo, body: Buffer, res: http.ServerResponse): void {
    let summary = '';
    const paths: string[] = [];
    const lines = body.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { key: string; value: Record<string, string> });
    for (const { key, value } of lines) {
      if (key === 'header') summary = value.summary ?? '';
      if (key === 'file' && Buffer.from(value.content ?? '', value.encoding === 'base64' ? 'base64' : 'utf8').includes(0)) {
        return json(res, 400, { error: 'Your push was rejected because it contains binary files. Please use https://huggingface.co/docs/hub/xet to store binary files.' });
      }
      if (key === 'lfsFile' && !hub.lfsObjects.has(value.oid)) {
        return json(res, 422, { error: `Your push was rejected because an LFS pointer pointed to a file that does not exist. Offending file: - ${value.path}` });
      }
    }
    for (const { key, value } of lines) {
      if (key === 'file') {
        repo.files.set(value.path, Buffer.from(value.content ?? '', value.encoding === 'base64' ? 'base64' : 'utf8'));
        repo.lfs.delete(value.path);
        paths.push(value.path);
      } else if (key === 'lfsFile') {
        repo.files.set(value.path, hub.lfsObjects.get(value.oid)!);
        repo.lfs.set(value.path, value.oid);
        paths.push(value.path);
      } else if (key === 'deletedFile' || key === 'deletedFolder') {
        const folder = `${value.path.replace(/\/+$/, '')}/`;
        for (const path of [...repo.files.keys()]) {
          if (path === value.path || (key === 'deletedFolder' && path.startsWith(folder))) {
            repo.files.delete(path);
            repo.lfs.delete(path);
          }
        }
      }
    }
    repo.commits.push({ summary, paths });
    const oid = headSha(repo);
    json(res, 200, { success: true, commitOid: oid, commitUrl: `${hub.url}/datasets/${repo.id}/commit/${oid}`, hookOutput: '' });
  }

  /** resolve of an LFS file: a redirect to the CDN copy, with the linked file's ETag and size. */
  function redirectToLfs(res: http.ServerResponse, oid: string, commitSha: string): void {
    const bytes = hub.lfsObjects.get(oid)!;
    res.writeHead(302, {
      Location: `${hub.url}/lfs-objects/${oid}`, 'X-Repo-Commit': commitSha, 'X-Linked-Etag': `"${oid}"`,
      'X-Linked-Size': String(bytes.length), ETag: `"${gitBlobOid(lfsPointer(oid, bytes.length))}"`, 'Content-Length': 0,
    });
    res.end();
  }

  /** `GET /api/datasets/{id}/parquet[/{config}[/{split}[/{n}.parquet]]]`: URLs by config and split, or a redirect to one file. */
  function parquetListing(dataset: FakeDataset, rest: string[], res: http.ServerResponse): void {
    const byConfig: Record<string, Record<string, string[]>> = {};
    for (const key of parquetOids.keys()) {
      const [ns, name, config, split, filename] = key.split('/');
      if (`${ns}/${name}` !== dataset.id) continue;
      ((byConfig[config] ??= {})[split] ??= []).push(`${hub.url}/api/datasets/${dataset.id}/parquet/${config}/${split}/${Number(filename.split('.')[0])}.parquet`);
    }
    const [config, split, file] = rest;
    if (config === undefined) return json(res, 200, byConfig);
    if (!byConfig[config] || (split !== undefined && !byConfig[config][split])) return json(res, 404, { error: 'Not found' });
    if (split === undefined) return json(res, 200, byConfig[config]);
    if (file === undefined) return json(res, 200, byConfig[config][split]);
    const n = /^(\d+)\.parquet$/.exec(file);
    const target = n ? `${dataset.id}/${config}/${split}/${n[1].padStart(4, '0')}.parquet` : '';
    if (!parquetOids.has(target)) return json(res, 404, { error: 'Not found' });
    res.writeHead(302, { Location: `${hub.url}/datasets/${dataset.id}/resolve/refs%2Fconvert%2Fparquet/${config}/${split}/${target.split('/').at(-1)}`, 'Content-Length': 0 });
    res.end();
  }

  function viewer(path: string, q: URLSearchParams, req: http.IncomingMessage, res: http.ServerResponse): void {
    const name = q.get('dataset');
    if (!name) return json(res, 422, { error: "Parameter 'dataset' is required" }, { 'X-Error-Code': 'MissingRequiredParameter' });
    const dataset = datasets.get(name);
    if (!dataset) {
      return req.headers.authorization
        ? json(res, 404, { error: NOT_ACCESSIBLE }, { 'X-Error-Code': 'ExternalAuthenticatedError' })
        : json(res, 401, { error: NOT_ACCESSIBLE }, { 'X-Error-Code': 'ExternalUnauthenticatedError' });
    }
    const config = q.get('config');
    if (config && config !== dataset.config) return json(res, 404, { error: 'Not found.' }, { 'X-Error-Code': 'ResponseNotFound' });
    const splitNames = Object.keys(dataset.splits);
    const featureList = Object.entries(dataset.features).map(([n, type], i) => ({ feature_idx: i, name: n, type }));
    const info = {
      description: '', citation: '', homepage: '', license: '', builder_name: 'parquet', dataset_name: name.split('/')[1],
      config_name: dataset.config, version: { version_str: '0.0.0', major: 0, minor: 0, patch: 0 }, features: dataset.features,
      splits: Object.fromEntries(splitNames.map((s) => [s, { name: s, num_bytes: 0, num_examples: dataset.splits[s].length, dataset_name: name.split('/')[1] }])),
      download_size: 0, dataset_size: 0,
    };
    switch (path) {
      case '/is-valid':
        return json(res, 200, { preview: true, viewer: true, search: false, filter: false, statistics: false });
      case '/splits':
        return json(res, 200, { splits: splitNames.map((split) => ({ dataset: name, config: dataset.config, split })), pending: [], failed: [] });
      case '/info':
        return json(res, 200, config ? { dataset_info: info, partial: false } : { dataset_info: { [dataset.config]: info }, pending: [], failed: [], partial: false });
      case '/parquet': {
        if (dataset.rowsPerFile === 0) return json(res, 200, { parquet_files: [], pending: [], failed: [], partial: false });
        const files = [...parquet.entries()]
          .filter(([key]) => key.startsWith(`${name}/${dataset.config}/`))
          .map(([key, bytes]) => {
            const [, , cfg, split, filename] = key.split('/');
            return {
              dataset: name, config: cfg, split,
              url: `${hub.url}/datasets/${name}/resolve/refs%2Fconvert%2Fparquet/${cfg}/${split}/${filename}`,
              filename, size: bytes.length,
            };
          });
        return json(res, 200, { parquet_files: files, ...(config ? { features: dataset.features } : {}), pending: [], failed: [], partial: false });
      }
      case '/size':
        return json(res, 200, { size: { dataset: { dataset: name, num_rows: Object.values(dataset.splits).reduce((n, r) => n + r.length, 0) } }, pending: [], failed: [], partial: false });
      case '/statistics': {
        const split = q.get('split');
        if (!config || !split) return json(res, 422, { error: `Parameter '${config ? 'split' : 'config'}' is required` }, { 'X-Error-Code': 'MissingRequiredParameter' });
        const rows = dataset.splits[split];
        if (!rows) return json(res, 404, { error: 'Not found.' }, { 'X-Error-Code': 'ResponseNotFound' });
        return json(res, 200, { num_examples: rows.length, partial: false, statistics: columnStatistics(dataset, rows) });
      }
      case '/first-rows':
      case '/rows': {
        const split = q.get('split');
        if (!config) return json(res, 422, { error: "Parameter 'config' is required" }, { 'X-Error-Code': 'MissingRequiredParameter' });
        if (!split) return json(res, 422, { error: "Parameter 'split' is required" }, { 'X-Error-Code': 'MissingRequiredParameter' });
        const rows = dataset.splits[split];
        if (!rows) return json(res, 404, { error: 'Not found.' }, { 'X-Error-Code': 'ResponseNotFound' });
        const offset = path === '/rows' ? Number(q.get('offset') ?? 0) : 0;
        const length = path === '/rows' ? Number(q.get('length') ?? 100) : 100;
        if (!Number.isInteger(offset) || offset < 0) return json(res, 422, { error: "Parameter 'offset' must be positive" }, { 'X-Error-Code': 'InvalidParameter' });
        if (length > 100) return json(res, 422, { error: "Parameter 'length' must not be greater than 100" }, { 'X-Error-Code': 'InvalidParameter' });
        const assets = path === '/rows' ? 'cached-assets' : 'assets';
        const page = rows.slice(offset, offset + length).map((row, i) => ({
          row_idx: offset + i,
          row: Object.fromEntries(
            Object.entries(row).map(([column, value]) => [
              column,
              (dataset.features[column] as { _type?: string })._type === 'Image'
                ? { src: `${hub.url}/${assets}/${name}/--/abc/--/${dataset.config}/${split}/${offset + i}/${column}/image.png?Expires=1`, height: 1, width: 1 }
                : value,
            ]),
          ),
          truncated_cells: [],
        }));
        if (path === '/first-rows') return json(res, 200, { dataset: name, config, split, features: featureList, rows: page, truncated: rows.length < 100 });
        return json(res, 200, { features: featureList, rows: page, num_rows_total: rows.length, num_rows_per_page: 100, partial: false });
      }
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  hub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return hub;
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** HEAD with Content-Length; GET with `Range: bytes=a-b` → 206 + Content-Range (hyparquet, downloadFile). */
function sendBytes(req: http.IncomingMessage, res: http.ServerResponse, bytes: Buffer, etag: string, extra: Record<string, string> = {}): void {
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (range) {
    const start = range[1] === '' ? Math.max(0, bytes.length - Number(range[2])) : Number(range[1]);
    const end = range[1] === '' || range[2] === '' ? bytes.length - 1 : Math.min(Number(range[2]), bytes.length - 1);
    const part = bytes.subarray(start, end + 1);
    res.writeHead(206, { 'Content-Type': 'application/octet-stream', 'Content-Length': part.length, 'Content-Range': `bytes ${start}-${end}/${bytes.length}`, ETag: etag, 'Accept-Ranges': 'bytes', ...extra });
    return void res.end(req.method === 'HEAD' ? undefined : part);
  }
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length, ETag: etag, 'Accept-Ranges': 'bytes', ...extra });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** `/statistics` entries (hub-contract §1) for the column kinds the seed datasets have. */
function columnStatistics(dataset: FakeDataset, rows: Record<string, unknown>[]) {
  return Object.entries(dataset.features).map(([name, feature]) => {
    const f = feature as { _type?: string; dtype?: string; names?: string[] };
    const values = rows.map((row) => row[name]);
    const nan_count = values.filter((v) => v === null || v === undefined).length;
    const base = { nan_count, nan_proportion: rows.length ? nan_count / rows.length : 0 };
    if (f._type === 'ClassLabel') {
      const frequencies: Record<string, number> = {};
      let noLabel = 0;
      for (const v of values as number[]) {
        if (v === -1) noLabel += 1;
        else frequencies[f.names![v]] = (frequencies[f.names![v]] ?? 0) + 1;
      }
      return { column_name: name, column_type: 'class_label', column_statistics: { ...base, no_label_count: noLabel, no_label_proportion: noLabel / rows.length, n_unique: Object.keys(frequencies).length, frequencies } };
    }
    if (f._type === 'Value' && f.dtype !== 'string') {
      const numbers = values.filter((v): v is number => typeof v === 'number');
      const min = numbers.reduce((a, b) => Math.min(a, b), Infinity);
      const max = numbers.reduce((a, b) => Math.max(a, b), -Infinity);
      const mean = numbers.reduce((a, b) => a + b, 0) / Math.max(numbers.length, 1);
      return { column_name: name, column_type: f.dtype?.startsWith('float') ? 'float' : 'int', column_statistics: { ...base, min, max, mean, median: null, std: null, histogram: null } };
    }
    if (f._type === 'Value') {
      const unique = new Set(values);
      const label = unique.size <= 10 || (unique.size / rows.length <= 0.2 && unique.size < 1000);
      if (label) {
        const frequencies: Record<string, number> = {};
        for (const v of values) frequencies[String(v)] = (frequencies[String(v)] ?? 0) + 1;
        return { column_name: name, column_type: 'string_label', column_statistics: { ...base, n_unique: unique.size, frequencies } };
      }
      const lengths = values.map((v) => String(v ?? '').length);
      return { column_name: name, column_type: 'string_text', column_statistics: { ...base, min: Math.min(...lengths), max: Math.max(...lengths), mean: null, median: null, std: null, histogram: null } };
    }
    const kind = f._type === 'Image' ? 'image' : 'list';
    return { column_name: name, column_type: kind, column_statistics: { ...base, min: null, max: null, mean: null, median: null, std: null, histogram: null } };
  });
}

/** Members read their namespace's and organizations' private repos. */
function mayRead(user: FakeHubUser | undefined, owner: string): boolean {
  return user !== undefined && (user.name === owner || (user.orgs ?? []).includes(owner));
}

/** Write rights: a `write` token of the namespace's user or of a member of that organization. */
function mayWrite(user: FakeHubUser | undefined, owner: string): boolean {
  return user?.role === 'write' && mayRead(user, owner);
}

/**
 * The public repos of the seed datasets that have one: their parquet as a pushed dataset has it
 * (`data/{split}-{i}-of-{n}.parquet`, in LFS), committed by the organization that owns them.
 */
function seedRepos(datasets: Iterable<FakeDataset>, parquet: Map<string, Buffer>, parquetOids: Map<string, string>): Map<string, FakeRepo> {
  const repos = new Map<string, FakeRepo>();
  for (const dataset of datasets) {
    if (!dataset.publicRepo) continue;
    const repo: FakeRepo = { id: dataset.id, owner: dataset.id.split('/')[0], private: false, files: new Map(), lfs: new Map(), commits: [] };
    const prefix = `${dataset.id}/${dataset.config}/`;
    const keys = [...parquet.keys()].filter((key) => key.startsWith(prefix));
    for (const split of Object.keys(dataset.splits)) {
      const files = keys.filter((key) => key.startsWith(`${prefix}${split}/`)).sort();
      files.forEach((key, i) => {
        const path = `data/${split}-${String(i).padStart(5, '0')}-of-${String(files.length).padStart(5, '0')}.parquet`;
        repo.files.set(path, parquet.get(key)!);
        repo.lfs.set(path, parquetOids.get(key)!);
      });
    }
    repo.commits.push({ summary: 'Upload dataset', paths: [...repo.files.keys()] });
    repos.set(repo.id, repo);
  }
  return repos;
}

/** The head commit of a fake repo: the oid its last commit answered. */
const headSha = (repo: FakeRepo) => sha1(`${repo.id}:${repo.commits.length}`);

/** The fake keeps only the head: `main` or any commit oid it answered names it. */
function knownRevision(repo: FakeRepo, rev: string | undefined): boolean {
  if (rev === undefined || rev === 'main') return true;
  return Array.from({ length: repo.commits.length + 1 }, (_, n) => sha1(`${repo.id}:${n}`)).includes(rev);
}

/** Unauthenticated callers get 401, others 404, so a private repo's existence does not leak. */
function repoNotFound(res: http.ServerResponse, user: FakeHubUser | undefined): void {
  json(res, user ? 404 : 401, { error: 'Repository not found' }, { 'X-Error-Code': 'RepoNotFound' });
}

function revisionNotFound(res: http.ServerResponse, rev: string | undefined): void {
  json(res, 404, { error: `Invalid rev id: ${rev}` }, { 'X-Error-Code': 'RevisionNotFound' });
}

/** Patterns of the `.gitattributes` the Hub gives a new dataset repo (its `filter=lfs` lines), the binary kinds. */
const LFS_EXTENSIONS = /\.(7z|arrow|bin|bz2|ckpt|ftz|gz|h5|joblib|lz4|mds|mlmodel|model|msgpack|npy|npz|onnx|ot|parquet|pb|pickle|pkl|pt|pth|rar|safetensors|tar|tflite|tgz|wasm|xz|zip|zst|mp3|ogg|wav|jpg|jpeg|png|webp|mp4)$/i;

/** The Hub's rule for preupload: files its `.gitattributes` tracks, large or binary files go to LFS, small text inline. */
function storedInLfs(path: string, size: number, sample: Buffer): boolean {
  return LFS_EXTENSIONS.test(path) || size >= 10 * 1024 * 1024 || sample.includes(0);
}

const lfsPointer = (oid: string, size: number) => Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`);

/** Git's object id of a blob: what the Hub answers as a file's oid and ETag. */
const gitBlobOid = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/** `GET /api/datasets/{ns}/{repo}[/revision/{rev}]` as huggingface_hub's DatasetInfo reads it (`?blobs=true`: sizes and LFS). */
function repoInfo(repo: FakeRepo, blobs: boolean) {
  const [author] = repo.id.split('/');
  return {
    _id: `repo-${repo.id}`, id: repo.id, author, sha: headSha(repo), private: repo.private, gated: false, disabled: false,
    lastModified: new Date(0).toISOString(), createdAt: new Date(0).toISOString(), tags: [], downloads: 0, likes: 0,
    cardData: {},
    siblings: [...repo.files.keys()].map((rfilename) => {
      if (!blobs) return { rfilename };
      const entry = fileEntry(repo, rfilename);
      return { rfilename, size: entry.size, blobId: entry.oid, ...(entry.lfs ? { lfs: { sha256: entry.lfs.oid, size: entry.lfs.size, pointerSize: entry.lfs.pointerSize } } : {}) };
    }),
  };
}

/** A tree entry of one file; an LFS file's oid is its pointer's, with the object under `lfs`. */
function fileEntry(repo: FakeRepo, path: string) {
  const bytes = repo.files.get(path)!;
  const oid = repo.lfs.get(path);
  if (!oid) return { type: 'file', oid: gitBlobOid(bytes), size: bytes.length, path };
  const pointer = lfsPointer(oid, bytes.length);
  return { type: 'file', oid: gitBlobOid(pointer), size: bytes.length, path, lfs: { oid, size: bytes.length, pointerSize: pointer.length } };
}

/** Tree entries under `prefix`: direct children, or everything below when recursive; folders included. */
function treeEntries(repo: FakeRepo, prefix: string, recursive: boolean) {
  const base = prefix ? `${prefix.replace(/\/+$/, '')}/` : '';
  const paths = [...repo.files.keys()].filter((path) => path.startsWith(base));
  const directories = new Set<string>();
  const entries: ReturnType<typeof fileEntry>[] = [];
  for (const path of paths) {
    const rest = path.slice(base.length).split('/');
    for (let depth = 1; depth < rest.length; depth += 1) {
      if (!recursive && depth > 1) break;
      directories.add(base + rest.slice(0, depth).join('/'));
    }
    if (recursive || rest.length === 1) entries.push(fileEntry(repo, path));
  }
  return [...[...directories].sort().map((path) => ({ type: 'directory', oid: sha1(path), size: 0, path })), ...entries];
}

const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('hex');
