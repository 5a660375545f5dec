// `physiology-conformance render-page FILE`: the page (index.html) of a conformance.json, rendered again from
// it and the requirement history beside it; it reads nothing else, so an old result renders as it was.
import type { Command } from 'commander';
import { exitWith, subcommand } from './common.ts';

export const renderPageCommand = (): Command =>
  subcommand(
    'render-page',
    'Render the page (index.html) of a conformance.json and its requirement history.',
    [[0, 'the page was written']],
  )
    .argument('<report>', 'a conformance.json')
    .option('-o, --output <file>', 'where to write the page (default: index.html beside the report)')
    .option(
      '--history <file>',
      'the requirement history for the trend (default: requirement-history.jsonl beside the report)',
    )
    .action(async (file: string, options: { output?: string; history?: string }) => {
      const { renderPageOf } = await import('../render-page.ts');
      await exitWith('render-page', () => renderPageOf(file, options));
    });
