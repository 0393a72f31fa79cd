import { sql, type Kysely } from 'kysely';
import { hasAtLeastRecords } from '../repositories/datasets.repository.js';
import type { Tables } from '../tables.js';
import { memoryRelease } from '../../lib/memory-release.js';

/**
 * In-memory copies of large datasets (metadata columns, text champions), each used only at the
 * `record_set_versions` version it was read at: triggers bump it on every record insert, delete
 * and metadata or field change (migrations 202611240400, 202611240500 and 202611240600), so a copy
 * is never stale, also when another server process wrote. A missing or outdated copy is built in
 * the background, and searches go to SQL until it is ready.
 */
export interface VersionedCopy {
  version: number;
}

export interface CopyPolicy {
  /** Below this many records SQL answers fast enough and no copy is kept. */
  minRecords: number;
  /** A dataset is sized, and (re)built, no more often than this: e.g. while it is written without pause. */
  rebuildCooldownMs: number;
  /**
   * Also at least this many times its last build's duration apart: while a large dataset is
   * written without pause, rebuilding its copy takes at most 1/factor of a worker thread (a
   * million records' text copy takes ~25 s to build; every 30 s it took most of a core away from
   * the ingestion). 0 or absent: the cooldown alone.
   */
  buildTimeFactor?: number;
  /**
   * A dataset seen at one version for this long is rebuilt without the buildTimeFactor wait: its
   * writes have stopped, so the new copy stays current. Without it, the searches after a large
   * ingestion that was searched while it ran went to SQL for ten build times (~8 min at 1M).
   * Absent: the factor always applies. Present: a dataset seen changing is not built before then
   * either unless a copy of it was in use (records added now and then): while records are written
   * without pause every copy is outdated before a search can use it, and at 1M records a text
   * copy built for nothing took 43 s of a core from the ingestion.
   */
  quietAfterMs?: number;
}

interface Entry<T> {
  copy: T;
  /** What the copy was built for besides the records (property names, fields). */
  shape: string;
  lastUsed: number;
  /** A search got this copy: it was current for a while. */
  used: boolean;
}

