#!/usr/bin/env node
// Tiny shim: the compiled CLI handles arguments, signals and the exit code.
// CommonJS (bin/package.json): a start from an ES module entry costs ~10 ms
// more. Three answers skip loading the program, for speed: the version, shell
// completion (`news __complete …`, on every Tab) from the tree written at
// build time, and `news COMMAND… --help` from the help models written at
// build time (src/cli/help/fast.ts: anything else after the names, or no
// model, and the program answers).
'use strict';

const argv = process.argv.slice(2);

/** A file of the bundle (build/bundle.mjs), or undefined in a tree built without it. */
function bundled(name) {
  try {
    return require(`../dist/bundle/${name}`);
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND' || !String(error.message).includes(name)) throw error;
    return undefined;
  }
}

/** The bundle from its code caches; dist/cli, module by module, without one. */
function start() {
  // A Ctrl-C while the program loads would end it the default way, without a
  // word: held here and handed to main(). The holder goes only once main()
  // listens (it does at once): a signal caught while no listener is left is lost.
  const early = [];
  const hold = (signal) => early.push(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, hold);
  const run = (main) => {
    const done = main(argv, early);
    for (const signal of signals) process.off(signal, hold);
    return done;
  };
  const boot = bundled('boot.cjs');
  const core = boot?.loadCore(boot.coreFiles(process.env), process.env);
  if (core !== undefined) return run(core.exports.main).then(() => core.save());
  return import('../dist/cli/main.js').then((cli) => run(cli.main));
}

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (argv[0] === '__complete') {
  if (!bundled('complete.cjs')?.completeFast(argv.slice(1))) start();
} else if (argv.at(-1) === '--help' || argv.at(-1) === '-h') {
  if (!bundled('help.cjs')?.helpFast(argv)) start();
} else {
  start();
}
