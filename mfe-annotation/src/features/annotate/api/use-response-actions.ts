import {
  announceResponsesChanged, ApiError, buildUrl, currentCredentials, deleteMyResponse, fetchCurrentUser, getCurrentUser, peekCurrentUser,
  saveMyResponse, upsertMyResponses, type ApiConnection, type MyResponseBody, type RecordResponse,
} from '@scholia/shared/api';
import { notify } from '@scholia/shared/bus';
import { annotationI18n } from '../../../i18n/register-annotation-i18n.js';
import { describeFailure } from '../model/bulk-annotation.js';
import { adoptOutbox, enqueueOffline, flushOutbox, hasKeptAnswers, readOutbox, type OutboxOwner } from '../model/offline-outbox.js';

/** What undo restores: the response before the last submit, discard, draft or clear. */
export interface UndoEntry {
  datasetId: string;
  recordId: string;
  /** The response the action produced (to delete or replace), if any. */
  responseId: string | undefined;
  previous: MyResponseBody | null;
}

/** Each connection's own actions: an annotator never undoes another one's answer on the same page. */
const undoStacks = new WeakMap<ApiConnection, UndoEntry[]>();

function undoStackOf(connection: ApiConnection): UndoEntry[] {
  let stack = undoStacks.get(connection);
  if (!stack) undoStacks.set(connection, (stack = []));
  return stack;
}

export function pushUndo(connection: ApiConnection, entry: UndoEntry): void {
  const undoStack = undoStackOf(connection);
  undoStack.push(entry);
  if (undoStack.length > 50) undoStack.shift();
}

/** An undone action: its entry, and the record's own response now (none when it was removed). */
export interface UndoneAction {
  entry: UndoEntry;
  response: RecordResponse | undefined;
}

/**
 * Ctrl+Z: puts the previous answer back on the server (or removes the one created). Only this
 * dataset's actions: the stack outlives the screen, and Ctrl+Z here must not touch another one.
 */
export async function undoLast(connection: ApiConnection, datasetId: string): Promise<UndoneAction | undefined> {
  const undoStack = undoStackOf(connection);
  const index = undoStack.findLastIndex((e) => e.datasetId === datasetId);
  const entry = index < 0 ? undefined : undoStack.splice(index, 1)[0];
  if (!entry) {
    notify({ message: annotationI18n.t('messages.nothingToUndo', { ns: 'annotation' }), type: 'info' });
    return undefined;
  }
  let response: RecordResponse | undefined;
  if (entry.previous === null) {
    if (entry.responseId) await deleteMyResponse(entry.responseId, { connection });
  } else {
    response = await saveMyResponse(entry.recordId, entry.responseId, entry.previous, { connection });
  }
  announceResponsesChanged(entry.datasetId, connection);
  notify({ message: annotationI18n.t('messages.undone', { ns: 'annotation' }), type: 'success' });
  return { entry, response };
}

export type SaveOutcome = { kind: 'saved'; response: RecordResponse } | { kind: 'kept-offline'; response: RecordResponse };

type StoredListener = (kind: SaveOutcome['kind']) => void;
const storedListeners = new WeakMap<ApiConnection, Set<StoredListener>>();

