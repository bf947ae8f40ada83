import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initializationOptions, needsRestart, readSettings } from '../../src/settings';

const getter = (values: Record<string, unknown>) => (key: string) => values[key];

describe('readSettings -> contract settings', () => {
  it('maps defaults to the contract shape, with the resolved interpreter', () => {
    const s = readSettings(getter({}), ['/venv/bin/python']);
    assert.deepEqual(s, {
      interpreter: ['/venv/bin/python'],
      verifyTimeout: 60,
      verifyDevice: 'auto',
      select: [],
      ignore: [],
      severityOverrides: {},
      inlayHints: false,
      debounceMs: 200,
      workspaceDiagnostics: false,
    });
  });

  it('passes valid values through and normalises codes and severities', () => {
    const s = readSettings(
      getter({
        verifyTimeout: 120,
        verifyDevice: 'cuda',
        select: ['dg00', 'DG004', 'DG004'],
        ignore: [' DG008 '],
        severityOverrides: { DG008: 'hint', dg004: 'Error', DG006: 'info' },
        inlayHints: true,
        debounceMs: 350,
      }),
      ['python3'],
    );
    assert.equal(s.verifyTimeout, 120);
    assert.equal(s.verifyDevice, 'cuda');
    assert.deepEqual(s.select, ['DG00', 'DG004']);
    assert.deepEqual(s.ignore, ['DG008']);
    assert.deepEqual(s.severityOverrides, { DG008: 'hint', DG004: 'error', DG006: 'information' });
    assert.equal(s.inlayHints, true);
    assert.equal(s.debounceMs, 350);
  });

  it('degrades bad values to defaults instead of sending them to the server', () => {
    const s = readSettings(
      getter({
        verifyTimeout: 'soon',
        verifyDevice: 'tpu',
        select: 'DG004',
        ignore: [4, 'E501', null],
        severityOverrides: { DG008: 'fatal', E501: 'hint', DG1: 'hint' },
        inlayHints: 'yes',
        debounceMs: -5,
      }),
      ['python3'],
    );
    assert.equal(s.verifyTimeout, 60);
    assert.equal(s.verifyDevice, 'auto');
    assert.deepEqual(s.select, []);
    assert.deepEqual(s.ignore, []);
    assert.deepEqual(s.severityOverrides, {});
    assert.equal(s.inlayHints, false);
    assert.equal(s.debounceMs, 0);
    assert.equal(readSettings(getter({ verifyTimeout: 0, debounceMs: 1e9 }), []).verifyTimeout, 1);
    assert.equal(readSettings(getter({ debounceMs: 1e9 }), []).debounceMs, 5000);
  });

  it('wraps settings with the trust flag', () => {
    const s = readSettings(getter({}), ['py']);
    assert.deepEqual(initializationOptions(s, false), { workspaceTrusted: false, settings: s });
    assert.equal(initializationOptions(s, true).workspaceTrusted, true);
  });

  it('is JSON-serialisable exactly as the contract example', () => {
    const s = readSettings(getter({ severityOverrides: { DG008: 'hint' } }), ['/path/python']);
    const json = JSON.parse(JSON.stringify(initializationOptions(s, true)));
    assert.deepEqual(Object.keys(json.settings).sort(), [
      'debounceMs', 'ignore', 'inlayHints', 'interpreter', 'select', 'severityOverrides', 'verifyDevice', 'verifyTimeout',
      'workspaceDiagnostics',
    ]);
  });
});

describe('needsRestart', () => {
  const affects = (...changed: string[]) => (section: string) =>
    changed.some((c) => c === section || c.startsWith(section + '.'));
  it('restarts for server settings and the interpreter', () => {
    assert.equal(needsRestart(affects('dtypeguard.interpreter')), true);
    assert.equal(needsRestart(affects('dtypeguard.severityOverrides')), true);
    assert.equal(needsRestart(affects('dtypeguard.someFutureKey')), true);
  });
  it('does not restart for trace (the client applies it live) or unrelated settings', () => {
    assert.equal(needsRestart(affects('dtypeguard.trace.server')), false);
    assert.equal(needsRestart(affects('editor.fontSize')), false);
    assert.equal(needsRestart(affects('dtypeguard.trace.server', 'dtypeguard.select')), true);
  });
});
