// Walking a Babel syntax tree (the self tests that read TypeScript sources: suite-requirement-once.spec.ts,
// import-graph.ts).
import type { Node } from '@babel/types';

/** Every node of the tree below `node`, depth first (each node's own fields, in source order). */
export function* nodesOf(node: Node): Generator<Node> {
  yield node;
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child === 'object' && typeof (child as Node).type === 'string')
        yield* nodesOf(child);
    }
  }
}