export class VersionedCopies<T extends VersionedCopy> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly building = new Map<string, Promise<void>>();
  private readonly lastCheck = new Map<string, number>();
  private readonly lastBuildMs = new Map<string, number>();
  /**
   * Each dataset's version as last asked for, since when it has been asked for, and whether
   * another version was asked for before it (the records changed while this process watched).
   */
  private readonly versionSeen = new Map<string, { version: number; since: number; changed: boolean }>();
  /** Large datasets whose build waits for their records to stop changing. */
  private readonly waitingForQuiet = new Set<string>();
  private readonly quietChecks = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private policy: CopyPolicy,
    /** Upper bound on the summed `sizeOf` of the copies kept; least recently used go first. */
    private readonly budget: number,
    private readonly sizeOf: (copy: T) => number,
    /** The dataset's current version, read when a quiet-time check comes due (tests replace it). */
    private readonly currentVersion: (db: Kysely<Tables>, datasetId: string) => Promise<number> = readRecordSetVersion,
  ) {}

  /**
   * The dataset's copy for `shape` when one at `version` (the dataset's current one, from
   * readRecordSetVersion) is in memory; otherwise undefined, and `build` starts in the background
   * (large datasets only).
   */
  async ready(db: Kysely<Tables>, datasetId: string, version: number, shape: string, build: () => Promise<T>): Promise<T | undefined> {
    const entry = this.entries.get(datasetId);
    if (entry && entry.shape === shape && entry.copy.version === version) {
      entry.lastUsed = performance.now();
      entry.used = true;
      return entry.copy;
    }
    const seen = this.versionSeen.get(datasetId);
    if (seen?.version !== version) this.versionSeen.set(datasetId, { version, since: performance.now(), changed: seen !== undefined });
    if (!this.checkDue(datasetId)) {
      this.checkWhenQuiet(db, datasetId, shape, build);
    } else if (!(await hasAtLeastRecords(db, datasetId, this.policy.minRecords))) {
      this.waitingForQuiet.delete(datasetId); // small again, or deleted: searches go to SQL
    } else if (this.changingWithNoCopyInUse(datasetId, entry?.shape === shape && entry.used)) {
      this.waitingForQuiet.add(datasetId);
      this.checkWhenQuiet(db, datasetId, shape, build);
    } else {
      this.start(datasetId, shape, build);
    }
    return undefined;
  }

  /**
   * An out-of-date copy that was asked for comes back once its dataset is quiet, whether or not a
   * search asks again then: the version is read again at that time (and again a quiet time later
   * while writes go on). A dataset with no copy (too small, or its build failed) is left to the
   * searches: nothing runs in the background for it.
   */
  private checkWhenQuiet(db: Kysely<Tables>, datasetId: string, shape: string, build: () => Promise<T>): void {
    const { quietAfterMs } = this.policy;
    const watched = this.entries.has(datasetId) || this.waitingForQuiet.has(datasetId);
    if (quietAfterMs === undefined || !watched || this.quietChecks.has(datasetId) || this.building.has(datasetId)) return;
    // Not due yet: either not quiet yet, or within the cooldown of the last check (which a build
    // that waited for the quiet does not wait out: its copy will be used).
    const since = this.versionSeen.get(datasetId)?.since ?? performance.now();
    const cooldownEnd = this.waitingForQuiet.has(datasetId) ? -Infinity : (this.lastCheck.get(datasetId) ?? -Infinity) + this.policy.rebuildCooldownMs;
    const due = Math.max(since + quietAfterMs, cooldownEnd);
    const timer = setTimeout(() => {
      this.quietChecks.delete(datasetId);
      this.currentVersion(db, datasetId)
        .then((version) => this.ready(db, datasetId, version, shape, build))
        .catch(() => {
          // The database is closing or the dataset is gone: searches will ask again if needed.
        });
    }, Math.max(0, due - performance.now()));
    timer.unref?.();
    this.quietChecks.set(datasetId, timer);
  }

  /** Settles when no build is running (tests). */
  async settled(): Promise<void> {
    while (this.building.size > 0) await Promise.allSettled([...this.building.values()]);
  }

  /** Drops every copy and forgets check times, under a new policy (tests). */
  reset(policy: CopyPolicy): void {
    this.entries.clear();
    this.lastCheck.clear();
    this.lastBuildMs.clear();
    this.versionSeen.clear();
    this.waitingForQuiet.clear();
    for (const timer of this.quietChecks.values()) clearTimeout(timer);
    this.quietChecks.clear();
    this.policy = policy;
  }

  private isQuiet(datasetId: string): boolean {
    const { quietAfterMs } = this.policy;
    const since = this.versionSeen.get(datasetId)?.since ?? performance.now();
    return quietAfterMs !== undefined && performance.now() - since >= quietAfterMs;
  }

  private changingWithNoCopyInUse(datasetId: string, copyInUse: boolean): boolean {
    return this.policy.quietAfterMs !== undefined && !copyInUse && this.versionSeen.get(datasetId)?.changed === true && !this.isQuiet(datasetId);
  }

  private checkDue(datasetId: string): boolean {
    if (this.building.has(datasetId)) return false;
    const now = performance.now();
    const quiet = this.isQuiet(datasetId);
    const buildTimeWait = quiet ? 0 : (this.lastBuildMs.get(datasetId) ?? 0) * (this.policy.buildTimeFactor ?? 0);
    const cooldown = quiet && this.waitingForQuiet.has(datasetId) ? 0 : Math.max(this.policy.rebuildCooldownMs, buildTimeWait);
    if (now - (this.lastCheck.get(datasetId) ?? -Infinity) < cooldown) return false;
    this.lastCheck.set(datasetId, now);
    return true;
  }

  private start(datasetId: string, shape: string, build: () => Promise<T>): void {
    this.waitingForQuiet.delete(datasetId);
    const started = performance.now();
    const running = build()
      .then((copy) => {
        this.lastBuildMs.set(datasetId, performance.now() - started);
        this.entries.set(datasetId, { copy, shape, lastUsed: performance.now(), used: false });
        this.evictOverBudget(datasetId);
      })
      .catch(() => {
        // A failed build (database closing, dataset deleted) leaves SQL in charge; nothing to report.
      })
      .finally(() => {
        this.building.delete(datasetId);
        memoryRelease.soon();
      });
    this.building.set(datasetId, running);
  }

  private evictOverBudget(keep: string): void {
    let total = 0;
    for (const entry of this.entries.values()) total += this.sizeOf(entry.copy);
    const byAge = [...this.entries.entries()].filter(([id]) => id !== keep).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [id, entry] of byAge) {
      if (total <= this.budget) break;
      this.entries.delete(id);
      total -= this.sizeOf(entry.copy);
    }
  }
}

/** The dataset's `record_set_versions` version: read once per search, for every copy it asks for. */
export async function readRecordSetVersion(db: Kysely<Tables>, datasetId: string): Promise<number> {
  const { rows } = await sql<{ version: number }>`SELECT version FROM record_set_versions WHERE dataset_id = ${datasetId}`.execute(db);
  return Number(rows[0]?.version ?? 0);
}
