import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { loadOrCreateSecret } from '../auth/tokens.js';

/**
 * Secrets a job needs but the jobs table must never hold in clear (the Hub token of an export).
 *
 * Choice: they are sealed with AES-256-GCM under a key derived (HKDF) from the install's secret
 * (SCHOLIA_JWT_SECRET, else the data folder's generated `jwt-secret`), so a queued export survives
 * a restart and an external worker process (same data folder or same secret) can run it. The
 * sealed blob is erased from the payload as soon as the job ends, finished or failed.
 */
export interface SecretKeySource {
  jwtSecret?: string;
  dataDir: string;
}

function deriveKey(source: SecretKeySource): Buffer {
  const secret = source.jwtSecret ?? loadOrCreateSecret(source.dataDir);
  return Buffer.from(hkdfSync('sha256', secret, 'scholia-jobs', 'job-secrets-v1', 32));
}

/** Encrypts `secrets` into an opaque `v1.<iv>.<tag>.<ciphertext>` string (base64url parts). */
export function sealSecrets(source: SecretKeySource, secrets: Record<string, string>): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(source), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** Decrypts what `sealSecrets` produced; throws when the key differs or the blob was altered. */
export function openSecrets(source: SecretKeySource, sealed: string): Record<string, string> {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown sealed secrets format');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(source), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const clear = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  return JSON.parse(clear.toString('utf8')) as Record<string, string>;
}
