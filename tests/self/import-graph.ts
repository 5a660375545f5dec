// The project's module graph, read from the import statements (parsed by Babel's TypeScript parser, pure
// JS), for the self test of import boundaries and circles (import-graph.spec.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from '@babel/parser';
import { nodesOf } from './syntax-tree.ts';

/** A repo-relative file and the repo-relative files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const isRelative = (specifier: string): boolean => specifier.startsWith('./') || specifier.startsWith('../');

/**
 * The module specifiers `source` imports: static imports and re-exports, type-only ones included (a circle
 * through types is still a circle of modules), and dynamic `import()` of a string literal.
 */
export function importsOf(fileName: string, source: string): string[] {
  const program = parse(source, {
    sourceType: 'module',
    plugins: fileName.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'],
    sourceFilename: fileName,
    // Babel 7 (Node 20): import() as an ImportExpression, as Babel 8 parses it.
    createImportExpressions: true,
  });
  const specifiers = [...nodesOf(program.program)].flatMap((node) => {
    if (
      node.type === 'ImportDeclaration' ||
      node.type === 'ExportAllDeclaration' ||
      (node.type === 'ExportNamedDeclaration' && node.source)
    )
      return node.source ? [node.source.value] : [];
    if (node.type === 'ImportExpression' && node.source.type === 'StringLiteral') return [node.source.value];
    return [];
  });
  return [...new Set(specifiers)];
}

function typeScriptFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') || name.endsWith('.tsx'))
    .map((name) => join(dir, name))
    .sort();
}

/** Every .ts and .tsx file under `dirs` (relative to `root`) with the files its relative imports name. */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((dir) => typeScriptFiles(root, dir))) {
    const imported = importsOf(file, readFileSync(join(root, file), 'utf8'))
      .filter(isRelative)
      .map((specifier) => relative(root, resolve(root, dirname(file), specifier)));
    graph.set(file, imported);
  }
  return graph;
}

/**
 * The import circles of `graph`: for each set of files that reach one another (a strongly connected
 * component of two or more files, or a file importing itself), one shortest circle through its first file,
 * e.g. ['a.ts', 'b.ts', 'a.ts'].
 */
export function importCircles(graph: ImportGraph): string[][] {
  const next = (file: string) => (graph.get(file) ?? []).filter((target) => graph.has(target));
  const reachable = (from: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [...next(from)];
    while (stack.length > 0) {
      const file = stack.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      stack.push(...next(file));
    }
    return seen;
  };
  const reach = new Map([...graph.keys()].map((file) => [file, reachable(file)]));
  const circles: string[][] = [];
  const placed = new Set<string>();
  for (const file of [...graph.keys()].sort()) {
    if (placed.has(file) || !reach.get(file)?.has(file)) continue;
    const component = [...(reach.get(file) ?? [])].filter((other) => reach.get(other)?.has(file));
    for (const member of component) placed.add(member);
    circles.push(shortestCircle(file, (from) => next(from).filter((to) => component.includes(to))));
  }
  return circles;
}

/** Breadth-first: the shortest path from `start` back to itself. */
function shortestCircle(start: string, next: (file: string) => string[]): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const target of next(file)) {
      if (target === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  throw new Error(`${start} is on no circle`);
}
