// Schema compilation and body parsing of the partner scope: strict JSON types (no coercion: a number is not
// a string), and an empty JSON body read as "no body" so bodiless operations accept a bare content type.
// Variant lenient-results skips the body schema of the results upload.
import { Ajv } from 'ajv';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { compiledOnce } from '../route-validators.ts';

export function configurePartnerValidation(scope: FastifyInstance, ctx: SandboxContext): void {
  scope.setValidatorCompiler(strictCompiler(ctx));
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') done(null, undefined);
    else parseJson(request, text, done);
  });
}

// One Ajv for every instance of the process, each distinct schema compiled once (route-validators.ts).
const strictAjv = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, strict: false });
const compileStrict = compiledOnce((schema) => strictAjv.compile(schema));

function strictCompiler(ctx: SandboxContext): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart, url }) => {
    const validate = compileStrict(schema as object);
    // Variant lenient-results: the results upload takes any body (its fields are stored as sent or ignored).
    if (httpPart === 'body' && url.endsWith('/results') && ctx.variant('lenient-results')) return () => true;
    return (data: unknown) => validate(data) || { error: validate.errors ?? [] };
  };
}
