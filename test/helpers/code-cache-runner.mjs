// Starts the CLI as bin/news.js does, from the bundle in argv[2] (a copy the
// test may damage), then prints which cache each script used, as the last
// line on stderr: `caches {"start":"built","lazy":"none"}`, after its
// fingerprint: `fingerprint "v20.20.2 x64 "`.
import { coreFiles, fingerprint, loadCore } from '../../dist/cli/boot/code-cache.js';

const [dir, ...argv] = process.argv.slice(2);
const core = loadCore(coreFiles(process.env, dir), process.env);
if (core === undefined) {
  process.stderr.write('caches none: no start.cjs\n');
  process.exit(9);
}
await core.exports.main(argv);
core.save();
const caches = Object.fromEntries([...core.compiled].map(([part, c]) => [part, c.cache]));
process.stderr.write(`fingerprint ${JSON.stringify(fingerprint(process.env))}\n`);
process.stderr.write(`caches ${JSON.stringify(caches)}\n`);
