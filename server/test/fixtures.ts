import { expect } from 'vitest';
import { OWNER } from './test-server.js';
import { TestApi } from './api-client.js';

/**
 * Builders for API tests. They go through the HTTP API as the owner (any `api` passed in is
 * re-authenticated with OWNER's key), so every fixture is made the way a client would make it.
 */

export type Role = 'owner' | 'admin' | 'annotator';

export interface TestUser {
  id: string;
  username: string;
  password: string;
  apiKey: string;
  role: Role;
  /** A client that sends this user's API key. */
  api: TestApi;
}

export interface TestWorkspace {
  id: string;
  name: string;
}

let sequence = 0;
/** A name unique within the test run (`prefix-<n>-<random>`), valid for the SDK's name rule. */
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
}

const asOwner = (api: TestApi) => api.as({ apiKey: OWNER.apiKey });

/** Creates a user through `POST /users`; the password is known so tests can log in. */
export async function createUser(api: TestApi, options: { role?: Role; username?: string; password?: string } = {}): Promise<TestUser> {
  const role = options.role ?? 'annotator';
  const username = options.username ?? uniqueName(role);
  const password = options.password ?? `${username}-password`;
  const res = await asOwner(api).post('/users', { username, first_name: username, role, password });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const apiKey = await ownApiKey(api, username, password);
  return { id: res.body.id, username, password, apiKey, role, api: api.as({ apiKey }) };
}

/** A bearer token for these credentials, through `POST /token`. */
export async function signIn(api: TestApi, username: string, password: string): Promise<string> {
  const form = `username=${encodeURIComponent(username)}&password=${encodeURIComponent(password)}`;
  const res = await api.as(undefined).request('POST', '/token', form, { 'Content-Type': 'application/x-www-form-urlencoded' });
  if (res.status !== 201) throw new Error(`sign-in as ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.access_token;
}

/** A user's API key, read the only way a client can: signed in as that user, from `GET /me`. */
export async function ownApiKey(api: TestApi, username: string, password: string): Promise<string> {
  const me = await api.as({ token: await signIn(api, username, password) }).get('/me');
  if (me.status !== 200) throw new Error(`GET /me as ${username} answered ${me.status}`);
  return me.body.api_key;
}

/** Creates a workspace through `POST /workspaces`. */
export async function createWorkspace(api: TestApi, name: string = uniqueName('ws')): Promise<TestWorkspace> {
  const res = await asOwner(api).post('/workspaces', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, name: res.body.name };
}

/** Adds a user to a workspace through `POST /workspaces/{id}/users`. */
export async function addMember(api: TestApi, workspaceId: string, userId: string): Promise<void> {
  const res = await asOwner(api).post(`/workspaces/${workspaceId}/users`, { user_id: userId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** The principals of the policy matrix (contract §1.5), seen from one workspace. */
export interface Principals {
  workspace: TestWorkspace;
  owner: TestApi;
  adminMember: TestUser;
  adminOutsider: TestUser;
  annotatorMember: TestUser;
  annotatorOutsider: TestUser;
  anonymous: TestApi;
}

/** A fresh workspace with an admin and an annotator in it, and one of each outside it. */
export async function createPrincipals(api: TestApi, workspace?: TestWorkspace): Promise<Principals> {
  const ws = workspace ?? (await createWorkspace(api));
  const [adminMember, adminOutsider, annotatorMember, annotatorOutsider] = await Promise.all([
    createUser(api, { role: 'admin' }),
    createUser(api, { role: 'admin' }),
    createUser(api, { role: 'annotator' }),
    createUser(api, { role: 'annotator' }),
  ]);
  await addMember(api, ws.id, adminMember.id);
  await addMember(api, ws.id, annotatorMember.id);
  return {
    workspace: ws,
    owner: asOwner(api),
    adminMember,
    adminOutsider,
    annotatorMember,
    annotatorOutsider,
    anonymous: api.as(undefined),
  };
}

/** Contract §5 bodies, for `toEqual`. */
export const FORBIDDEN = {
  detail: { code: 'argilla.api.errors::ForbiddenOperationError', params: { detail: 'Operation not allowed' } },
};
export const UNAUTHORIZED = {
  detail: { code: 'argilla.api.errors::UnauthorizedError', params: { detail: 'Could not validate credentials' } },
};
/** The 422 validation body with the given issues. */
export const validationError = (...errors: { type: string; loc: (string | number)[]; msg: string }[]) => ({
  detail: { code: 'argilla.api.errors::ValidationError', params: { errors } },
});
