import { createRecord, createWorldUser, seedPublished, unique, type MatrixPrincipal, type World } from './harness.js';
import { OWNER } from '../test-server.js';

/**
 * The authorization expectation of every /api/v1 route (contract §1.5). The matrix test lists
 * the routes the server really registered and fails on any route missing here, so a new route
 * cannot ship without its policy being stated.
 */
export type Policy =
  /** No credentials needed (contract §0). */
  | 'public'
  /** Any signed-in user. */
  | 'authenticated'
  /** Owner, or any member of the resource's workspace. */
  | 'member'
  /** Owner, or an admin member of the resource's workspace. */
  | 'adminMember'
  /** Owner or any admin (jobs). */
  | 'anyAdmin'
  /** Owner, an admin member, or the response's author (the annotator member in the fixtures). */
  | 'responseAuthor'
  /** Owner only. */
  | 'owner';

export interface RouteRequest {
  /** Path under /api/v1, with query. */
  path: string;
  body?: unknown;
  /** A non-JSON body (form login). */
  form?: string;
  /** Undoes, after the call, a change later calls rely on (the caller's credentials). */
  after?: () => Promise<void>;
}

export interface RouteExpectation {
  policy: Policy;
  /** Status of an allowed call. */
  success: number | number[];
  /**
   * The call to make. `fresh` is true when the call is expected to succeed and the route would
   * consume its target (delete, publish…): the factory then makes a new target.
   */
  request(world: World, fresh: boolean): Promise<RouteRequest>;
}

/** Status a principal gets from a route of `policy` whose allowed answer is `success`. */
export function expectedStatus(policy: Policy, principal: MatrixPrincipal, success: number): number {
  if (policy === 'public') return success;
  if (principal === 'anonymous' || principal === 'badToken' || principal === 'expiredToken') return 401;
  if (principal === 'owner') return success;
  const allowed: Record<Exclude<Policy, 'public'>, MatrixPrincipal[]> = {
    authenticated: ['adminMember', 'adminOutsider', 'annotatorMember', 'annotatorOutsider'],
    member: ['adminMember', 'annotatorMember'],
    adminMember: ['adminMember'],
    anyAdmin: ['adminMember', 'adminOutsider'],
    responseAuthor: ['adminMember', 'annotatorMember'],
    owner: [],
  };
  return allowed[policy].includes(principal) ? success : 403;
}

const draft = (w: World) => seedPublished(w.server, w.ws, { status: 'draft' });
const answer = { status: 'submitted', values: { label: { value: 'positive' } } };
const freshRecord = (w: World) => createRecord(w.owner, w.dataset.id, unique('text'));

async function freshResponse(w: World): Promise<string> {
  const res = await w.users.annotatorMember.api.post(`/records/${await freshRecord(w)}/responses`, answer);
  return res.body.id;
}
async function freshValidatedRecord(w: World): Promise<string> {
  const recordId = await freshRecord(w);
  await w.owner.put(`/records/${recordId}/validation`, { values: answer.values });
  return recordId;
}
async function freshSuggestion(w: World): Promise<string> {
  const recordId = await freshRecord(w);
  const res = await w.owner.put(`/records/${recordId}/suggestions`, { question_id: w.dataset.questionIds.label, value: 'positive' });
  return res.body.id;
}
async function freshMetadataProperty(w: World): Promise<string> {
  const res = await w.owner.post(`/datasets/${w.dataset.id}/metadata-properties`, { name: unique('mp'), title: 'MP', settings: { type: 'integer' } });
  return res.body.id;
}
async function freshVectorSettings(w: World): Promise<string> {
  const d = await seedPublished(w.server, w.ws);
  return d.vectorIds.emb;
}
async function freshWebhook(w: World): Promise<string> {
  const res = await w.owner.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['record.created'] });
  return res.body.id;
}

/** Puts every principal's original API key back after a rotation, so their clients keep working. */
async function restoreApiKeys(w: World): Promise<void> {
  const keys = [{ id: w.ownerId, apiKey: OWNER.apiKey }, ...Object.values(w.users)];
  for (const { id, apiKey } of keys) await w.db.updateTable('users').set({ api_key: apiKey }).where('id', '=', id).execute();
}

