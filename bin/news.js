#!/usr/bin/env node
// Tiny shim: everything lives in the compiled CLI, which sets process.exitCode itself.
import { main } from '../dist/cli/main.js';

await main(process.argv.slice(2));
