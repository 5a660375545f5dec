// `physiology-conformance render FILE`: every form of a conformance result, from its JSON (src/cli/render.ts).
import type { Command } from 'commander';
import { exitWith, subcommand } from './common.ts';

export const renderCommand = (): Command =>
  subcommand(
    'render',
    'Render every form of a conformance.json again (conformance.md, junit.xml, junit-requirements.xml, ctrf-report.json, the page; the GitHub summary where GITHUB_STEP_SUMMARY is set), from the JSON alone.',
    [
      [0, 'rendered'],
      [1, 'the file is not a conformance result of the published schema (each problem named)'],
    ],
  )
    .argument('<report>', 'a conformance.json')
    .option('--out <dir>', 'where to write the forms (default: beside the report)')
    .option(
      '--history <file>',
      "the requirement history for the page's trend (default: requirement-history.jsonl beside the report)",
    )
    .action(async (file: string, options: { out?: string; history?: string }) => {
      const { render } = await import('../render.ts');
      await exitWith('render', () => render(file, options.out, options.history));
    });
