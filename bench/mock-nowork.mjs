#!/usr/bin/env node
/**
 * The yardstick of the mock's search rate: a `node:http` server
 * that does no work, in its own process. It answers each request with the
 * bytes the mock answered to the same request body (recorded in ANSWERS.json:
 * [[request body, status, headers, answer body (base64)], …]), found by one
 * Map lookup, with the same headers. Prints its URL when listening.
 * Usage: node bench/mock-nowork.mjs ANSWERS.json
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answers = new Map(
  JSON.parse(readFileSync(process.argv[2], 'utf8')).map(([request, status, headers, body]) => [
    request,
    { status, headers, body: Buffer.from(body, 'base64') },
  ]),
);
const missing = { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('?') };

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const a = answers.get(Buffer.concat(chunks).toString()) ?? missing;
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
