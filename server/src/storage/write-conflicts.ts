/**
 * Whether a failed write lost a race with a concurrent one and may simply be tried again: two
 * requests creating the same new record (a unique key taken meanwhile), or PostgreSQL breaking a
 * lock cycle (deadlock) or a serialisation conflict. The retry reads the state anew.
 */
export function isWriteConflict(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === '40P01' || code === '40001') return true;
  if (code === '23505') return true; // PostgreSQL unique violation
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || (typeof message === 'string' && message.startsWith('UNIQUE constraint failed'));
}

/**
 * Runs `write` (which reads what it needs itself) again after a write conflict, up to `attempts`
 * times. Between tries it waits a random, growing few milliseconds: writers that broke a lock cycle
 * and retried at once met each other again in the same cycle, and under load used up the tries.
 */
export async function retryWriteConflicts<T>(write: () => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !isWriteConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
