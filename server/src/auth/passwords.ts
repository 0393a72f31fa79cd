import { hash, verify } from '@node-rs/argon2';

/** Argon2id (memory-hard), with the library's defaults (19 MiB, t=2). */
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
