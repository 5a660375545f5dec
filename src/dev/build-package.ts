// `npm run build` (and `npm pack`, before it packs): the suite as JavaScript, in dist/ laid out as the
// checkout, so that the installed command and Playwright's workers load built modules, not tsx. Every
// TypeScript file the package ships (package.json `files`) is compiled alone, its relative imports pointed
// at the built `.js`; the other files of those folders (env files, the page's style and script) are copied
// beside them, as the modules read them by their own URL. The package's own assets (specs, schemas) stay
// at its root (src/run-state/package.ts `packageRoot`).
import { cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { BUILT_DIR, packageRoot } from '../run-state/package.ts';

const TYPESCRIPT = /\.tsx?$/;
const outdir = join(packageRoot, BUILT_DIR);

/** The files and folders the package ships, as package.json's `files` lists them, but for the build. */
const shipped = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { files: string[] }
).files.filter((entry) => entry.replace(/\/$/, '') !== BUILT_DIR);

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

/** Each module stays a module of its own: a relative import names the built file (`./x.ts` → `./x.js`). */
const relativeImportsAsBuilt: Plugin = {
  name: 'relative-imports-as-built',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.?\// }, ({ path, kind }) =>
      kind === 'entry-point' ? undefined : { path: path.replace(TYPESCRIPT, '.js'), external: true },
    );
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: sources.map((file) => join(packageRoot, file)),
  outbase: packageRoot,
  outdir,
  bundle: true,
  packages: 'external',
  plugins: [relativeImportsAsBuilt],
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  logLevel: 'warning',
});
for (const file of besideCode) cpSync(join(packageRoot, file), join(outdir, file));
console.log(`built ${sources.length} modules and copied ${besideCode.length} files into ${BUILT_DIR}/`);
