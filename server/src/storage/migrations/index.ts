import type { Kysely } from 'kysely';
import type { MigrationContext } from './context.js';
import * as createCoreTables from './202611220000_create_core_tables.js';
import * as addSearchSupport from './202611221300_add_search_support.js';
import * as createInstanceSettings from './202611231000_create_instance_settings.js';
import * as addVectorScanIndex from './202611240000_add_vector_scan_index.js';
import * as addDatasetRecordCounts from './202611240100_add_dataset_record_counts.js';
import * as addQuestionVisibility from './202611240300_add_question_visibility.js';
import * as addRecordSetVersions from './202611240400_add_record_set_versions.js';
import * as addRecordSetVersionsPostgres from './202611240500_add_record_set_versions_postgres.js';
import * as bumpRecordSetVersionOnFields from './202611240600_bump_record_set_version_on_fields.js';
import * as addUserTokenVersion from './202611250100_add_user_token_version.js';
import * as createRecordValidations from './202611250300_create_record_validations.js';
import * as createWebhookDeliveries from './202611250400_create_webhook_deliveries.js';
import * as storeVectorsAsFloat64 from './202611250400_store_vectors_as_float64.js';
import * as indexTextAsStandardWords from './202611260100_index_text_as_standard_words.js';
import * as addResponseSetVersions from './202611260200_add_response_set_versions.js';
import * as cascadeWebhookDeliveries from './202611260300_cascade_webhook_deliveries.js';
import * as deferTextIndexing from './202611270100_defer_text_indexing.js';
import * as dropRedundantSuggestionIndex from './202611270200_drop_redundant_suggestion_index.js';
import * as deferVectorSetVersions from './202611270300_defer_vector_set_versions.js';
import * as scopeMetadataIndexesToTheirDataset from './202611270400_scope_metadata_indexes_to_their_dataset.js';
import * as dropPostgresFieldTextIndexes from './202611270500_drop_postgres_field_text_indexes.js';
import * as scopePostgresMetadataIndexesToTheirDataset from './202611271300_scope_postgres_metadata_indexes_to_their_dataset.js';
import * as storePostgresVectorsUncompressed from './202611271400_store_postgres_vectors_uncompressed.js';
import * as dropRedundantPostgresForeignKeys from './202611271500_drop_redundant_postgres_foreign_keys.js';
import * as dropPostgresRecordDatasetForeignKey from './202611271600_drop_postgres_record_dataset_foreign_key.js';
import * as addUserIdentities from './202611280100_add_user_identities.js';
import * as addWebhookDeliveryTurns from './202611280700_add_webhook_delivery_turns.js';
import * as createPostgresSignInLimits from './202611280710_create_postgres_sign_in_limits.js';

interface MigrationModule {
  up(db: Kysely<unknown>, context: MigrationContext): Promise<void>;
  down?(db: Kysely<unknown>, context: MigrationContext): Promise<void>;
}

/** Every migration, in the order they apply (names sort by their timestamp prefix). */
export const migrations: Record<string, MigrationModule> = {
  '202611220000_create_core_tables': createCoreTables,
  '202611221300_add_search_support': addSearchSupport,
  '202611231000_create_instance_settings': createInstanceSettings,
  '202611240000_add_vector_scan_index': addVectorScanIndex,
  '202611240100_add_dataset_record_counts': addDatasetRecordCounts,
  '202611240300_add_question_visibility': addQuestionVisibility,
  '202611240400_add_record_set_versions': addRecordSetVersions,
  '202611240500_add_record_set_versions_postgres': addRecordSetVersionsPostgres,
  '202611240600_bump_record_set_version_on_fields': bumpRecordSetVersionOnFields,
  '202611250100_add_user_token_version': addUserTokenVersion,
  '202611250300_create_record_validations': createRecordValidations,
  '202611250400_create_webhook_deliveries': createWebhookDeliveries,
  '202611250400_store_vectors_as_float64': storeVectorsAsFloat64,
  '202611260100_index_text_as_standard_words': indexTextAsStandardWords,
  '202611260200_add_response_set_versions': addResponseSetVersions,
  '202611260300_cascade_webhook_deliveries': cascadeWebhookDeliveries,
  '202611270100_defer_text_indexing': deferTextIndexing,
  '202611270200_drop_redundant_suggestion_index': dropRedundantSuggestionIndex,
  '202611270300_defer_vector_set_versions': deferVectorSetVersions,
  '202611270400_scope_metadata_indexes_to_their_dataset': scopeMetadataIndexesToTheirDataset,
  '202611270500_drop_postgres_field_text_indexes': dropPostgresFieldTextIndexes,
  '202611271300_scope_postgres_metadata_indexes_to_their_dataset': scopePostgresMetadataIndexesToTheirDataset,
  '202611271400_store_postgres_vectors_uncompressed': storePostgresVectorsUncompressed,
  '202611271500_drop_redundant_postgres_foreign_keys': dropRedundantPostgresForeignKeys,
  '202611271600_drop_postgres_record_dataset_foreign_key': dropPostgresRecordDatasetForeignKey,
  '202611280100_add_user_identities': addUserIdentities,
  '202611280700_add_webhook_delivery_turns': addWebhookDeliveryTurns,
  '202611280710_create_postgres_sign_in_limits': createPostgresSignInLimits,
};
