// The published result schema (result-schema/conformance-result.schema.json) is the TypeBox definition's
// own output, documents every field, closes every object and ships in the package.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { resultSchemaDocument } from '../../src/result/schema.ts';
import { resultSchemaFile, resultSchemaText } from '../../src/result/schema-file.ts';

type Node = {
  type?: string;
  description?: string;
  properties?: Record<string, Node>;
  additionalProperties?: unknown;
  patternProperties?: Record<string, Node>;
  items?: Node;
};

/** Every object node that is not closed, and every property without a description, by path. */
function undocumentedOrOpen(node: Node, path: string): string[] {
  const own =
    node.type === 'object' && node.properties && node.additionalProperties !== false ? [`open: ${path}`] : [];
  const properties = Object.entries(node.properties ?? {}).flatMap(([name, child]) => [
    ...(child.description || child.items?.description ? [] : [`undocumented: ${path}/${name}`]),
    ...undocumentedOrOpen(child, `${path}/${name}`),
  ]);
  const items = node.items ? undocumentedOrOpen(node.items, `${path}[]`) : [];
  const values = Object.values(node.patternProperties ?? {}).flatMap((child) =>
    undocumentedOrOpen(child, `${path}{}`),
  );
  return [...own, ...properties, ...items, ...values];
}

test('the published schema file is the definition’s output (npm run docs:tables writes it)', () => {
  expect(readFileSync(resultSchemaFile, 'utf8')).toBe(resultSchemaText());
});

test('every object of the schema is closed and every field documented', () => {
  expect(undocumentedOrOpen(resultSchemaDocument() as Node, '')).toEqual([]);
});

test('the package ships the schema', () => {
  const { files } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    files: string[];
  };
  expect(files).toContain('result-schema/');
});
