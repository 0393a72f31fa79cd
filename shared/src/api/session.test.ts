import { afterEach, describe, expect, it } from 'vitest';
import { isLoggedIn, readToken, storeRedirectTo, takeRedirectTo, writeToken } from './session.js';

const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage')!;

/** What a frame on another site meets when its browser blocks third-party storage. */
function denyLocalStorage(): void {
  Object.defineProperty(globalThis, 'localStorage', {
    configurable: true,
    get: () => { throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError'); },
  });
}

afterEach(() => {
  writeToken(undefined);
  Object.defineProperty(globalThis, 'localStorage', original);
  localStorage.clear();
});

describe('session', () => {
  it('keeps the token in localStorage, for the next visit', () => {
    writeToken('token-1');
    expect(localStorage.getItem('scholia.token')).toBe('token-1');
    expect(readToken()).toBe('token-1');
  });

  it('keeps the sign-in for the page when the browser denies localStorage', () => {
    denyLocalStorage();
    expect(isLoggedIn()).toBe(false);
    writeToken('token-1');
    expect(readToken()).toBe('token-1');
    expect(isLoggedIn()).toBe(true);
    storeRedirectTo('/dataset/1/annotation-mode');
    expect(takeRedirectTo()).toBe('/dataset/1/annotation-mode');
    expect(takeRedirectTo()).toBeUndefined();
    writeToken(undefined);
    expect(isLoggedIn()).toBe(false);
  });
});
