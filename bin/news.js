#!/usr/bin/env node
// Tiny shim: the compiled CLI handles arguments, signals and the exit code.
// Two answers skip loading the program, for speed: the version, and shell
// completion (`news __complete …`, on every Tab) from the tree written at build time.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else if (
  argv[0] === '__complete' &&
  (await import('../dist/cli/completion/fast.js')).completeFast(argv.slice(1))
) {
  // answered
} else {
  // A Ctrl-C while the program loads would end it the default way, without a
  // word: held here, and answered by main() once it is there.
  const early = [];
  const hold = (signal) => early.push(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, hold);
  // The bundle (build/bundle.mjs) starts faster; dist/cli is the same code, module by module.
  let cli;
  try {
    cli = await import('../dist/bundle/main.js');
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('bundle'))
      throw error;
    cli = await import('../dist/cli/main.js');
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(signal, hold);
  await cli.main(argv, early);
}
