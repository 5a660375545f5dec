// The sign-in's view of a browser page: its frames' rendered DOM read as the form filler reads a served page
// (src/auth/html-form.ts) with the step src/auth/sign-in-step.ts decides for each, the step done in its frame
// (credentials filled by the fields html-form.ts found, a control pressed), and a screenshot for a person.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { reportPath } from '../run-state/reports-dir.ts';
import type { SignInAccount } from './authorization-request.ts';
import { CONTROL_SELECTOR, type HtmlPage, parsePage } from './html-form.ts';
import { type SignInStep, signInStep } from './sign-in-step.ts';

/** How long a page built by script may take to show its first control. */
const RENDER_TIMEOUT_MS = 3_000;

export const hasPasswordField = (page: HtmlPage): boolean =>
  page.forms.some((form) => form.controls.some((control) => control.type === 'password'));

/** A frame of the page, its rendered DOM read as the form filler reads a served page, and its step. */
export interface Shown {
  frame: Frame;
  shown: HtmlPage;
  next: SignInStep;
}

/** The page's frames, the main frame first. */
export const framesOf = (page: Page): Frame[] => [
  page.mainFrame(),
  ...page.frames().filter((frame) => frame !== page.mainFrame()),
];

/**
 * The page's rendered DOM, frame by frame: the first frame (the main frame first) whose step goes on (a form
 * to fill, a control to press, or a field only a person can fill), else the main frame.
 */
export async function rendered(page: Page): Promise<Shown> {
  const frames = framesOf(page);
  // Only a page that runs scripts may still build its controls (an error page is read at once).
  const scripted = await Promise.all(
    frames.map((frame) => frame.evaluate(() => document.scripts.length > 0).catch(() => true)),
  );
  if (scripted.some(Boolean))
    await Promise.any(
      frames.map((frame) =>
        frame.locator('input:not([type=hidden]), button').first().waitFor({ timeout: RENDER_TIMEOUT_MS }),
      ),
    ).catch(() => undefined);
  const read = async (frame: Frame): Promise<Shown> => {
    const shown = parsePage(await frame.content(), frame.url());
    return { frame, shown, next: signInStep(shown) };
  };
  const [main = page.mainFrame(), ...children] = frames;
  const inMain = await read(main);
  // A child frame may go (its parent navigated) while it is read: then it offers nothing.
  const inChildren = await Promise.all(children.map((frame) => read(frame).catch(() => undefined)));
  return (
    [inMain, ...inChildren].find((one) => one && one.next.kind !== 'stuck' && one.next.kind !== 'scripted') ??
    inMain
  );
}

/** The frame's control of rank `index` (html-form.ts counts them by the same selector, in the same order). */
async function control(page: Frame, index: number) {
  const handle = await page.evaluateHandle(
    ([selector, rank]) => document.querySelectorAll(selector)[rank] ?? null,
    [CONTROL_SELECTOR, index] as const,
  );
  const element = handle.asElement();
  if (!element) throw new Error(`the page changed under the sign-in (control ${index} is gone)`);
  return element;
}

/** A step that acts on the page: a login to fill and submit, or a control to press. */
export type Action = Extract<SignInStep, { kind: 'login' | 'press' }>;

/** Does a step in a frame of the page: fills and submits a login, or presses a control. */
export async function act(page: Frame, step: Action, account: SignInAccount) {
  if (step.kind === 'press') return (await control(page, step.control.index)).click();
  const username = step.username && (await control(page, step.username.index));
  if (username) await username.fill(account.username);
  const password = step.password && (await control(page, step.password.index));
  if (password) await password.fill(account.password);
  // As a person does: Enter in the last field filled submits with the form's default button.
  const last = password ?? username;
  if (last && (step.byEnter || !step.submit)) return last.press('Enter');
  if (!step.submit) throw new Error('a login step with no field and no button');
  return (await control(page, step.submit.index)).click();
}

/** A screenshot of the page under the reports directory; undefined when it cannot be taken. */
export async function screenshot(page: Page): Promise<string | undefined> {
  const path = reportPath(`sign-in/${new Date().toISOString().replace(/[:.]/g, '-')}.png`);
  mkdirSync(dirname(path), { recursive: true });
  return page.screenshot({ path, fullPage: true }).then(
    () => path,
    () => undefined,
  );
}
