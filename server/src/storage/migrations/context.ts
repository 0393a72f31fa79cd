import type { DialectName } from '../dialect.js';

export interface MigrationContext {
  dialect: DialectName;
}