const R = (policy: Policy, success: number | number[], request: RouteExpectation['request']): RouteExpectation => ({ policy, success, request });

export const ROUTE_EXPECTATIONS: Record<string, RouteExpectation> = {
  // §1 auth and info
  'POST /api/v1/token': R('public', 201, async () => ({
    path: '/token',
    form: `username=${OWNER.username}&password=${encodeURIComponent(OWNER.password)}`,
  })),
  'GET /api/v1/oauth2/providers': R('public', 200, async () => ({ path: '/oauth2/providers' })),
  'GET /api/v1/oauth2/providers/:provider/authentication': R('public', 404, async () => ({ path: '/oauth2/providers/nope/authentication' })),
  'GET /api/v1/oauth2/providers/:provider/access-token': R('public', 404, async () => ({ path: '/oauth2/providers/nope/access-token?code=c&state=s' })),
  'GET /api/v1/version': R('public', 200, async () => ({ path: '/version' })),
  'GET /api/v1/status': R('public', 200, async () => ({ path: '/status' })),
  'GET /api/v1/settings': R('public', 200, async () => ({ path: '/settings' })),
  'POST /api/v1/client-errors': R('public', 204, async () => ({
    path: '/client-errors', body: { kind: 'remote-load-failed', remote: 'mfe_home', message: 'authorization matrix' },
  })),
  'GET /api/v1/me': R('authenticated', 200, async () => ({ path: '/me' })),
  'GET /api/v1/me/workspaces': R('authenticated', 200, async () => ({ path: '/me/workspaces' })),
  'POST /api/v1/me/api-key': R('authenticated', 201, async (w) => ({ path: '/me/api-key', after: () => restoreApiKeys(w) })),
  // A too-short new password: refused (422) for every signed-in caller before any password is
  // checked or counted, so the matrix neither changes a principal's password nor trips the backoff.
  'PUT /api/v1/me/password': R('authenticated', 422, async () => ({ path: '/me/password', body: { current_password: 'not-checked', new_password: 'short' } })),
  'GET /api/v1/me/datasets': R('authenticated', 200, async () => ({ path: '/me/datasets' })),
  'GET /api/v1/me/datasets/:dataset_id/metrics': R('member', 200, async (w) => ({ path: `/me/datasets/${w.dataset.id}/metrics` })),
  'GET /api/v1/me/datasets/:dataset_id/metadata-properties': R('member', 200, async (w) => ({ path: `/me/datasets/${w.dataset.id}/metadata-properties` })),
  'POST /api/v1/me/datasets/:dataset_id/records/search': R('member', 200, async (w) => ({ path: `/me/datasets/${w.dataset.id}/records/search`, body: {} })),
  // Per-record authorization: outsiders get 200 with a per-item error (checked by the IDOR test).
  'POST /api/v1/me/responses/bulk': R('authenticated', 200, async (w) => ({
    path: '/me/responses/bulk',
    body: { items: [{ record_id: await freshRecord(w), ...answer }] },
  })),

  // §2.2 users
  'GET /api/v1/users': R('owner', 200, async () => ({ path: '/users' })),
  'POST /api/v1/users': R('owner', 201, async () => ({ path: '/users', body: { username: unique('u'), first_name: 'U', password: 'password-123' } })),
  'GET /api/v1/users/:user_id': R('owner', 200, async (w) => ({ path: `/users/${w.users.annotatorMember.id}` })),
  'PATCH /api/v1/users/:user_id': R('owner', 200, async (w) => ({ path: `/users/${w.users.annotatorMember.id}`, body: { last_name: 'L' } })),
  'DELETE /api/v1/users/:user_id': R('owner', 200, async (w, fresh) => ({
    path: `/users/${fresh ? (await createWorldUser(w.owner, 'annotator')).id : w.users.annotatorMember.id}`,
  })),
  'GET /api/v1/users/:user_id/workspaces': R('owner', 200, async (w) => ({ path: `/users/${w.users.annotatorMember.id}/workspaces` })),

  // Sign-in identities (Scholia extension)
  'GET /api/v1/identities': R('owner', 200, async () => ({ path: '/identities' })),
  'PUT /api/v1/users/:user_id/identities/:provider': R('owner', 200, async (w) => ({
    path: `/users/${w.users.annotatorMember.id}/identities/huggingface`,
    body: { subject: unique('sub') },
  })),
  'DELETE /api/v1/users/:user_id/identities/:provider': R('owner', 200, async (w, fresh) => {
    if (!fresh) return { path: `/users/${w.users.annotatorMember.id}/identities/huggingface` };
    const linked = await createWorldUser(w.owner, 'annotator');
    await w.owner.put(`/users/${linked.id}/identities/huggingface`, { subject: unique('sub') });
    return { path: `/users/${linked.id}/identities/huggingface` };
  }),

  // §2.3 workspaces
  'POST /api/v1/workspaces': R('owner', 201, async () => ({ path: '/workspaces', body: { name: unique('ws') } })),
  'GET /api/v1/workspaces/:workspace_id': R('member', 200, async (w) => ({ path: `/workspaces/${w.ws}` })),
  'DELETE /api/v1/workspaces/:workspace_id': R('owner', 200, async (w, fresh) => ({
    path: `/workspaces/${fresh ? (await w.owner.post('/workspaces', { name: unique('ws') })).body.id : w.ws}`,
  })),
  'GET /api/v1/workspaces/:workspace_id/users': R('adminMember', 200, async (w) => ({ path: `/workspaces/${w.ws}/users` })),
  'POST /api/v1/workspaces/:workspace_id/users': R('owner', 201, async (w) => ({
    path: `/workspaces/${w.ws}/users`,
    body: { user_id: (await createWorldUser(w.owner, 'annotator')).id },
  })),
  'DELETE /api/v1/workspaces/:workspace_id/users/:user_id': R('adminMember', 200, async (w, fresh) => ({
    path: `/workspaces/${w.ws}/users/${fresh ? (await createWorldUser(w.owner, 'annotator', w.ws)).id : w.users.annotatorMember.id}`,
  })),

  // §2.4 datasets
  'POST /api/v1/datasets': R('adminMember', 201, async (w) => ({ path: '/datasets', body: { name: unique('ds'), workspace_id: w.ws } })),
  'GET /api/v1/datasets/:dataset_id': R('member', 200, async (w) => ({ path: `/datasets/${w.dataset.id}` })),
  'PATCH /api/v1/datasets/:dataset_id': R('adminMember', 200, async (w) => ({ path: `/datasets/${w.dataset.id}`, body: { guidelines: unique('g') } })),
  'DELETE /api/v1/datasets/:dataset_id': R('adminMember', 200, async (w, fresh) => ({
    path: `/datasets/${fresh ? (await seedPublished(w.server, w.ws)).id : w.dataset.id}`,
  })),
  'PUT /api/v1/datasets/:dataset_id/publish': R('adminMember', 200, async (w) => ({ path: `/datasets/${(await draft(w)).id}/publish` })),
  'GET /api/v1/datasets/:dataset_id/progress': R('member', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/progress` })),
  'GET /api/v1/datasets/:dataset_id/users/progress': R('member', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/users/progress` })),
  'POST /api/v1/datasets/:dataset_id/import': R('adminMember', 202, async (w) => ({
    path: `/datasets/${w.dataset.id}/import`,
    body: { name: 'scholia/none', subset: 'default', split: 'train', mapping: { fields: [{ source: 'text', target: 'text' }] } },
  })),
  'POST /api/v1/datasets/:dataset_id/export': R('adminMember', 202, async (w) => ({
    path: `/datasets/${w.dataset.id}/export`,
    body: { name: 'scholia/out', token: 'hf_x' },
  })),

  // §2.5–2.8 settings
  'GET /api/v1/datasets/:dataset_id/fields': R('member', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/fields` })),
  'POST /api/v1/datasets/:dataset_id/fields': R('adminMember', 201, async (w) => ({
    path: `/datasets/${(await draft(w)).id}/fields`,
    body: { name: unique('f'), title: 'F', settings: { type: 'text' } },
  })),
  'PATCH /api/v1/fields/:field_id': R('adminMember', 200, async (w) => ({ path: `/fields/${w.dataset.fieldIds.context}`, body: { title: unique('t') } })),
  'DELETE /api/v1/fields/:field_id': R('adminMember', 200, async (w) => ({ path: `/fields/${(await draft(w)).fieldIds.context}` })),
  'GET /api/v1/datasets/:dataset_id/questions': R('member', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/questions` })),
  'POST /api/v1/datasets/:dataset_id/questions': R('adminMember', 201, async (w) => ({
    path: `/datasets/${(await draft(w)).id}/questions`,
    body: { name: unique('q'), title: 'Q', settings: { type: 'text' } },
  })),
  'PATCH /api/v1/questions/:question_id': R('adminMember', 200, async (w) => ({ path: `/questions/${w.dataset.questionIds.comment}`, body: { title: unique('t') } })),
  'DELETE /api/v1/questions/:question_id': R('adminMember', 200, async (w) => ({ path: `/questions/${(await draft(w)).questionIds.comment}` })),
  'POST /api/v1/datasets/:dataset_id/metadata-properties': R('adminMember', 201, async (w) => ({
    path: `/datasets/${w.dataset.id}/metadata-properties`,
    body: { name: unique('mp'), title: 'MP', settings: { type: 'float' } },
  })),
  'PATCH /api/v1/metadata-properties/:metadata_property_id': R('adminMember', 200, async (w) => ({
    path: `/metadata-properties/${w.metadataPropertyId}`,
    body: { title: unique('t'), visible_for_annotators: true },
  })),
  'DELETE /api/v1/metadata-properties/:metadata_property_id': R('adminMember', 200, async (w, fresh) => ({
    path: `/metadata-properties/${fresh ? await freshMetadataProperty(w) : w.metadataPropertyId}`,
  })),
  'GET /api/v1/metadata-properties/:metadata_property_id/metrics': R('member', 200, async (w) => ({ path: `/metadata-properties/${w.metadataPropertyId}/metrics` })),
  'GET /api/v1/datasets/:dataset_id/vectors-settings': R('member', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/vectors-settings` })),
  'POST /api/v1/datasets/:dataset_id/vectors-settings': R('adminMember', 201, async (w) => ({
    path: `/datasets/${(await seedPublished(w.server, w.ws)).id}/vectors-settings`,
    body: { name: unique('v'), title: 'V', dimensions: 2 },
  })),
  'PATCH /api/v1/vectors-settings/:vector_settings_id': R('adminMember', 200, async (w) => ({ path: `/vectors-settings/${w.dataset.vectorIds.emb}`, body: { title: unique('t') } })),
  'DELETE /api/v1/vectors-settings/:vector_settings_id': R('adminMember', 200, async (w, fresh) => ({
    path: `/vectors-settings/${fresh ? await freshVectorSettings(w) : w.dataset.vectorIds.emb}`,
  })),

  // §2.9 records
  'GET /api/v1/datasets/:dataset_id/records': R('adminMember', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/records` })),
  'DELETE /api/v1/datasets/:dataset_id/records': R('adminMember', 204, async (w, fresh) => ({
    path: `/datasets/${w.dataset.id}/records?ids=${fresh ? await freshRecord(w) : w.recordId}`,
  })),
  'POST /api/v1/datasets/:dataset_id/records/bulk': R('adminMember', 201, async (w) => ({
    path: `/datasets/${w.dataset.id}/records/bulk`,
    body: { items: [{ fields: { text: unique('t') } }] },
  })),
  'PUT /api/v1/datasets/:dataset_id/records/bulk': R('adminMember', 200, async (w) => ({
    path: `/datasets/${w.dataset.id}/records/bulk`,
    body: { items: [{ fields: { text: unique('t') } }] },
  })),
  'POST /api/v1/datasets/:dataset_id/records/search': R('adminMember', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/records/search`, body: {} })),
  'GET /api/v1/datasets/:dataset_id/records/search/suggestions/options': R('member', 200, async (w) => ({
    path: `/datasets/${w.dataset.id}/records/search/suggestions/options`,
  })),
  'GET /api/v1/records/:record_id': R('member', 200, async (w) => ({ path: `/records/${w.recordId}` })),
  'PATCH /api/v1/records/:record_id': R('adminMember', 200, async (w) => ({ path: `/records/${w.recordId}`, body: { metadata: { split: 'test' } } })),
  'DELETE /api/v1/records/:record_id': R('adminMember', 200, async (w, fresh) => ({ path: `/records/${fresh ? await freshRecord(w) : w.recordId}` })),

  // Scholia extension: review
  'PUT /api/v1/records/:record_id/validation': R('adminMember', 200, async (w) => ({ path: `/records/${w.recordId}/validation`, body: { values: answer.values } })),
  'DELETE /api/v1/records/:record_id/validation': R('adminMember', 200, async (w, fresh) => ({
    path: `/records/${fresh ? await freshValidatedRecord(w) : w.recordId}/validation`,
  })),
  'POST /api/v1/datasets/:dataset_id/records/validation/bulk': R('adminMember', 200, async (w) => ({
    path: `/datasets/${w.dataset.id}/records/validation/bulk`,
    body: {},
  })),
  'GET /api/v1/datasets/:dataset_id/agreement': R('adminMember', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/agreement` })),
  'GET /api/v1/datasets/:dataset_id/records/export': R('adminMember', 200, async (w) => ({ path: `/datasets/${w.dataset.id}/records/export?format=jsonl` })),

  // §2.10 responses
  'POST /api/v1/records/:record_id/responses': R('member', 201, async (w) => ({ path: `/records/${await freshRecord(w)}/responses`, body: answer })),
  'PUT /api/v1/responses/:response_id': R('responseAuthor', 200, async (w) => ({ path: `/responses/${w.responseId}`, body: answer })),
  'DELETE /api/v1/responses/:response_id': R('responseAuthor', 200, async (w, fresh) => ({ path: `/responses/${fresh ? await freshResponse(w) : w.responseId}` })),

  // §2.11 suggestions
  'GET /api/v1/records/:record_id/suggestions': R('member', 200, async (w) => ({ path: `/records/${w.recordId}/suggestions` })),
  'PUT /api/v1/records/:record_id/suggestions': R('adminMember', [200, 201], async (w) => ({
    path: `/records/${w.recordId}/suggestions`,
    body: { question_id: w.dataset.questionIds.label, value: 'neutral' },
  })),
  'DELETE /api/v1/records/:record_id/suggestions': R('adminMember', 204, async (w, fresh) => ({
    path: `/records/${w.recordId}/suggestions?ids=${fresh ? await freshSuggestion(w) : w.suggestionId}`,
  })),
  'DELETE /api/v1/suggestions/:suggestion_id': R('adminMember', 200, async (w, fresh) => ({
    path: `/suggestions/${fresh ? await freshSuggestion(w) : w.suggestionId}`,
  })),

  // §2.4 jobs, §2.12 webhooks
  'GET /api/v1/jobs/:job_id': R('anyAdmin', 200, async (w) => ({ path: `/jobs/${w.jobId}` })),
  'GET /api/v1/webhooks': R('owner', 200, async () => ({ path: '/webhooks' })),
  'POST /api/v1/webhooks': R('owner', 201, async () => ({ path: '/webhooks', body: { url: 'http://127.0.0.1:9/new', events: ['dataset.deleted'] } })),
  'PATCH /api/v1/webhooks/:webhook_id': R('owner', 200, async (w) => ({ path: `/webhooks/${w.webhookId}`, body: { description: unique('d') } })),
  'DELETE /api/v1/webhooks/:webhook_id': R('owner', 200, async (w, fresh) => ({ path: `/webhooks/${fresh ? await freshWebhook(w) : w.webhookId}` })),
  'POST /api/v1/webhooks/:webhook_id/ping': R('owner', 204, async (w) => ({ path: `/webhooks/${w.webhookId}/ping` })),
  'GET /api/v1/webhooks/:webhook_id/deliveries': R('owner', 200, async (w) => ({ path: `/webhooks/${w.webhookId}/deliveries` })),
};

/** Sends a matrix request as the given client. */
export async function sendRouteRequest(client: import('../api-client.js').TestApi, method: string, req: RouteRequest) {
  if (req.form !== undefined) return client.request(method, req.path, req.form, { 'Content-Type': 'application/x-www-form-urlencoded' });
  return client.request(method, req.path, req.body);
}
