import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  interpreterSetting,
  isSupportedVersion,
  parsePythonVersion,
  resolveInterpreter,
  substituteVariables,
  unsupportedMessage,
} from '../../src/interpreter';

const ctx = { workspaceFolder: '/ws', userHome: '/home/u', env: { VENV: '/opt/venv' } };

describe('resolveInterpreter: setting > Python extension > python3 on PATH', () => {
  it('uses the dtypeguard.interpreter setting first', () => {
    const r = resolveInterpreter({ setting: ['/s/python'], pythonExtension: ['/p/python'], platform: 'linux' });
    assert.deepEqual(r, { command: ['/s/python'], source: 'setting' });
  });

  it('falls back to the Python extension when the setting is empty or blank', () => {
    for (const setting of [[], [''], ['  '], undefined]) {
      const r = resolveInterpreter({ setting, pythonExtension: ['/p/python'], platform: 'linux' });
      assert.deepEqual(r, { command: ['/p/python'], source: 'python-extension' });
    }
  });

  it('falls back to python3 on PATH without either', () => {
    const r = resolveInterpreter({ setting: [], pythonExtension: undefined, platform: 'linux' });
    assert.deepEqual(r, { command: ['python3'], source: 'path' });
    assert.deepEqual(resolveInterpreter({ setting: [], pythonExtension: [], platform: 'darwin' }).command, ['python3']);
  });

  it('uses `python` on Windows, where python3 is often the Store stub', () => {
    const r = resolveInterpreter({ setting: undefined, pythonExtension: undefined, platform: 'win32' });
    assert.deepEqual(r.command, ['python']);
  });

  it('keeps extra argv (conda run ...) and expands variables in the setting', () => {
    const r = resolveInterpreter(
      { setting: ['${env:VENV}/bin/python', '-X', 'utf8'], pythonExtension: undefined, platform: 'linux' },
      ctx,
    );
    assert.deepEqual(r.command, ['/opt/venv/bin/python', '-X', 'utf8']);
  });
});

describe('substituteVariables', () => {
  it('expands workspaceFolder, userHome and env', () => {
    assert.equal(substituteVariables('${workspaceFolder}/.venv/bin/python', ctx), '/ws/.venv/bin/python');
    assert.equal(substituteVariables('${userHome}/py', ctx), '/home/u/py');
    assert.equal(substituteVariables('${env:MISSING}x', ctx), 'x');
  });
  it('leaves unknown variables and a missing workspace folder visible', () => {
    assert.equal(substituteVariables('${foo}', ctx), '${foo}');
    assert.equal(substituteVariables('${workspaceFolder}/p', { userHome: '/h', env: {} }), '${workspaceFolder}/p');
  });
});

describe('Python version check', () => {
  it('parses the probe output, taking the last version-looking line', () => {
    assert.deepEqual(parsePythonVersion('3.11.7\n'), [3, 11, 7]);
    assert.deepEqual(parsePythonVersion('conda banner\r\n3.10.0\r\n'), [3, 10, 0]);
    assert.equal(parsePythonVersion('Python was not found'), undefined);
  });
  it('requires >= 3.10', () => {
    assert.equal(isSupportedVersion([3, 10, 0]), true);
    assert.equal(isSupportedVersion([3, 13, 1]), true);
    assert.equal(isSupportedVersion([4, 0, 0]), true);
    assert.equal(isSupportedVersion([3, 9, 18]), false);
    assert.equal(isSupportedVersion([2, 7, 18]), false);
  });
  it('says clearly what is wrong and how to fix it', () => {
    const m = unsupportedMessage({ command: ['/usr/bin/python3'], source: 'path' }, [3, 8, 10]);
    assert.match(m, /needs Python >= 3\.10/);
    assert.match(m, /\/usr\/bin\/python3 \(found on PATH\) is 3\.8\.10/);
    assert.match(m, /dtypeguard\.interpreter/);
    const n = unsupportedMessage({ command: ['/nope'], source: 'setting' }, undefined, 'spawn /nope ENOENT');
    assert.match(n, /could not run Python \/nope \(from the dtypeguard\.interpreter setting\): spawn \/nope ENOENT/);
  });
});

describe('interpreterSetting: the setting as users write it', () => {
  it('takes a single path as a string, spaces and all', () => {
    assert.deepEqual(interpreterSetting('/My Venvs/py/bin/python'), { setting: ['/My Venvs/py/bin/python'] });
    const r = resolveInterpreter({ setting: interpreterSetting('/v/python').setting, pythonExtension: undefined, platform: 'linux' });
    assert.deepEqual(r, { command: ['/v/python'], source: 'setting' });
  });

  it('takes a list of strings, and nothing as nothing', () => {
    assert.deepEqual(interpreterSetting(['/v/python', '-X', 'utf8']), { setting: ['/v/python', '-X', 'utf8'] });
    for (const raw of [undefined, null, '']) {
      assert.deepEqual(interpreterSetting(raw), { setting: undefined });
    }
  });

  it('names the setting and ignores any other value', () => {
    for (const raw of [42, { path: '/v/python' }, ['/v/python', 3], true]) {
      const r = interpreterSetting(raw);
      assert.equal(r.setting, undefined);
      assert.match(r.problem ?? '', /"dtypeguard\.interpreter" setting must be a path/);
    }
  });
});
