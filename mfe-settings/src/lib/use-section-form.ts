import { useCallback, useEffect, useRef, useState } from 'react';
import { hasIssues, type Issues } from './validation.js';

/** Deterministic JSON (sorted keys), so equal drafts compare equal whatever their key order. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
    : v));
}

export interface SectionFormOptions<T> {
  /** The values as the server has them; adopted again whenever they change and nothing is being edited. */
  original: T;
  validate: (draft: T) => Issues;
  /** Sends the update; resolves with the new stored original (from the server's answer). */
  save: (draft: T) => Promise<T>;
  /** A check right before sending (it may call the server); issues returned refuse the update
   * and the section is restored. The callback shows its own toast. */
  refuse?: (draft: T) => Promise<Issues | undefined>;
  /** Turns a failed save into issues to show next to the inputs (besides the error toast). */
  describeFailure?: (error: unknown) => Issues | undefined;
}

export type SectionStatus = 'idle' | 'saving' | 'saved' | 'restored';

export interface SectionForm<T> {
  draft: T;
  /** The stored original: the last values the server confirmed. */
  stored: T;
  setDraft: (update: T | ((draft: T) => T)) => void;
  /** Issues to show now: validation once the section is edited or a save was tried, plus refusals. */
  issues: Issues;
  isDirty: boolean;
  status: SectionStatus;
  /** When this section was last saved successfully (spec §4: updatedAt is set). */
  updatedAt?: Date;
  /** Validates, then sends; resolves true when the server accepted the update. */
  submit: () => Promise<boolean>;
  /** Back to the stored original (a modified question can be restored, spec §4). */
  restore: () => void;
}

/**
 * One settings section that saves on its own (spec §4): invalid drafts are never sent; on success
 * the stored original is replaced and updatedAt set; on failure the section goes back to the
 * stored original (the global HTTP handler already showed the error toast).
 */
export function useSectionForm<T>({ original, validate, save, refuse, describeFailure }: SectionFormOptions<T>): SectionForm<T> {
  const [stored, setStored] = useState(original);
  const [draft, setDraftState] = useState(original);
  const [status, setStatus] = useState<SectionStatus>('idle');
  const [updatedAt, setUpdatedAt] = useState<Date>();
  const [attempted, setAttempted] = useState(false);
  const [refusals, setRefusals] = useState<Issues>({});

  const isDirty = stableStringify(draft) !== stableStringify(stored);
  const latest = useRef({ draft, stored, isDirty, status });
  latest.current = { draft, stored, isDirty, status };

  // Server data changed (any write invalidates every cached GET): adopt it as the new original,
  // and as the draft too unless the user is in the middle of editing this section.
  const originalKey = stableStringify(original);
  const seenKey = useRef(originalKey);
  useEffect(() => {
    if (seenKey.current === originalKey) return;
    seenKey.current = originalKey;
    if (latest.current.status === 'saving') return;
    setStored(original);
    if (!latest.current.isDirty) setDraftState(original);
  }, [originalKey]);

  const setDraft = useCallback((update: T | ((draft: T) => T)) => {
    setRefusals({});
    setDraftState((current) => (typeof update === 'function' ? (update as (draft: T) => T)(current) : update));
  }, []);

  const restore = useCallback(() => {
    setRefusals({});
    setAttempted(false);
    setDraftState(latest.current.stored);
  }, []);

  const submit = useCallback(async () => {
    const { draft: current, stored: before } = latest.current;
    setAttempted(true);
    if (hasIssues(validate(current))) return false;
    setStatus('saving');
    try {
      const refused = refuse ? await refuse(current) : undefined;
      if (refused && hasIssues(refused)) {
        setDraftState(before);
        setRefusals(refused);
        setStatus('restored');
        return false;
      }
      const saved = await save(current);
      setStored(saved);
      setDraftState(saved);
      setUpdatedAt(new Date());
      setAttempted(false);
      setRefusals({});
      setStatus('saved');
      return true;
    } catch (error) {
      setDraftState(before);
      setRefusals(describeFailure?.(error) ?? {});
      setStatus('restored');
      return false;
    }
  }, [validate, save, refuse, describeFailure]);

  const shown = attempted || isDirty ? validate(draft) : {};
  const issues: Issues = { ...refusals };
  for (const [key, issue] of Object.entries(shown)) if (issue) issues[key] = issue;
  return { draft, stored, setDraft, issues, isDirty, status, updatedAt, submit, restore };
}
