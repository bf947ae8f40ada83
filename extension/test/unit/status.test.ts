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

describe('status bar per document', () => {
  const ok = { uri: 'file:///w/a.py', status: 'ok', outcome: 'ok', summary: 'Adam step OK on cpu, 0.1 s', line: null };
  const nan = {
    uri: 'file:///w/b.py', status: 'ok', outcome: 'warning',
    summary: 'Adam step ran on cpu but 2 of 4 parameter tensors contain inf/NaN [DG012], 0.1 s', line: null,
  };

  it('never shows OK over a step that left NaN parameters', () => {
    const view = renderStatus({ state: 'running', trusted: true, lastVerify: nan });
    assert.match(view.text, /\$\(warning\) verify warning/);
    assert.doesNotMatch(view.text, /OK/);
    assert.equal(view.tone, 'warning');
  });

  it('follows the active editor', () => {
    const verifies = { [ok.uri]: ok, [nan.uri]: nan };
    const onA = renderStatus({ state: 'running', trusted: true, lastVerify: nan, verifies, activeUri: ok.uri });
    assert.match(onA.text, /verify OK/);
    assert.match(onA.tooltip, /a\.py: ok/);
    const onB = renderStatus({ state: 'running', trusted: true, lastVerify: nan, verifies, activeUri: nan.uri });
    assert.match(onB.text, /verify warning/);
    const elsewhere = renderStatus({ state: 'running', trusted: true, lastVerify: nan, verifies, activeUri: 'file:///w/c.py' });
    assert.doesNotMatch(elsewhere.text, /verify/);
    assert.equal(elsewhere.tone, 'normal');
  });

  it('marks a result stale after an edit, without alarm colours', () => {
    const bad = { uri: 'file:///w/h06.py', status: 'error', outcome: 'error', summary: 'RuntimeError at line 34', line: 34 };
    const stale = renderStatus({ state: 'running', trusted: true, lastVerify: { ...bad, stale: true } });
    assert.match(stale.text, /\$\(history\) verify error \(edited since\)/);
    assert.match(stale.tooltip, /before your edits: error/);
    assert.equal(stale.tone, 'normal');
  });
});
