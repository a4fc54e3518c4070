/**
 * Preloaded into the built binary (`node --import`) by
 * test/e2e/robust-signals.test.ts: sends the process SIGINT at one named
 * moment of a run, the Nth call of a file function on a matching path, and
 * holds that call back a little, so the signal lands while it is under way.
 * The test's own code, never shipped.
 *
 * NEWS_TEST_INTERRUPT (JSON):
 *   at:   { api: 'promises' | 'callback' | 'sync', fn, path, nth, delayMs, signals }
 *         `path` is a regular expression tested on the first argument ('' for
 *         any: an fd); `signals` SIGINTs are sent (default 1). api 'listen':
 *         the signal is sent as the program first listens for SIGINT.
 *   slow: { api, fn, path, delayMs } (optional): every matching call is held
 *         back that long, no signal sent (a slow disk under the cleanup).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const plan = JSON.parse(process.env.NEWS_TEST_INTERRUPT ?? 'null');

const interrupt = (count) => {
  for (let i = 0; i < count; i++) process.kill(process.pid, 'SIGINT');
};

/** Wraps `fn` of `api`: `before(first argument)` says how long to hold the call back (0: not at all). */
function wrap(api, fn, before) {
  const owner = api === 'promises' ? fs.promises : fs;
  const original = owner[fn];
  if (api === 'promises') {
    owner[fn] = async (...args) => {
      const ms = before(args[0]);
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
      return original.apply(owner, args);
    };
  } else if (api === 'callback') {
    owner[fn] = (...args) => {
      const ms = before(args[0]);
      if (ms === 0) return original.apply(owner, args);
      setTimeout(() => original.apply(owner, args), ms);
    };
  } else {
    owner[fn] = (...args) => {
      before(args[0]);
      return original.apply(owner, args);
    };
  }
}

const matches = (pattern, first) => new RegExp(pattern).test(String(first));

if (plan !== null) {
  const { at, slow } = plan;
  if (at.api === 'listen') {
    const on = process.on;
    let sent = false;
    process.on = function (event, listener) {
      const result = on.call(this, event, listener);
      if (event === 'SIGINT' && !sent) {
        sent = true;
        interrupt(at.signals ?? 1);
      }
      return result;
    };
  } else {
    let calls = 0;
    wrap(at.api, at.fn, (first) => {
      if (!matches(at.path, first) || ++calls !== at.nth) return 0;
      interrupt(at.signals ?? 1);
      return at.delayMs ?? 1;
    });
  }
  if (slow !== undefined) {
    wrap(slow.api, slow.fn, (first) => (matches(slow.path, first) ? slow.delayMs : 0));
  }
  syncBuiltinESMExports();
}
