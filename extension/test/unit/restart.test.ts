import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Timers, createRestarter } from '../../src/restart';

/** Manual clock: tests advance time explicitly, so they never sleep. */
class FakeTimers implements Timers {
  now = 0;
  private queue: Array<{ at: number; fn: () => void; id: number }> = [];
  private next = 1;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.queue.push({ at: this.now + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }
  advance(ms: number): void {
    this.now += ms;
    const due = this.queue.filter((t) => t.at <= this.now);
    this.queue = this.queue.filter((t) => t.at > this.now);
    due.forEach((t) => t.fn());
  }
}

const tick = () => new Promise((r) => setImmediate(r));

describe('createRestarter (one debounced runServer)', () => {
  it('coalesces a burst of requests into one run with all reasons', async () => {
    const timers = new FakeTimers();
    const runs: string[][] = [];
    const r = createRestarter(async (reasons) => void runs.push(reasons), () => 300, timers);
    const p1 = r.request('settings changed');
    timers.advance(100);
    const p2 = r.request('interpreter changed');
    timers.advance(299);
    await tick();
    assert.equal(runs.length, 0, 'still inside the debounce window');
    timers.advance(1);
    await Promise.all([p1, p2]);
    assert.deepEqual(runs, [['settings changed', 'interpreter changed']]);
  });

  it('never overlaps runs; a request during a run causes exactly one more run', async () => {
    const timers = new FakeTimers();
    let active = 0;
    let maxActive = 0;
    const runs: string[][] = [];
    let release!: () => void;
    const r = createRestarter(
      async (reasons) => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs.push(reasons);
        if (runs.length === 1) {
          await new Promise<void>((res) => (release = res));
        }
        active--;
      },
      () => 0,
      timers,
    );
    const first = r.now('activation');
    await tick();
    const second = r.now('trust granted');
    const third = r.now('restart command');
    await tick();
    assert.equal(runs.length, 1, 'second run waits for the first');
    release();
    await Promise.all([first, second, third]);
    assert.equal(maxActive, 1);
    assert.deepEqual(runs[0], ['activation']);
    assert.ok(runs.length <= 3);
    assert.deepEqual(runs.flat(), ['activation', 'trust granted', 'restart command']);
  });

  it('keeps going after a failed run', async () => {
    const timers = new FakeTimers();
    let calls = 0;
    const r = createRestarter(async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
    }, () => 0, timers);
    await r.now('a');
    await r.now('b');
    assert.equal(calls, 2);
  });

  it('dispose cancels a pending request and releases its waiter', async () => {
    const timers = new FakeTimers();
    let calls = 0;
    const r = createRestarter(async () => void calls++, () => 500, timers);
    const p = r.request('x');
    r.dispose();
    await p;
    timers.advance(1000);
    await tick();
    assert.equal(calls, 0);
  });
});
