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
  // The bundle (build/bundle.mjs) starts faster, from a code cache; dist/cli is
  // the same code, module by module, for a tree built without it.
  const { coreFiles, loadCore } = await import('../dist/cli/boot/code-cache.js');
  const core = loadCore(coreFiles(process.env), process.env);
  if (core !== undefined) {
    await core.exports.main(argv);
    core.save();
  } else {
    await (await import('../dist/cli/main.js')).main(argv);
  }
}
