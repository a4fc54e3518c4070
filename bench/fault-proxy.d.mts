export declare const FAULT_KINDS: readonly string[];
export declare function prng(seed: number): () => number;
export interface FaultProxy {
  readonly url: string;
  readonly faults: Record<string, number>;
  readonly forwarded: number;
  close(): Promise<void>;
}
export declare function startFaultProxy(options: {
  target: string;
  rate: number;
  seed: number;
  kinds?: string[];
  retryAfter?: number;
}): Promise<FaultProxy>;
