// The run's logs written by several processes at once are JSON lines, one appended per event.
import { existsSync, readFileSync } from 'node:fs';

/** Every line of a JSON-lines file, parsed (none when the file does not exist yet). */
export function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}
