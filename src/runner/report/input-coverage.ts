// Which classes of the input space a run covered (issue 31), and how deep it went, from the tests'
// annotations (src/protocol/covered-inputs.ts): the report's `inputs` section and conformance.md's table.
import { DEPTH_ANNOTATION, INPUT_CLASS_ANNOTATION } from '../../protocol/covered-inputs.ts';

/** One family of classes as the report shows it: the values covered, and on how many (value, where) pairs. */
export interface CoveredFamily {
  family: string;
  values: string[];
  pairs: number;
}

export interface InputsSection {
  /** The run's depth plan: its depth and why (src/config/depth-plan.ts). */
  depth?: { depth: string; why: string; propertyCases: number; referencePages: number; rotation: number };
  covered: CoveredFamily[];
  /** The smoke profile's request budget and what it spent (CONFORMANCE_REQUEST_BUDGET). */
  budget?: { spent: number; of: number };
}

type Annotations = readonly { type: string; description?: string }[];

const parsed = (description: string | undefined): unknown => {
  try {
    return JSON.parse(description ?? '');
  } catch {
    return undefined;
  }
};

/** The requests a test's depth plan expects of the run (src/config/depth-plan.ts), if it recorded its plan. */
export function plannedRequests(annotations: Annotations): number | undefined {
  const plan = parsed(annotations.find(({ type }) => type === DEPTH_ANNOTATION)?.description) as
    | { requests?: { user: number; partner: number; other: number } }
    | undefined;
  const requests = plan?.requests;
  return requests ? requests.user + requests.partner + requests.other : undefined;
}

/** Numbers in numeric order, the rest as written. */
const byValue = (a: string, b: string) =>
  /^\d+$/.test(a) && /^\d+$/.test(b) ? Number(a) - Number(b) : a.localeCompare(b);

/** The inputs section of the tests' annotations (every result of every test), and the budget spent, if any. */
export function inputsSection(annotations: Annotations, budget?: InputsSection['budget']): InputsSection {
  const families = new Map<string, { values: Set<string>; pairs: Set<string> }>();
  let depth: InputsSection['depth'];
  // The plan made last (a plan made again has a higher revision: src/worker/user-data/depth.ts) is the run's.
  let revision = -1;
  for (const { type, description } of annotations) {
    if (type === DEPTH_ANNOTATION) {
      const plan = parsed(description) as (InputsSection['depth'] & { revision?: number }) | undefined;
      if (plan?.depth && (plan.revision ?? 0) > revision) {
        const { depth: name, why, propertyCases, referencePages, rotation } = plan;
        depth = { depth: name, why, propertyCases, referencePages, rotation };
        revision = plan.revision ?? 0;
      }
    }
    if (type !== INPUT_CLASS_ANNOTATION) continue;
    const entry = parsed(description);
    if (!Array.isArray(entry) || entry.length !== 3 || !entry.every((part) => typeof part === 'string'))
      continue;
    const [family, value, where] = entry as [string, string, string];
    const row = families.get(family) ?? { values: new Set(), pairs: new Set() };
    families.set(family, row);
    row.values.add(value);
    row.pairs.add(`${value}\n${where}`);
  }
  const covered = [...families]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([family, { values, pairs }]) => ({ family, values: [...values].sort(byValue), pairs: pairs.size }));
  return { ...(depth ? { depth } : {}), covered, ...(budget ? { budget } : {}) };
}

/** conformance.md's lines: the depth and why, then one row per family. */
export function inputsLines(inputs: InputsSection | undefined): string[] {
  if (!inputs || (!inputs.depth && inputs.covered.length === 0)) return [];
  const { depth, budget } = inputs;
  return [
    '',
    '### Input classes covered',
    '',
    ...(budget
      ? [
          `Request budget: ${budget.spent} of ${budget.of} requests to the service's API spent (CONFORMANCE_REQUEST_BUDGET) on the classes below; the sign-ins' steps are counted apart.`,
          '',
        ]
      : []),
    ...(depth
      ? [
          `Depth: **${depth.depth}**, because ${depth.why} (${depth.propertyCases} generated cases per operation; reference walks of at most ${depth.referencePages} pages; rotation ${depth.rotation}).`,
          '',
        ]
      : []),
    '| Class | Values covered | (value, where) pairs |',
    '|---|---|---|',
    ...inputs.covered.map(
      ({ family, values, pairs }) => `| ${family} | ${values.length}: ${values.join('; ')} | ${pairs} |`,
    ),
  ];
}
