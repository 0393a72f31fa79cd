import type { Kysely } from 'kysely';
import { AnswerTable } from '../../lib/agreement/answer-table.js';
import type { AgreementQuestion } from '../../lib/agreement/dataset-agreement.js';
import { forEachSubmittedAnswer, recordRidsById, responseSetVersion } from '../../storage/repositories/agreement.repository.js';
import type { Tables } from '../../storage/tables.js';

type Db = Kysely<Tables>;

/**
 * The submitted answers of recently measured datasets, kept in memory between agreement requests:
 * reading 300,000 responses is most of a request's time, and they change far less often than
 * the figures are asked for. A table is used while the dataset's response-set version (bumped by
 * triggers on every response insert, update and delete, cascades included) and its measured
 * questions are those it was read with; filters are applied to it per request, so changes to
 * metadata, record status or validations need no invalidation here. The version is read before
 * the answers, so a table is never older than the version it is kept under.
 *
 * A single response write is written into the kept table (applyResponseChange) when it is the very
 * next version after the table's; any other change (a bulk record write, a cascade, a write of
 * another server process the table missed) leaves a version gap, and the next request reads again.
 *
 * At most MAX_ANSWERS answers are kept, about 28 MB (some 47 bytes an answer with its record's id,
 * measured at 300,000 answers), the least recently used dataset leaving first; a larger dataset is
 * read again on each request.
 */
const MAX_ANSWERS = 600_000;

/** A dataset's answers, and the rid of each of their records by its number in the table (read on first use: filters name rids). */
export interface KeptAnswers {
  table: AnswerTable;
  recordRids(): Promise<readonly number[]>;
  /** Writes one changed answer into the table, keeping the rids in line with its records. */
  apply(change: ResponseChange): void;
}

/** One response write that moved the dataset's response-set version from `fromVersion` to `toVersion`. */
export interface ResponseChange {
  fromVersion: number;
  toVersion: number;
  recordId: string;
  recordRid: number;
  userId: string;
  /** the response's stored values when it is submitted afterwards, otherwise null */
  submittedValues: string | null;
}

interface Entry {
  version: number;
  questionsKey: string;
  answers: Promise<KeptAnswers>;
  size: number;
}

const cachesByDb = new WeakMap<Db, Map<string, Entry>>();

/** Full reads of a dataset's answers since the process started (tests tell a kept table from a new read by it). */
let answerReads = 0;
export const answerReadCount = (): number => answerReads;

/** The dataset's submitted answers to `questions`. */
export async function submittedAnswers(db: Db, datasetId: string, questions: readonly AgreementQuestion[]): Promise<KeptAnswers> {
  let cache = cachesByDb.get(db);
  if (!cache) cachesByDb.set(db, (cache = new Map()));
  const version = await responseSetVersion(db, datasetId);
  const questionsKey = JSON.stringify(questions);
  const kept = cache.get(datasetId);
  if (kept && kept.version === version && kept.questionsKey === questionsKey) {
    // Most recently used last.
    cache.delete(datasetId);
    cache.set(datasetId, kept);
    return kept.answers;
  }
  const entry: Entry = { version, questionsKey, answers: readAnswers(db, datasetId, questions), size: 0 };
  cache.set(datasetId, entry);
  try {
    const answers = await entry.answers;
    entry.size = answers.table.size;
    if (cache.get(datasetId) === entry) keepWithin(cache, datasetId);
    return answers;
  } catch (error) {
    if (cache.get(datasetId) === entry) cache.delete(datasetId);
    throw error;
  }
}

/** Whether this process keeps the dataset's answers: only then is a response write worth applying to them. */
export function keepsAnswersOf(db: Db, datasetId: string): boolean {
  return cachesByDb.get(db)?.has(datasetId) ?? false;
}

/**
 * Writes a response change into the dataset's kept answers when they are at the version just
 * before it; otherwise they stay as they are, and a request that finds them behind reads again.
 */
export function applyResponseChange(db: Db, datasetId: string, change: ResponseChange): void {
  const entry = cachesByDb.get(db)?.get(datasetId);
  if (!entry || entry.version !== change.fromVersion) return;
  // Set at once, so that changes arriving in a row are taken in order even while the table is still being read.
  entry.version = change.toVersion;
  const changed = entry.answers.then((answers) => {
    answers.apply(change);
    return answers;
  });
  changed.catch(() => undefined); // a failed read is reported to the request that started it
  entry.answers = changed;
}

async function readAnswers(db: Db, datasetId: string, questions: readonly AgreementQuestion[]): Promise<KeptAnswers> {
  answerReads += 1;
  const table = new AnswerTable(questions);
  await forEachSubmittedAnswer(db, datasetId, (recordId, userId, values) => table.addStored(recordId, userId, values));
  // A record's rid never changes, and deleting a record of the table deletes its responses (a new version): read once.
  let rids: Promise<number[]> | undefined;
  let ridsRead: number[] | undefined;
  const readRids = async () => {
    const ridOf = await recordRidsById(db, datasetId);
    return (ridsRead = Array.from(table.recordIds, (id) => ridOf.get(id) ?? -1));
  };
  return {
    table,
    recordRids: () => (rids ??= readRids()),
    apply(change) {
      const added = table.setAnswer(change.recordId, change.userId, change.submittedValues);
      if (added === undefined || !rids) return;
      // In place: a request holding the array while the table gains a record still finds its rid.
      if (ridsRead) ridsRead[added] = change.recordRid;
      else {
        rids = rids.then((ridOf) => ((ridOf[added] = change.recordRid), ridOf));
        rids.catch(() => undefined); // a failed read is reported to the request waiting for it
      }
    },
  };
}

/** Drops the least recently used tables until the kept answers fit, the newest included if it alone does not. */
function keepWithin(cache: Map<string, Entry>, newest: string): void {
  let total = 0;
  for (const entry of cache.values()) total += entry.size;
  for (const [datasetId, entry] of cache) {
    if (total <= MAX_ANSWERS) return;
    if (entry.size === 0 && datasetId !== newest) continue; // still being read
    cache.delete(datasetId);
    total -= entry.size;
  }
}
