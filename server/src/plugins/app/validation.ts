import Ajv from 'ajv';
import type { FastifyInstance } from 'fastify';

/**
 * Bodies are validated strictly (a string is never coerced into a number: contract §3.7 rejects
 * `"3"` for a rating), while query strings and path parameters are coerced from text.
 */
export function installValidators(app: FastifyInstance): void {
  const common = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false } as const;
  const strictAjv = new Ajv({ ...common, coerceTypes: false });
  const coercingAjv = new Ajv({ ...common, coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
    return ajv.compile(schema);
  });
}
