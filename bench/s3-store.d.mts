import type { IncomingMessage } from 'node:http';
export declare const S3_CREDENTIALS: { AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string };
export type FaultKind = '500' | 'slowdown' | 'reset' | '403';
export type FaultChooser = (op: string, req: IncomingMessage) => FaultKind | undefined;
export declare function operationOf(
  method: string,
  url: string,
  headers?: Record<string, unknown>,
): string;
export interface S3Store {
  readonly url: string;
  readonly direct: string;
  readonly bucket: string;
  readonly directory: string;
  readonly log: { op: string; method: string; path: string; status: number }[];
  readonly faults: Record<FaultKind, number>;
  readonly uploads: Map<string, string>;
  readonly env: Record<string, string>;
  setFault(fault: FaultChooser | undefined): void;
  /** false: conditional PUTs pass through to s3rver, which ignores their condition. */
  setConditionalWrites(honoured: boolean): void;
  close(): Promise<void>;
}
export declare function startS3Store(options?: {
  bucket?: string;
  /** Default true; false answers conditional PUTs as s3rver alone does (200, written). */
  conditionalWrites?: boolean;
  fault?: FaultChooser;
}): Promise<S3Store>;
