import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderStatus, uriBasename, verifyOutcome } from '../../src/status';

describe('status bar view', () => {
  it('shows the server state', () => {
    assert.match(renderStatus({ state: 'starting', trusted: true }).text, /sync~spin.*dtypeguard/);
    const running = renderStatus({ state: 'running', trusted: true, detail: 'Python: /v/python' });
    assert.equal(running.tone, 'normal');
    assert.match(running.tooltip, /server: running \(Python: \/v\/python\)/);
    assert.match(running.tooltip, /show the dtypeguard log/);
    assert.equal(renderStatus({ state: 'error', trusted: true }).tone, 'error');
  });

  it('says when verify is off in restricted mode', () => {
    assert.match(renderStatus({ state: 'running', trusted: false }).tooltip, /Restricted mode.*Verify is off/);
  });

  it('shows the last verify result', () => {
    const ok = renderStatus({
      state: 'running',
      trusted: true,
      lastVerify: { uri: 'file:///w/fixed%20one.py', status: 'ok', summary: 'reached optimizer.step()', line: null },
    });
    assert.match(ok.text, /verify OK/);
    assert.match(ok.tooltip, /fixed one\.py: ok - reached optimizer\.step\(\)/);
    assert.equal(ok.tone, 'normal');
    const bad = renderStatus({
      state: 'running',
      trusted: true,
      lastVerify: { uri: 'file:///w/h06.py', status: 'error', summary: 'RuntimeError: mat1 and mat2', line: 34 },
    });
    assert.match(bad.text, /verify error/);
    assert.match(bad.tooltip, /h06\.py:34: error - RuntimeError/);
    assert.equal(bad.tone, 'error');
    const slow = renderStatus({ state: 'running', trusted: true, lastVerify: { uri: 'file:///a.py', status: 'timeout', summary: '' } });
    assert.equal(slow.tone, 'warning');
  });

  it('classifies unknown statuses as failures, never as OK', () => {
    assert.equal(verifyOutcome('OK'), 'ok');
    assert.equal(verifyOutcome('passed'), 'ok');
    assert.equal(verifyOutcome('timeout'), 'inconclusive');
    assert.equal(verifyOutcome('no-cuda'), 'inconclusive');
    assert.equal(verifyOutcome('crashed'), 'failed');
    assert.equal(verifyOutcome('weird'), 'failed');
  });

  it('takes basenames of URIs', () => {
    assert.equal(uriBasename('file:///a/b/train.py'), 'train.py');
    assert.equal(uriBasename('file:///a/b/my%20train.py?x#y'), 'my train.py');
    assert.equal(uriBasename('untitled:Untitled-1'), 'untitled:Untitled-1');
  });
});
