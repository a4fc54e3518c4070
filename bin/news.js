#!/usr/bin/env node
// Tiny shim: the compiled CLI handles arguments, signals and the exit code.
import { main } from '../dist/cli/main.js';

await main(process.argv.slice(2));
