// allure-playwright's results, written as it writes them but for the flush. It writes each test's result
// and attachments through a temporary file and an fsync, synchronously in the runner's process: on this
// machine about 6 ms a file, 2.2 s of a ci-gate run, during which the runner dispatched no test and the
// embedded sandbox and the coordinator answered nothing. A report needs no fsync (the run reads it after its
// end, or the next run replaces it): here the per-test writes go out asynchronously, and the reporter's end
// waits for them. The rest (groups, environment, categories) stays allure-playwright's own.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FullConfig, Suite } from '@playwright/test/reporter';
import { AllureReporter } from 'allure-playwright';

/** The part of allure-js-commons' writer a test's results go through. */
interface ResultWriter {
  writeResult(result: { uuid: string }): void;
  writeAttachment(name: string, content: Buffer): void;
  writeAttachmentFromPath(name: string, from: string): void;
}

export default class AllureResultsReporter extends AllureReporter {
  private readonly writes = new Set<Promise<unknown>>();

  /** A merge of shards' blob reports configures before it knows a project (allure-playwright reads the first's). */
  override onConfigure(config: FullConfig): void {
    if (config.projects.length > 0) super.onConfigure(config);
    else (this as unknown as { config: FullConfig }).config = config;
  }

  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    const { writer } = (this as unknown as { allureRuntime: { writer: ResultWriter } }).allureRuntime;
    const dir = this.options.resultsDir ?? 'allure-results';
    const made = mkdir(dir, { recursive: true });
    const later = (name: string, write: (path: string) => Promise<unknown>) => {
      const writing = made.then(() => write(join(dir, name)));
      this.writes.add(writing);
      void writing.finally(() => this.writes.delete(writing)).catch(() => undefined);
    };
    writer.writeResult = (result) =>
      later(`${result.uuid}-result.json`, (path) => writeFile(path, JSON.stringify(result), 'utf8'));
    writer.writeAttachment = (name, content) => later(name, (path) => writeFile(path, content));
    writer.writeAttachmentFromPath = (name, from) => later(name, (path) => copyFile(from, path));
  }

  override async onEnd(): Promise<void> {
    await super.onEnd();
    while (this.writes.size > 0) await Promise.all(this.writes);
  }
}
