/**
 * The destination registry (src/output/destinations/registry.ts): the one
 * place that reads a name's scheme. A new destination adds its case here.
 */
import { describe, expect, it } from 'vitest';
import {
  describeDestination,
  resolveDestination,
  storeOf,
} from '../../src/output/destinations/registry.js';

function storeName(name: string): string | undefined {
  const destination = resolveDestination(name);
  return destination.kind === 'store' ? destination.store.name : undefined;
}

describe('resolveDestination', () => {
  it('reads no -o, and -, as standard output', () => {
    expect(resolveDestination(undefined).kind).toBe('stdout');
    expect(resolveDestination('-').kind).toBe('stdout');
  });

  it.each([
    ['out.jsonl', 'file'],
    ['/tmp/data/{date}.parquet', 'file'],
    ['s3://bucket/prefix/x.csv', 's3'],
    ['S3://Bucket/x.csv', 's3'],
  ])('%s is in the %s store', (name, store) => {
    expect(storeName(name)).toBe(store);
  });

  it.each([
    ['postgres://u:secret@db.example:5432/news', 'postgres'],
    ['postgresql://u@localhost/news', 'postgres'],
    ['duckdb:news.duckdb', 'duckdb'],
    ['duckdb:///tmp/news.duckdb', 'duckdb'],
  ])('%s is a %s database', (name, engine) => {
    const destination = resolveDestination(name);
    expect(destination.kind).toBe('database');
    if (destination.kind === 'database') expect(destination.url.engine).toBe(engine);
  });

  it('shows a database without its password, and anything else as given', () => {
    const shown = describeDestination('postgres://u:secret@db.example:5432/news');
    expect(shown).not.toContain('secret');
    expect(shown).toContain('db.example');
    expect(describeDestination('s3://bucket/x.csv')).toBe('s3://bucket/x.csv');
  });

  it('refuses a database where a file is needed (a state file, a checkpoint), naming no password', () => {
    expect(() => storeOf('postgres://u:secret@h/db')).toThrow(/is a database/);
    expect(() => storeOf('postgres://u:secret@h/db')).not.toThrow(/secret/);
    expect(storeOf('state.json').name).toBe('file');
  });
});
