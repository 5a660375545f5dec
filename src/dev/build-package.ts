// `npm run build` (and `npm pack`, before it packs): the suite as JavaScript, in dist/ laid out as the
// checkout, so that the installed command and Playwright's processes load built modules, not tsx. The
// modules loaded by their path (the command, Playwright's configuration, spec files, reporters, global
// setup) and the ones that find files beside them by their own URL keep their files; every other module goes
// into chunks shared between them, each module in exactly one, so a process still holds one instance of
// each. The other files of the built folders (env files, the page's style and script) are copied beside
// them. The package's own assets (specs, schemas) stay at its root (src/run-state/package.ts `packageRoot`);
// its TypeScript sources do not ship (BUILT_ONLY).
import { cpSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { BUILT_DIR, LOADED_BY_PATH, packageRoot } from '../run-state/package.ts';
import { scriptArgs } from './script-args.ts';

const TYPESCRIPT = /\.tsx?$/;

const { values } = scriptArgs(
  `Usage: npm run build [-- --clean] [-- --into DIR]

  Builds the suite to JavaScript in ${BUILT_DIR}/, which the packed command and its Playwright processes load
  (\`npm pack\` runs it first).
  --clean     removes ${BUILT_DIR}/ instead (\`npm pack\` runs it after packing)
  --into DIR  builds into DIR/${BUILT_DIR}/ instead, with source maps, DIR linking the checkout's other files as
              the package holds them: a build beside the checkout's sources (the self tests run theirs)
  --help      this text`,
  { options: { clean: { type: 'boolean', default: false }, into: { type: 'string' } } },
);
/** The package's root the build goes into: the checkout's, or --into's. */
const root = values.into ? resolve(values.into) : packageRoot;
const outdir = join(root, BUILT_DIR);
if (values.clean) {
  rmSync(outdir, { recursive: true, force: true });
  process.exit(0);
}

/** The suite's code, which the package ships only built: package.json's \`files\` leaves it out. */
const BUILT_ONLY = ['src/', 'tests/conformance/', 'playwright.config.ts'];

/** The files and folders the package ships (package.json's \`files\`) but its build. */
const packaged = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { files: string[] }
).files.filter((entry) => entry.replace(/\/$/, '') !== BUILT_DIR);
/** What the build reads: what the package ships and BUILT_ONLY. */
const shipped = [...packaged, ...BUILT_ONLY];

/** Every file under what the package ships, relative to its root. */
const files = shipped.flatMap((entry) =>
  statSync(join(packageRoot, entry)).isDirectory()
    ? readdirSync(join(packageRoot, entry), { recursive: true, encoding: 'utf8' })
        .map((file) => join(entry, file))
        .filter((file) => statSync(join(packageRoot, file)).isFile())
    : [entry],
);
const sources = files.filter((file) => TYPESCRIPT.test(file) && !file.endsWith('.d.ts'));
const codeFolders = new Set(sources.map((file) => dirname(file)));
const besideCode = files.filter((file) => !TYPESCRIPT.test(file) && codeFolders.has(dirname(file)));

/** The command (bin/ imports its build), Playwright's spec files, and what else is loaded by its path. */
const entries = [
  'src/cli/main.ts',
  ...sources.filter((file) => file.startsWith('tests/conformance/') && file.endsWith('.spec.ts')),
  ...LOADED_BY_PATH,
];

/** The options both passes share: one graph from the entry points, packages left to node_modules. */
const graph = {
  absWorkingDir: packageRoot,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  metafile: true,
  logLevel: 'warning',
} as const;

/** The modules the entry points reach that find a file beside them by their own URL: each keeps its file. */
const reached = (await build({ ...graph, entryPoints: entries, write: false, outdir })).metafile.inputs;
const located = new Set(
  Object.keys(reached).filter(
    (file) =>
      sources.includes(file) && readFileSync(join(packageRoot, file), 'utf8').includes('import.meta.url'),
  ),
);

/** An import of a located module goes to its own file, named as package.json `imports` maps `#dist/*`. */
const locatedStayInPlace: Plugin = {
  name: 'located-stay-in-place',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.?\// }, ({ path, importer, kind }) => {
      if (kind === 'entry-point') return undefined;
      const file = relative(packageRoot, resolve(dirname(importer), path));
      if (!located.has(file)) return undefined;
      return { path: `#${BUILT_DIR}/${file.replace(TYPESCRIPT, '.js')}`, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
  ...graph,
  entryPoints: [...new Set([...entries, ...located])],
  outbase: packageRoot,
  outdir,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Class and function names are read at run time (an error's name), so bundling keeps them.
  keepNames: true,
  // A build beside the checkout maps its stacks and test locations to the sources (Playwright reads the maps):
  // its runs name the files a developer edits, and an error's code frame is never a shared chunk's.
  ...(root === packageRoot ? {} : { sourcemap: 'linked', sourcesContent: false }),
  plugins: [locatedStayInPlace],
});
for (const file of besideCode) cpSync(join(packageRoot, file), join(outdir, file));
if (root !== packageRoot) linkPackageFiles();
const modules = Object.keys(metafile.inputs).filter((input) => !input.includes('node_modules')).length;
const outputs = Object.keys(metafile.outputs).filter((file) => file.endsWith('.js')).length;
console.log(
  `built ${modules} modules into ${outputs} files, and copied ${besideCode.length} files, in ${root === packageRoot ? BUILT_DIR : outdir}/`,
);

/** --into: the package's other files (package.json, what it ships, its dependencies) linked from the checkout. */
function linkPackageFiles(): void {
  const names = new Set([
    'package.json',
    'node_modules',
    ...packaged.map((entry) => entry.split('/')[0] ?? entry),
  ]);
  for (const name of names) {
    rmSync(join(root, name), { recursive: true, force: true });
    symlinkSync(join(packageRoot, name), join(root, name));
  }
}