/** Hears every answer of this connection the server took (`saved`) or the browser kept (`kept-offline`). */
export function onAnswerStored(connection: ApiConnection, listener: StoredListener): () => void {
  let listeners = storedListeners.get(connection);
  if (!listeners) storedListeners.set(connection, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the connection's listeners where an answer went. */
export function announceAnswerStored(connection: ApiConnection, kind: SaveOutcome['kind']): void {
  for (const listener of storedListeners.get(connection) ?? []) listener(kind);
}

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** The absolute API root a connection talks to. */
const serverUrl = (connection: ApiConnection) => new URL(buildUrl('', {}, connection), globalThis.location?.href).href;

/** Short, stable name of a credential: a storage key must not hold the token itself. */
function fingerprint(credentials: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < credentials.length; i += 1) hash = Math.imul(hash ^ credentials.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * Answers kept while the user was not known yet (offline, and `/me` never read in this session):
 * they wait under the credentials, and whoever the server says these credentials are takes them.
 */
const credentialsOwner = (connection: ApiConnection): OutboxOwner =>
  ({ serverUrl: serverUrl(connection), userId: `credentials-${fingerprint(currentCredentials(connection) ?? '')}` });

/**
 * The user the current credentials belong to, on the server the client talks to. Keeping an
 * answer takes the session's cached user (cleared on every sign-in and sign-out), else reads it,
 * else (offline) the credentials stand for the user: an answer is never lost for want of a `/me`.
 * Sending kept answers asks the server (`fresh`), since another tab may have signed in as someone
 * else meanwhile.
 */
export async function currentOutboxOwner(connection: ApiConnection, { fresh = false }: { fresh?: boolean } = {}): Promise<OutboxOwner> {
  const server = serverUrl(connection);
  if (fresh) return { serverUrl: server, userId: (await fetchCurrentUser(connection)).id };
  const cached = peekCurrentUser(connection);
  if (cached) return { serverUrl: server, userId: cached.id };
  try {
    return { serverUrl: server, userId: (await getCurrentUser(connection)).id };
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) return credentialsOwner(connection);
    throw error;
  }
}

/**
 * Whether "kept offline" was said since the last answer the server took: said once per time
 * offline, not once per record answered meanwhile (the toasts piled up, saying nothing new).
 */
let offlineNoticeShown = false;

/**
 * Saves the caller's response; offline (or when the network fails) the answer is kept in the
 * browser and sent later, and the record shows it as given.
 */
export async function saveResponse(
  connection: ApiConnection,
  datasetId: string,
  recordId: string,
  existingId: string | undefined,
  body: MyResponseBody,
): Promise<SaveOutcome> {
  const owner = await currentOutboxOwner(connection);
  const keep = (): SaveOutcome => {
    enqueueOffline(owner, { datasetId, record_id: recordId, status: body.status, values: body.values });
    if (!offlineNoticeShown) notify({ message: annotationI18n.t('messages.keptOffline', { ns: 'annotation' }), type: 'warning' });
    offlineNoticeShown = true;
    announceAnswerStored(connection, 'kept-offline');
    return { kind: 'kept-offline', response: { id: existingId ?? '', status: body.status, values: body.values, updated_at: new Date().toISOString() } };
  };
  // A record already waiting in the outbox stays there, so the order of its answers is kept.
  if (isOffline() || readOutbox(owner).some((i) => i.record_id === recordId)) return keep();
  try {
    const response = await saveMyResponse(recordId, existingId, body, { connection });
    offlineNoticeShown = false;
    announceResponsesChanged(datasetId, connection);
    announceAnswerStored(connection, 'saved');
    return { kind: 'saved', response };
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) return keep();
    throw error;
  }
}

/** What a try to send kept answers did: how many the server took, and whether some of the user's still wait. */
export interface KeptAnswersSent {
  sent: number;
  waiting: boolean;
}

/**
 * Sends the connection's user's answers kept offline (see `startSendingKeptAnswers` for when).
 * Other users' answers stay until they are back. An answer the server refuses for good (its
 * record was deleted meanwhile) is said so, not dropped silently.
 */
export async function sendKeptAnswers(connection: ApiConnection, datasetId: string): Promise<KeptAnswersSent> {
  // Nothing kept for this server (the usual case): no need to ask it who the user is.
  if (!hasKeptAnswers(serverUrl(connection))) return { sent: 0, waiting: false };
  const keptUnknown = credentialsOwner(connection);
  const owner = await currentOutboxOwner(connection, { fresh: true });
  adoptOutbox(keptUnknown, owner);
  if (readOutbox(owner).length === 0) return { sent: 0, waiting: false };
  const { accepted, refused } = await flushOutbox(owner, (items) => upsertMyResponses(items, { globalErrorHandler: false, connection }));
  if (accepted > 0 || refused.length > 0) announceResponsesChanged(datasetId, connection);
  if (accepted > 0) notify({ message: annotationI18n.t('messages.sentOffline', { ns: 'annotation', count: accepted }), type: 'success' });
  if (refused.length > 0) {
    const details = refused.map((r) => describeFailure(r, (key, options) => annotationI18n.t(key, { ns: 'annotation', ...options }))).join('; ');
    notify({ message: annotationI18n.t('messages.refusedOffline', { ns: 'annotation', count: refused.length, details }), type: 'danger' });
  }
  return { sent: accepted, waiting: readOutbox(owner).length > 0 };
}
