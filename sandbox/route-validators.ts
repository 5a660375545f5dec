// Route-schema validators shared by every sandbox instance of the process. Each instance builds its route
// schemas afresh (a fault changes a limit, a variant a format), so Ajv's own cache, which goes by the schema
// object, never hits across instances; these go by the schema's content. A matrix run starts hundreds of
// instances, each of which would otherwise compile the same few dozen schemas (about 50 ms an instance).
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

/** `compile`, run once for each distinct schema (by its JSON text). */
export function compiledOnce<T>(compile: (schema: object) => T): (schema: object) => T {
  const compiled = new Map<string, T>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let validator = compiled.get(key);
    if (validator === undefined) {
      validator = compile(schema);
      compiled.set(key, validator);
    }
    return validator;
  };
}

type BuildValidator = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;
/** What Fastify's compiler factory gives at run time: a compile function of the route's schema. */
type RouteCompile = (route: { schema: object }) => unknown;

// Fastify's own factory (its default Ajv options), which already keeps one Ajv per set of shared schemas and
// options; for each of those, one compile function by content.
const fastifyValidators = AjvCompiler();
const byCompiler = new WeakMap<object, (schema: object) => unknown>();

/** Fastify's default validator compilers, each distinct schema compiled once per process. */
export const sharedRouteValidators = ((...factoryArguments: Parameters<typeof fastifyValidators>) => {
  const compile = fastifyValidators(...factoryArguments) as unknown as RouteCompile;
  const once = byCompiler.get(compile) ?? compiledOnce((schema) => compile({ schema }));
  byCompiler.set(compile, once);
  return ((route: { schema: object }) => once(route.schema)) as unknown as ReturnType<BuildValidator>;
}) as unknown as BuildValidator;
