import { Type, type Static } from '@sinclair/typebox';

/**
 * `POST /api/v1/client-errors` (Scholia extension): what the web app reports about itself so the
 * operator sees it in the server log, such as a remote the shell refused to mount. Every string
 * is bounded; the route also bounds the body and the rate per client address.
 */
export const ClientErrorReport = Type.Object({
  kind: Type.Union([Type.Literal('remote-incompatible'), Type.Literal('remote-load-failed')]),
  remote: Type.String({ maxLength: 64 }),
  message: Type.String({ maxLength: 500 }),
  /** Short facts, such as the versions that clashed. */
  details: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 200 }), { maxProperties: 16 })),
}, { additionalProperties: false });
export type ClientErrorReport = Static<typeof ClientErrorReport>;
