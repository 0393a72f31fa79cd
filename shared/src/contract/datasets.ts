import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from './common.js';

/** Contract §3.1: only the `overlap` strategy exists. */
export const DistributionStrategy = Type.Unsafe<'overlap'>({ type: 'string', enum: ['overlap'] });

/** Most submitted responses a record may need before it is completed. */
export const MAX_MIN_SUBMITTED = 1000;

export const Distribution = Type.Object({
  strategy: DistributionStrategy,
  min_submitted: Type.Integer({ minimum: 1, maximum: MAX_MIN_SUBMITTED }),
});
export type Distribution = Static<typeof Distribution>;

/** `distribution` input: `min_submitted` defaults to 1 on create, keeps the stored value on update. */
export const DistributionInput = Type.Object({
  strategy: DistributionStrategy,
  min_submitted: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_MIN_SUBMITTED })),
});
export type DistributionInput = Static<typeof DistributionInput>;

export const DatasetStatus = Type.Unsafe<'draft' | 'ready'>({ type: 'string', enum: ['draft', 'ready'] });
export type DatasetStatus = Static<typeof DatasetStatus>;

/** Dataset (contract §3.1). */
export const Dataset = Type.Object({
  id: Uuid,
  name: Type.String(),
  guidelines: Type.Union([Type.String(), Type.Null()]),
  allow_extra_metadata: Type.Boolean(),
  status: DatasetStatus,
  distribution: Distribution,
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  workspace_id: Uuid,
  last_activity_at: Timestamp,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type Dataset = Static<typeof Dataset>;

export const DatasetName = Type.String({ minLength: 1, maxLength: 200 });
export const DatasetGuidelines = Type.String({ minLength: 1, maxLength: 10000 });
const FreeObject = Type.Record(Type.String(), Type.Unknown());

/** `POST /datasets` (contract §2.4). */
export const DatasetCreateBody = Type.Object({
  name: DatasetName,
  guidelines: Nullable(DatasetGuidelines),
  allow_extra_metadata: Nullable(Type.Boolean()),
  distribution: Nullable(DistributionInput),
  metadata: Nullable(FreeObject),
  workspace_id: Uuid,
});
export type DatasetCreateBody = Static<typeof DatasetCreateBody>;

/** `PATCH /datasets/{id}`: `name`, `allow_extra_metadata`, `distribution` must not be null. */
export const DatasetUpdateBody = Type.Object({
  name: Type.Optional(DatasetName),
  guidelines: Nullable(DatasetGuidelines),
  allow_extra_metadata: Type.Optional(Type.Boolean()),
  distribution: Type.Optional(DistributionInput),
  metadata: Nullable(FreeObject),
});
export type DatasetUpdateBody = Static<typeof DatasetUpdateBody>;

export const DatasetIdParams = Type.Object({ dataset_id: Uuid });
export type DatasetIdParams = Static<typeof DatasetIdParams>;

/** `GET /me/datasets` filters. */
export const MeDatasetsQuery = Type.Object({
  workspace_id: Type.Optional(Uuid),
  name: Type.Optional(Type.String()),
  status: Type.Optional(DatasetStatus),
});
export type MeDatasetsQuery = Static<typeof MeDatasetsQuery>;

/** `GET /datasets/{id}/progress` */
export const DatasetProgress = Type.Object({
  total: Type.Integer(),
  completed: Type.Integer(),
  pending: Type.Integer(),
  users: Type.Array(Type.Object({ username: Type.String() })),
});
export type DatasetProgress = Static<typeof DatasetProgress>;

const ResponseStatusCounts = Type.Object({ submitted: Type.Integer(), discarded: Type.Integer(), draft: Type.Integer() });

/** `GET /datasets/{id}/users/progress` */
export const UsersProgress = Type.Object({
  users: Type.Array(
    Type.Object({ username: Type.String(), completed: ResponseStatusCounts, pending: ResponseStatusCounts }),
  ),
});
export type UsersProgress = Static<typeof UsersProgress>;

/** `GET /me/datasets/{id}/metrics` */
export const DatasetMetrics = Type.Object({
  responses: Type.Object({
    total: Type.Integer(),
    submitted: Type.Integer(),
    discarded: Type.Integer(),
    draft: Type.Integer(),
    pending: Type.Integer(),
  }),
});
export type DatasetMetrics = Static<typeof DatasetMetrics>;
