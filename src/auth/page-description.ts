// What a sign-in page showed, in one redacted paragraph for an error message: its address, title and status,
// each form with where it posts, its fields (names and labels; never values but the buttons') and buttons,
// the buttons outside forms, its alerts and where its frames load from.
import { redactText } from '../http/redact.ts';
import { type Control, type HtmlPage, isButton } from './html-form.ts';

const quoted = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);

const button = (control: Control): string =>
  `${quoted(control.label || control.value)}${control.name ? ` (${control.name}=${control.value})` : ''}`;

const field = (control: Control): string =>
  `${control.name ?? '(no name)'} (${control.type}${control.label ? `, ${quoted(control.label)}` : ''})`;

export function describePage(page: HtmlPage, status?: number): string {
  const { origin, pathname } = new URL(page.url);
  const parts = [
    `${origin}${pathname}${status === undefined ? '' : ` answered ${status}`}, titled ${quoted(page.title)}`,
  ];
  if (page.forms.length === 0) parts.push('no form');
  for (const form of page.forms) {
    const fields = form.controls.filter((control) => !isButton(control));
    const buttons = form.controls.filter(isButton);
    parts.push(
      `a form (${form.method} ${new URL(form.action).pathname}) with fields ${fields.map(field).join(', ') || 'none'} and buttons ${buttons.map(button).join(', ') || 'none'}`,
    );
  }
  if (page.buttons.length > 0) parts.push(`buttons outside forms ${page.buttons.map(button).join(', ')}`);
  if (page.alerts.length > 0) parts.push(`alerts ${page.alerts.map(quoted).join(', ')}`);
  if (page.frames.length > 0)
    parts.push(
      `frames from ${page.frames.map((frame) => new URL(frame).origin + new URL(frame).pathname).join(', ')}`,
    );
  if (page.scripted) parts.push('scripts');
  return redactText(parts.join('; '));
}
