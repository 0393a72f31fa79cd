import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, DatasetCreationError } from '@scholia/shared/api';
import { i18next } from '@scholia/shared/i18n';
import { registerHubImportTranslations } from '../../../i18n/register-translations.js';
import { creationFailureMessage } from './creation-failure.js';

const t = (key: string, options?: Record<string, unknown>) => i18next.t(key, { ns: 'hubImport', ...options });
const failed = (step: ConstructorParameters<typeof DatasetCreationError>[0], cause: unknown) => new DatasetCreationError(step, { cause });

describe('a failed dataset creation says what happened', () => {
  beforeAll(async () => {
    registerHubImportTranslations();
    await i18next.changeLanguage('en');
  });

  it('translates the known cases', () => {
    expect(creationFailureMessage(failed('dataset', new ApiError({ status: 409, body: { detail: 'Dataset with name `x` already exists for workspace with id `w`' } })), t))
      .toBe('The dataset was not created: creating the dataset failed. This workspace already has a dataset with this name: choose another name.');
    expect(creationFailureMessage(failed('workspace', new ApiError({ status: 409, body: { detail: 'Workspace name `team` is not unique' } })), t))
      .toBe('The dataset was not created: creating the workspace failed. A workspace with this name already exists: choose it from the list or another name.');
    expect(creationFailureMessage(failed('fields', new ApiError({ status: 0 })), t)).toBe('The dataset was not created: adding the fields failed. The Scholia server could not be reached.');
    expect(creationFailureMessage(failed('records', new Error('import job j ended failed')), t)).toContain('importing the records failed. The server could not import the rows');
  });

  it("otherwise gives the server's own detail, or its status", () => {
    expect(creationFailureMessage(failed('questions', new ApiError({ status: 422, body: { detail: 'Question with name `q` already exists for dataset with id `d`' } })), t))
      .toBe('The dataset was not created: adding the questions failed. Question with name `q` already exists for dataset with id `d`');
    expect(creationFailureMessage(failed('publish', new ApiError({ status: 500 })), t)).toBe('The dataset was not created: publishing the dataset failed. The server answered with HTTP 500.');
  });

  it('in German', async () => {
    await i18next.changeLanguage('de');
    try {
      expect(creationFailureMessage(failed('dataset', new ApiError({ status: 403 })), t))
        .toBe('Der Datensatz wurde nicht erstellt: Das Anlegen des Datensatzes ist fehlgeschlagen. Sie dürfen in diesem Arbeitsbereich keine Datensätze anlegen.');
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
