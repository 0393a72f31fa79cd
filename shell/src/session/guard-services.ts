import {
  getCurrentUser, getEnvironment, isApiError, isHubSpace, isLoggedIn, peekCurrentUser, storeRedirectTo,
} from '@scholia/shared/api';
import { changeLanguage, isLanguageReady, readStoredLanguage } from '@scholia/shared/i18n';
import type { GuardServices } from '../routes/guard-chain.js';

/** The browser implementation of the guard's services. */
export const browserGuardServices: GuardServices = {
  isLoggedIn,
  async isHubSpace() {
    try {
      return isHubSpace(await getEnvironment());
    } catch {
      return false; // settings unreachable: behave like the self-hosted variant
    }
  },
  storeRedirectTo,
  hasCurrentUser: () => peekCurrentUser() !== undefined,
  currentRole: () => peekCurrentUser()?.role,
  async loadCurrentUser() {
    try {
      await getCurrentUser();
      return true;
    } catch (error) {
      if (isApiError(error) && error.status === 401) return false;
      throw error;
    }
  },
  async setupLanguage() {
    const language = readStoredLanguage();
    // A German or Spanish page starts while its strings are still loading: wait for them here.
    if (!isLanguageReady(language)) await changeLanguage(language);
  },
};
