import type { Plugin } from 'esbuild';

export declare const SDK_VERSION: string;

export interface Region {
  readonly start: string;
  readonly end: string;
  readonly indent: string;
  readonly item: 'const' | 'property';
  readonly names: RegExp;
  readonly wrap: '__lazySchema' | '__lazyValue';
  readonly count: number;
}

export declare const TARGETS: readonly {
  readonly file: RegExp;
  readonly regions: readonly Region[];
}[];

export declare function lazify(
  source: string,
  regions: readonly Region[],
): { text: string; counts: number[] };

export declare const lazySchemas: Plugin;
