/**
 * What the S3 tests share: the local store (bench/s3-store.mjs: s3rver behind
 * a proxy), and ways to read it back that never go through our own code: the
 * AWS SDK straight to s3rver, and DuckDB over the objects' bytes (its httpfs
 * extension cannot be downloaded here, so the bytes are handed to it as files).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';
import { type S3Store, startS3Store } from '../../bench/s3-store.mjs';
import { type MockServer, type MockServerOptions, startMockServer } from '../../src/mock/server.js';
import { scratchDir } from '../helpers/scratch.js';

export type { S3Store };

/** A mock and the store for a test file: started before its tests, closed after them. */
export function useMockAndStore(
  options: MockServerOptions = {},
  storeOptions: StoreOptions = {},
): {
  readonly mock: MockServer;
  readonly store: S3Store;
  readonly reader: StoreReader;
} {
  const started = {} as { mock: MockServer; store: S3Store; reader: StoreReader };
  beforeAll(async () => {
    started.mock = await startMockServer({ port: 0, quiet: true, ...options });
    Object.assign(started, await startStore(storeOptions));
  });
  afterAll(async () => {
    await started.mock?.close();
    await started.store?.close();
  });
  return started;
}

export type StoreOptions = Parameters<typeof startS3Store>[0];

/** Starts the store and points this process's SDK chain at it (the CLI runs in-process). */
export async function startStore(
  options: StoreOptions = {},
): Promise<{ store: S3Store; reader: StoreReader }> {
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] = 'true';
  const store = await startS3Store(options);
  Object.assign(process.env, store.env);
  return { store, reader: new StoreReader(store) };
}

export class StoreReader {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(store: S3Store) {
    this.bucket = store.bucket;
    // Straight to s3rver: the proxy's faults and bookkeeping stay out of the checks.
    this.client = new S3Client({
      endpoint: store.direct,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
  }

  async keys(prefix = ''): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key !== undefined) out.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return out.sort();
  }

  async bytes(key: string): Promise<Buffer> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch {
      return false;
    }
  }

  async put(key: string, body: string | Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }));
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async move(from: string, to: string): Promise<void> {
    await this.put(to, await this.bytes(from));
    await this.remove(from);
  }

  /**
   * Copies the objects under `prefix` that end in `.parquet` into a local
   * folder, keeping their keys as paths (DuckDB then reads the hive layout),
   * and runs `sql` with `{files}` replaced by the glob over them.
   */
  async duck(prefix: string, sql: string): Promise<unknown[][]> {
    const dir = scratchDir('news-s3-read-');
    const { mkdirSync } = await import('node:fs');
    for (const key of await this.keys(prefix)) {
      const path = join(dir, key);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, await this.bytes(key));
    }
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    try {
      const glob = `${join(dir, prefix)}**/*.parquet`;
      return (await con.runAndReadAll(sql.replaceAll('{files}', glob))).getRows();
    } finally {
      con.closeSync();
    }
  }
}
