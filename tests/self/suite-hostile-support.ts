// Support for the hostile-target self tests: runs the conformance CLI against a target in its own process
// group, looks at the processes of a run, and searches a reports directory for secrets, also inside zip
// archives, gzip streams and base64 blobs (the HTML report embeds a zip as base64, the single-file Allure
// report its data as base64).
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import AdmZip from 'adm-zip';
import { cli } from '../../src/runner/run/run-step.ts';

// ------------------------------------------------------------------------------------ the run

export interface CliRun {
  child: ChildProcess;
  /** Resolves with the exit code (128 + n for signal n) and the run's console output. */
  exit: Promise<{ code: number; output: string }>;
}

/** Starts the run (`physiology-conformance run`, as `npm run conformance` does) in a process group of its own. */
export function startCli(env: NodeJS.ProcessEnv): CliRun {
  const [command, args] = cli('run');
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exit = new Promise<{ code: number; output: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output })),
  );
  return { child, exit };
}

// ------------------------------------------------------------------------------------ processes

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks since boot: a pid and its start time name one process, reuse aside. */
  start: string;
  /** R, S, D, Z (zombie: exited, not yet reaped)… */
  state: string;
}

function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      state: fields[0] ?? '',
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      start: fields[19] ?? '',
    };
  } catch {
    return undefined;
  }
}

function allProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => processInfo(Number(name)))
    .filter((info): info is ProcessInfo => info !== undefined);
}

/** The process `root` and all its descendants, now. */
export function processTree(root: number): ProcessInfo[] {
  const all = allProcesses();
  const tree = all.filter((info) => info.pid === root);
  for (let i = 0; i < tree.length; i++) tree.push(...all.filter((info) => info.ppid === tree[i].pid));
  return tree;
}

/**
 * Which of `processes` still run (same pid, same start time), or still have a running member in their
 * process group. Zombies are dead (only their exit status waits to be collected) and do not count.
 */
export function survivors(processes: readonly ProcessInfo[]): string[] {
  const ownGroup = processInfo(process.pid)?.pgid;
  const groups = new Set(processes.map((info) => info.pgid).filter((pgid) => pgid !== ownGroup));
  return allProcesses()
    .filter((info) => info.state !== 'Z' && info.state !== 'X')
    .filter(
      (info) =>
        groups.has(info.pgid) ||
        processes.some((known) => known.pid === info.pid && known.start === info.start),
    )
    .map((info) => `${info.pid} (pgid ${info.pgid}): ${cmdline(info.pid)}`);
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 200);
  } catch {
    return '?';
  }
}

// ------------------------------------------------------------------------------------ secrets in files

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const BASE64_RUN = /[A-Za-z0-9+/]{40,}={0,2}/g;
const MAX_DEPTH = 4;

/** Every place (`file › zip entry › base64@offset …`) where one of `secrets` occurs in `content`. */
export function findSecrets(where: string, content: Buffer, secrets: readonly string[], depth = 0): string[] {
  const text = content.toString('latin1');
  const found = secrets
    .filter((secret) => text.includes(secret))
    .map((secret) => `${where}: ${secret.slice(0, 8)}…`);
  if (depth >= MAX_DEPTH) return found;
  if (content.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    for (const entry of new AdmZip(content).getEntries())
      if (!entry.isDirectory)
        found.push(...findSecrets(`${where} › ${entry.entryName}`, entry.getData(), secrets, depth + 1));
  }
  if (content[0] === 0x1f && content[1] === 0x8b) {
    try {
      found.push(...findSecrets(`${where} › gunzip`, gunzipSync(content), secrets, depth + 1));
    } catch {
      // not a gzip stream after all
    }
  }
  for (const match of text.matchAll(BASE64_RUN)) {
    const decoded = Buffer.from(match[0], 'base64');
    found.push(...findSecrets(`${where} › base64@${match.index}`, decoded, secrets, depth + 1));
  }
  return found;
}

/** Every occurrence of a secret in any file under `dir`. */
export const secretsUnder = (dir: string, secrets: readonly string[]): string[] =>
  filesUnder(dir).flatMap((file) => findSecrets(file, readFileSync(file), secrets));
