/**
 * The sink of an export with an end, for a destination named by `-o`: the
 * byte store the name is in opens it (a local file written atomically, an
 * object uploaded whole; output/destinations/).
 */
import type { StoreSinkOptions } from './destinations/destination.js';
import { storeOf } from './destinations/registry.js';
import type { Sink } from './sink.js';

export type FileSinkOptions = StoreSinkOptions;

export function openFileSink(destination: string, options: FileSinkOptions = {}): Promise<Sink> {
  return storeOf(destination).openSink(destination, options);
}
