import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ENV_BUNDLED, ENV_ORIGINAL_PYTHONPATH, bundlePaths, serverLaunch } from '../../src/launch';

describe('serverLaunch', () => {
  const bundle = bundlePaths('/ext');
  it('runs `<python> -m dtypeguard lsp` with bundled libs and server first on PYTHONPATH', () => {
    const l = serverLaunch(['/v/bin/python'], bundle, { PATH: '/bin', PYTHONPATH: '/user/lib', UNSET: undefined }, ':');
    assert.equal(l.command, '/v/bin/python');
    assert.deepEqual(l.args, ['-m', 'dtypeguard', 'lsp']);
    assert.equal(l.env.PYTHONPATH, '/ext/bundled/libs:/ext/bundled/server:/user/lib');
    assert.equal(l.env[ENV_BUNDLED], '/ext/bundled/libs:/ext/bundled/server');
    assert.equal(l.env[ENV_ORIGINAL_PYTHONPATH], '/user/lib');
    assert.equal(l.env.PATH, '/bin');
    assert.equal('UNSET' in l.env, false);
  });
  it('keeps extra interpreter argv before -m', () => {
    const l = serverLaunch(['conda', 'run', '-n', 'ml', 'python'], bundle, {}, ':');
    assert.equal(l.command, 'conda');
    assert.deepEqual(l.args, ['run', '-n', 'ml', 'python', '-m', 'dtypeguard', 'lsp']);
    assert.equal(l.env.PYTHONPATH, '/ext/bundled/libs:/ext/bundled/server');
  });
  it('rejects an empty interpreter', () => {
    assert.throws(() => serverLaunch([], bundle, {}));
  });
});
