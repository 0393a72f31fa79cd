import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildFakeDatasets, writeSplitParquet, type FakeDataset } from './fake-datasets.js';

/**
 * A local stand-in for huggingface.co, the dataset viewer and Hugging Face's OpenID provider
 * (hub-contract §7): one HTTP server on 127.0.0.1, seeded datasets with parquet made at startup,
 * repositories written by commits kept in memory so tests can read an export back.
 */
export interface FakeHubUser {
  name: string;
  fullname: string;
  /** `write` may create repos in its own namespace; `read` may not. */
  role: 'read' | 'write';
}

export interface FakeRepo {
  id: string;
  owner: string;
  private: boolean;
  files: Map<string, Buffer>;
  commits: { summary: string; paths: string[] }[];
}

export interface FakeHub {
  url: string;
  /** Valid tokens → user. */
  tokens: Map<string, FakeHubUser>;
  repos: Map<string, FakeRepo>;
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

export async function startFakeHub(): Promise<FakeHub> {
  const datasets = new Map<string, FakeDataset>(buildFakeDatasets().map((d) => [d.id, d]));
  // refs/convert/parquet files: `${dataset}/${config}/${split}/NNNN.parquet` → bytes
  const parquet = new Map<string, Buffer>();
  for (const dataset of datasets.values()) {
    if (dataset.rowsPerFile === 0) continue;
    for (const [split, rows] of Object.entries(dataset.splits)) {
      writeSplitParquet(dataset, rows).forEach((bytes, i) => {
        parquet.set(`${dataset.id}/${dataset.config}/${split}/${String(i).padStart(4, '0')}.parquet`, Buffer.from(bytes));
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
    ]),
    repos: new Map(),
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
        isPro: false, canPay: false, avatarUrl: '', periodEnd: null, orgs: [],
        auth: { type: 'access_token', accessToken: { displayName: 't', role: user.role, createdAt: '2024-01-01T00:00:00.000Z' } },
      });
    }
    if (rawPath === '/api/repos/create' && req.method === 'POST') {
      if (!user) return json(res, 401, { error: 'Invalid credentials in Authorization header' });
      const input = JSON.parse(body.toString('utf8')) as { name: string; organization?: string; type?: string; visibility?: string; private?: boolean };
      const owner = input.organization ?? user.name;
      if (owner !== user.name || user.role !== 'write') return json(res, 403, { error: `You don't have the rights to create a dataset under the namespace "${owner}"` });
      const id = `${owner}/${input.name}`;
      if (hub.repos.has(id)) return json(res, 409, { error: 'You already created this dataset repo', url: `${hub.url}/datasets/${id}` });
      hub.repos.set(id, { id, owner, private: input.visibility === 'private' || input.private === true, files: new Map(), commits: [] });
      return json(res, 200, { url: `${hub.url}/datasets/${id}`, name: id, id: `repo-${id}` });
    }
    if (segments[0] === 'api' && segments[1] === 'datasets' && segments.length >= 4) {
      const repo = hub.repos.get(`${segments[2]}/${segments[3]}`);
      const action = segments[4];
      if (!repo || (repo.private && user?.name !== repo.owner)) {
        return json(res, 404, { error: 'Repository not found' }, { 'X-Error-Code': 'RepoNotFound' });
      }
      // huggingface_hub (the argilla SDK's from_hub, `datasets.load_dataset`): repo info with its files,
      // at any revision (the fake keeps one: the head).
      if (action === undefined || action === 'revision') return json(res, 200, repoInfo(repo));
      if (action === 'paths-info') {
        const form = (req.headers['content-type'] ?? '').includes('json')
          ? (JSON.parse(body.toString('utf8')) as { paths: string[] }).paths
          : new URLSearchParams(body.toString('utf8')).getAll('paths');
        return json(res, 200, form.flatMap((path) => treeEntries(repo, '', true).filter((e) => e.path === path.replace(/\/+$/, ''))));
      }
      if (action === 'preupload') {
        if (user?.name !== repo.owner || user.role !== 'write') return json(res, 403, { error: 'Forbidden' });
        const input = JSON.parse(body.toString('utf8')) as { files: { path: string }[] };
        return json(res, 200, { files: input.files.map((f) => ({ path: f.path, uploadMode: 'regular', shouldIgnore: false, oid: null })) });
      }
      if (action === 'commit') {
        if (!user) return json(res, 401, { error: 'Invalid credentials in Authorization header' });
        if (user.name !== repo.owner || user.role !== 'write') return json(res, 403, { error: 'Forbidden' });
        let summary = '';
        const paths: string[] = [];
        for (const line of body.toString('utf8').split('\n').filter(Boolean)) {
          const entry = JSON.parse(line) as { key: string; value: { summary?: string; path: string; content?: string; encoding?: string } };
          if (entry.key === 'header') summary = entry.value.summary ?? '';
          else if (entry.key === 'file') {
            repo.files.set(entry.value.path, Buffer.from(entry.value.content ?? '', entry.value.encoding === 'base64' ? 'base64' : 'utf8'));
            paths.push(entry.value.path);
          } else if (entry.key === 'deletedFile') repo.files.delete(entry.value.path);
          else if (entry.key === 'lfsFile') return json(res, 422, { error: 'The fake hub answers uploadMode "regular" only' });
        }
        repo.commits.push({ summary, paths });
        const oid = sha1(`${repo.id}:${repo.commits.length}`);
        return json(res, 200, { success: true, commitOid: oid, commitUrl: `${hub.url}/datasets/${repo.id}/commit/${oid}`, hookOutput: '' });
      }
      if (action === 'tree') {
        const prefix = segments.slice(6).join('/');
        return json(res, 200, treeEntries(repo, prefix, q.get('recursive') === 'true' || q.get('recursive') === '1'));
      }
    }
    if (segments[0] === 'datasets' && segments[3] === 'resolve') {
      // /datasets/<ns>/<repo>/resolve/<rev>/<path…>   (rev may be refs%2Fconvert%2Fparquet)
      const id = `${segments[1]}/${segments[2]}`;
      const rev = segments[4];
      const path = segments.slice(5).join('/');
      const repo = hub.repos.get(id);
      const bytes = rev === 'refs/convert/parquet' ? parquet.get(`${id}/${path}`) : repo?.files.get(path);
      if (!bytes) return json(res, 404, { error: 'Entry not found' }, { 'X-Error-Code': 'EntryNotFound' });
      // huggingface_hub's hf_hub_download reads the commit of what it downloads from X-Repo-Commit.
      return sendBytes(req, res, bytes, repo ? { 'X-Repo-Commit': headSha(repo) } : {});
    }
    json(res, 404, { error: `Fake hub: no route for ${req.method} ${rawPath}` });
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

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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
function sendBytes(req: http.IncomingMessage, res: http.ServerResponse, bytes: Buffer, extra: Record<string, string> = {}): void {
  const etag = `"${sha1(bytes)}"`;
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

/** The head commit of a fake repo: the oid its last commit answered. */
const headSha = (repo: FakeRepo) => sha1(`${repo.id}:${repo.commits.length}`);

/** `GET /api/datasets/{ns}/{repo}[/revision/{rev}]` as huggingface_hub's DatasetInfo reads it. */
function repoInfo(repo: FakeRepo) {
  const [author] = repo.id.split('/');
  return {
    _id: `repo-${repo.id}`, id: repo.id, author, sha: headSha(repo), private: repo.private, gated: false, disabled: false,
    lastModified: new Date(0).toISOString(), createdAt: new Date(0).toISOString(), tags: [], downloads: 0, likes: 0,
    cardData: {}, siblings: [...repo.files.keys()].map((rfilename) => ({ rfilename })),
  };
}

/** Tree entries under `prefix`: direct children, or everything below when recursive; folders included. */
function treeEntries(repo: FakeRepo, prefix: string, recursive: boolean) {
  const base = prefix ? `${prefix.replace(/\/+$/, '')}/` : '';
  const files = [...repo.files.entries()].filter(([path]) => path.startsWith(base));
  const directories = new Set<string>();
  const entries: { type: string; oid: string; size: number; path: string }[] = [];
  for (const [path, bytes] of files) {
    const rest = path.slice(base.length).split('/');
    for (let depth = 1; depth < rest.length; depth += 1) {
      if (!recursive && depth > 1) break;
      directories.add(base + rest.slice(0, depth).join('/'));
    }
    if (recursive || rest.length === 1) entries.push({ type: 'file', oid: sha1(bytes), size: bytes.length, path });
  }
  return [...[...directories].sort().map((path) => ({ type: 'directory', oid: sha1(path), size: 0, path })), ...entries];
}

const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('hex');
