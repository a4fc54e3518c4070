// A local S3 store for the tests and bench/s3-reliability.mjs: s3rver (a
// real S3 API on loopback, objects in a temporary folder) behind a thin
// proxy that adds what s3rver lacks and what the tests need:
// - conditional writes: `If-None-Match: *` and `If-Match: ETAG` on PUT are
//   enforced (412 PreconditionFailed), one request per key at a time, as S3,
//   MinIO and R2 do; s3rver alone accepts both blindly, as older MinIO and
//   some gateways do (`conditionalWrites: false` keeps it that way: the
//   headers pass through and every such PUT succeeds);
// - multipart bookkeeping: AbortMultipartUpload and ListMultipartUploads,
//   which s3rver does not implement, are answered from the uploads the proxy
//   saw created and not yet completed (so a test can count what is left);
// - faults, chosen per request by a function: `500` (InternalError), `slowdown`
//   (503 SlowDown), `403` (AccessDenied), `reset` (the connection cut after
//   part of the body).
// Credentials are s3rver's fixed pair; the proxy checks nothing itself.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

function xmlError(res, status, code, message) {
  res
    .writeHead(status, { 'content-type': 'application/xml' })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>proxy-${randomBytes(4).toString('hex')}</RequestId></Error>`,
    );
}

/** Classifies a request the way S3 names its operations. */
export function operationOf(method, url, headers = {}) {
  const u = new URL(url, 'http://x');
  const q = u.searchParams;
  if (method === 'PUT' && q.has('partNumber')) return 'UploadPart';
  if (method === 'PUT' && 'x-amz-copy-source' in headers) return 'CopyObject';
  if (method === 'PUT') return 'PutObject';
  if (method === 'POST' && q.has('uploads')) return 'CreateMultipartUpload';
  if (method === 'POST' && q.has('uploadId')) return 'CompleteMultipartUpload';
  if (method === 'POST' && q.has('delete')) return 'DeleteObjects';
  if (method === 'DELETE' && q.has('uploadId')) return 'AbortMultipartUpload';
  if (method === 'DELETE') return 'DeleteObject';
  if (method === 'GET' && q.has('uploads')) return 'ListMultipartUploads';
  if (
    method === 'GET' &&
    (q.has('list-type') || u.pathname.split('/').filter(Boolean).length === 1)
  )
    return 'ListObjects';
  if (method === 'HEAD') return 'HeadObject';
  return 'GetObject';
}

/**
 * @param {{ bucket?: string, conditionalWrites?: boolean, fault?: (op: string, req: import('node:http').IncomingMessage) => (undefined | '500' | 'slowdown' | 'reset' | '403') }} [options]
 */
export async function startS3Store(options = {}) {
  const bucket = options.bucket ?? 'news-test';
  const directory = mkdtempSync(join(tmpdir(), 'news-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const direct = `http://127.0.0.1:${port}`;
  const uploads = new Map(); // uploadId -> key
  const log = [];
  const faults = { 500: 0, slowdown: 0, reset: 0, 403: 0 };
  const busy = new Map(); // key -> promise (conditional writes, one at a time)
  let fault = options.fault;
  let conditionalWrites = options.conditionalWrites !== false;

  const pass = (req, res, body) =>
    new Promise((resolve) => {
      const out = forward(
        { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const chunks = [];
          answer.on('data', (c) => chunks.push(c));
          answer.on('end', () => {
            const text = Buffer.concat(chunks);
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(text);
            resolve({ status: answer.statusCode, text: text.toString() });
          });
        },
      );
      out.on('error', () => {
        res.destroy();
        resolve({ status: 0, text: '' });
      });
      if (body !== undefined) out.end(body);
      else req.pipe(out);
    });

  const head = (path) =>
    new Promise((resolve) => {
      const h = forward({ host: '127.0.0.1', port, method: 'HEAD', path }, (a) => {
        a.resume();
        resolve(a.statusCode === 200 ? (a.headers.etag ?? '') : undefined);
      });
      h.on('error', () => resolve(undefined));
      h.end();
    });

  const proxy = createServer(async (req, res) => {
    const op = operationOf(req.method, req.url, req.headers);
    const path = new URL(req.url, 'http://x').pathname;
    const entry = { op, method: req.method, path, status: 0 };
    log.push(entry);
    const kind = fault?.(op, req);
    if (kind === 'reset') {
      faults.reset += 1;
      // Take some of the body, then cut the connection mid-request.
      req.once('data', () => req.socket.destroy());
      req.once('end', () => req.socket.destroy());
      return;
    }
    if (kind === '500' || kind === 'slowdown' || kind === '403') {
      faults[kind] += 1;
      req.resume();
      if (kind === '500') xmlError(res, 500, 'InternalError', 'injected fault');
      else if (kind === '403') xmlError(res, 403, 'AccessDenied', 'Access Denied');
      else xmlError(res, 503, 'SlowDown', 'Please reduce your request rate.');
      entry.status = res.statusCode;
      return;
    }
    const query = new URL(req.url, 'http://x').searchParams;
    if (op === 'AbortMultipartUpload') {
      req.resume();
      uploads.delete(query.get('uploadId'));
      entry.status = 204;
      res.writeHead(204).end();
      return;
    }
    if (op === 'ListMultipartUploads') {
      req.resume();
      const prefix = query.get('prefix') ?? '';
      const keyPrefix = path.split('/').slice(2).join('/');
      const items = [...uploads]
        .filter(([, key]) => key.startsWith(keyPrefix + prefix))
        .map(([id, key]) => `<Upload><Key>${key}</Key><UploadId>${id}</UploadId></Upload>`)
        .join('');
      entry.status = 200;
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${bucket}</Bucket>${items}<IsTruncated>false</IsTruncated></ListMultipartUploadsResult>`,
        );
      return;
    }
    const ifNoneMatch = req.headers['if-none-match'];
    const ifMatch = req.headers['if-match'];
    if (
      conditionalWrites &&
      op === 'PutObject' &&
      (ifNoneMatch !== undefined || ifMatch !== undefined)
    ) {
      const before = busy.get(path) ?? Promise.resolve();
      let release;
      const mine = new Promise((r) => (release = r));
      busy.set(
        path,
        before.then(() => mine),
      );
      await before;
      try {
        const chunks = [];
        for await (const c of req) chunks.push(c);
        const current = await head(path);
        if (ifNoneMatch === '*' && current !== undefined) {
          entry.status = 412;
          xmlError(
            res,
            412,
            'PreconditionFailed',
            'At least one of the pre-conditions you specified did not hold',
          );
          return;
        }
        if (ifMatch !== undefined && current === undefined) {
          entry.status = 404;
          xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
          return;
        }
        if (ifMatch !== undefined && current !== ifMatch) {
          entry.status = 412;
          xmlError(
            res,
            412,
            'PreconditionFailed',
            'At least one of the pre-conditions you specified did not hold',
          );
          return;
        }
        entry.status = (await pass(req, res, Buffer.concat(chunks))).status;
      } finally {
        release();
      }
      return;
    }
    const answer = await pass(req, res);
    entry.status = answer.status;
    if (op === 'CreateMultipartUpload' && answer.status === 200) {
      const id = /<UploadId>([^<]+)<\/UploadId>/.exec(answer.text)?.[1];
      if (id !== undefined) uploads.set(id, path.split('/').slice(2).join('/'));
    }
    if (op === 'CompleteMultipartUpload' && answer.status === 200) {
      uploads.delete(query.get('uploadId'));
    }
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${proxy.address().port}`;
  return {
    url,
    direct,
    bucket,
    directory,
    log,
    faults,
    /** Uploads created and neither completed nor aborted: key by upload id. */
    uploads,
    env: { ...S3_CREDENTIALS, AWS_ENDPOINT_URL_S3: url, AWS_REGION: 'us-east-1' },
    setFault(next) {
      fault = next;
    },
    setConditionalWrites(honoured) {
      conditionalWrites = honoured;
    },
    async close() {
      proxy.closeAllConnections?.();
      await new Promise((r) => proxy.close(() => r()));
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
