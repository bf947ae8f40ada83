// Bundle the extension with esbuild; with --tests, bundle only the unit and e2e test suites.
// Why a bundle: the .vsix then ships one JS file instead of node_modules (smaller, faster to
// activate), and `vsce package --no-dependencies` leaves node_modules out entirely.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning' };

if (!args.has('--tests')) {
  await esbuild.build({
    ...common,
    entryPoints: ['extension/src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    // No source map in the .vsix (.vscodeignore ships dist/extension.js only).
    sourcemap: production ? false : 'linked',
    minify: production,
  });
} else {
  const unit = readdirSync('extension/test/unit').filter((f) => f.endsWith('.test.ts'));
  await esbuild.build({
    ...common,
    entryPoints: unit.map((f) => join('extension/test/unit', f)),
    outdir: 'out/unit',
    sourcemap: 'inline',
  });
  // The e2e suite runs inside VS Code's extension host, which provides `vscode`.
  await esbuild.build({
    ...common,
    entryPoints: ['extension/e2e/suite/index.ts'],
    outfile: 'out/e2e/suite/index.js',
    external: ['vscode'],
    sourcemap: 'inline',
  });
}
