import { vi } from 'vitest';
import type { GuardServices } from './guard-chain.js';

/** Guard services for tests: a signed-out visitor off a Space unless `overrides` say otherwise. */
export function stubGuardServices(overrides: Partial<GuardServices> = {}): GuardServices {
  return {
    isLoggedIn: () => false,
    isHubSpace: async () => false,
    storeRedirectTo: vi.fn(),
    hasCurrentUser: () => false,
    loadCurrentUser: vi.fn(async () => true),
    currentRole: () => 'owner',
    setupLanguage: vi.fn(async () => {}),
    ...overrides,
  };
}
