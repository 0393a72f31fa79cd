import type { Kysely } from 'kysely';
import type { HubExportBody, HubImportBody } from '@scholia/shared/contract';
import { requireAdminMember } from '../../auth/access.js';
import type { AppConfig } from '../../config.js';
import { UnprocessableError } from '../../errors.js';
import { assertHubExportNames, HUB_EXPORT_JOB, type HubExportPayload } from '../../hub/hub-export.js';
import { HUB_IMPORT_JOB, type HubImportPayload } from '../../hub/hub-import.js';
import { assertHubRepoId } from '../../hub/hub-repo-id.js';
import { enqueueJob, SEALED_SECRETS_KEY } from '../../jobs/job-queue.js';
import { sealSecrets } from '../../jobs/job-secrets.js';
import type { JobRow, Tables, UserRow } from '../../storage/tables.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';

/** Queues a Hub import into the dataset (load → 404, then admin member/owner → 403). */
export async function startHubImport(db: Kysely<Tables>, user: UserRow, datasetId: string, body: HubImportBody): Promise<JobRow> {
  const dataset = await getDatasetOrThrow(db, datasetId);
  await requireAdminMember(db, user, dataset.workspace_id);
  assertHubRepoId(body.name);
  const payload: HubImportPayload = {
    dataset_id: dataset.id,
    user_id: user.id,
    name: body.name,
    subset: body.subset,
    split: body.split,
    mapping: {
      fields: body.mapping.fields,
      metadata: body.mapping.metadata ?? [],
      suggestions: body.mapping.suggestions ?? [],
      external_id: body.mapping.external_id ?? null,
    },
  };
  return enqueueJob(db, HUB_IMPORT_JOB, { ...payload });
}

/**
 * Queues an export of the dataset to a Hub repository. 422 when it has no records. The token is
 * sealed (job-secrets.ts), never stored in clear, and erased when the job ends.
 */
export async function startHubExport(
  db: Kysely<Tables>,
  config: AppConfig,
  user: UserRow,
  datasetId: string,
  body: HubExportBody,
): Promise<JobRow> {
  const dataset = await getDatasetOrThrow(db, datasetId);
  await requireAdminMember(db, user, dataset.workspace_id);
  const anyRecord = await db.selectFrom('records').select('id').where('dataset_id', '=', dataset.id).limit(1).executeTakeFirst();
  if (!anyRecord) throw new UnprocessableError(`Dataset with id \`${dataset.id}\` has no records to export`);
  const payload: HubExportPayload = {
    dataset_id: dataset.id,
    name: body.name,
    subset: body.subset ?? 'default',
    split: body.split ?? 'train',
    private: body.private ?? false,
  };
  assertHubExportNames(payload);
  return enqueueJob(db, HUB_EXPORT_JOB, { ...payload, [SEALED_SECRETS_KEY]: sealSecrets(config, { token: body.token }) });
}
