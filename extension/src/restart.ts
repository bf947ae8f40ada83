/**
 * One debounced, serialised `runServer` for every restart reason.
 *
 * Why: a settings change, an interpreter change in the Python extension, workspace trust being
 * granted and the user's "Restart Server" can all arrive within milliseconds of each other (a
 * settings.json save fires several events). Starting a server per event would race: two
 * clients would be alive at once, publishing duplicate diagnostics. So requests are
 * coalesced for `delayMs`, and a run never overlaps another one; a request that arrives
 * while a run is in flight schedules exactly one more run after it.
 */

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface Restarter {
  /** Ask for a (re)start soon; reasons are collected and passed to the run. */
  request(reason: string): Promise<void>;
  /** Start now (still after any run in flight), e.g. on activation or an explicit command. */
  now(reason: string): Promise<void>;
  dispose(): void;
}

export function createRestarter(
  run: (reasons: string[]) => Promise<void>,
  delayMs: () => number,
  timers: Timers = realTimers,
): Restarter {
  let pending: string[] = [];
  let timer: unknown;
  let waiters: Array<() => void> = [];
  let chain: Promise<void> = Promise.resolve();
  let disposed = false;

  const fire = (): Promise<void> => {
    timer = undefined;
    const reasons = pending;
    const done = waiters;
    pending = [];
    waiters = [];
    chain = chain
      .then(() => (disposed ? undefined : run(reasons)))
      .catch(() => undefined) // run() reports its own errors; a failure must not wedge the chain
      .then(() => done.forEach((resolve) => resolve()));
    return chain;
  };

  const enqueue = (reason: string, ms: number): Promise<void> => {
    pending.push(reason);
    const settled = new Promise<void>((resolve) => waiters.push(resolve));
    if (timer !== undefined) {
      timers.clearTimeout(timer);
    }
    if (ms <= 0) {
      void fire();
    } else {
      timer = timers.setTimeout(() => void fire(), ms);
    }
    return settled;
  };

  return {
    request: (reason) => enqueue(reason, delayMs()),
    now: (reason) => enqueue(reason, 0),
    dispose: () => {
      disposed = true;
      if (timer !== undefined) {
        timers.clearTimeout(timer);
      }
      waiters.forEach((resolve) => resolve());
      waiters = [];
    },
  };
}
