/**
 * How the server process is started (docs/lsp-contract.md, "Start").
 *
 * Pure, so the command line and environment are unit-tested. The bundled libraries (pygls,
 * lsprotocol, libcst with its native parser for each supported CPython) and the bundled server
 * source go first on PYTHONPATH: the server then runs in any Python >= 3.10, even one without
 * those packages, and never picks up an incompatible pygls from the user's environment.
 */
import * as path from 'path';

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface BundlePaths {
  libs: string;
  server: string;
}

export function bundlePaths(extensionPath: string): BundlePaths {
  return {
    libs: path.join(extensionPath, 'bundled', 'libs'),
    server: path.join(extensionPath, 'bundled', 'server'),
  };
}

/** Environment variables through which the server learns what the client prepended. */
export const ENV_BUNDLED = 'DTYPEGUARD_BUNDLED_PATHS';
export const ENV_ORIGINAL_PYTHONPATH = 'DTYPEGUARD_ORIGINAL_PYTHONPATH';

export function serverLaunch(
  interpreter: readonly string[],
  bundle: BundlePaths,
  baseEnv: Readonly<Record<string, string | undefined>>,
  delimiter: string = path.delimiter,
): Launch {
  const [command, ...extra] = interpreter;
  if (!command) {
    throw new Error('empty interpreter command');
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(baseEnv)) {
    if (v !== undefined) {
      env[k] = v;
    }
  }
  const ours = [bundle.libs, bundle.server];
  const original = env.PYTHONPATH ?? '';
  env.PYTHONPATH = [...ours, ...(original ? [original] : [])].join(delimiter);
  // Verify runs the user's script in a child of the server: it should see the user's own
  // PYTHONPATH, not our bundled copies of attrs/typing_extensions. These two variables let the
  // server restore it without guessing.
  env[ENV_BUNDLED] = ours.join(delimiter);
  env[ENV_ORIGINAL_PYTHONPATH] = original;
  env.PYTHONUNBUFFERED = '1'; // stderr lines reach the log as they happen
  env.PYTHONIOENCODING = 'utf-8'; // stdio is the LSP pipe: never the locale's codec
  return { command, args: [...extra, '-m', 'dtypeguard', 'lsp'], env };
}
