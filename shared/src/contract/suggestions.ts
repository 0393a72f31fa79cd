import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Uuid } from './common.js';

/** Contract §3.8: agent names, 1..200 characters with at least one letter or digit. */
export const SUGGESTION_AGENT_PATTERN = '^[a-zA-Z0-9-_:\\.\\/\\s]*[a-zA-Z0-9][a-zA-Z0-9-_:\\.\\/\\s]*$';

export const SuggestionType = Type.Unsafe<'model' | 'human'>({ type: 'string', enum: ['model', 'human'] });

const Score = Type.Number({ minimum: 0, maximum: 1 });

/** `PUT /records/{id}/suggestions` and the `suggestions` of a record payload (contract §3.8). */
export const SuggestionCreate = Type.Object({
  question_id: Uuid,
  value: Type.Unknown(),
  type: Nullable(SuggestionType),
  agent: Nullable(Type.String({ minLength: 1, maxLength: 200, pattern: SUGGESTION_AGENT_PATTERN })),
  score: Nullable(Type.Union([Score, Type.Array(Score, { minItems: 1 })])),
});
export type SuggestionCreate = Static<typeof SuggestionCreate>;
