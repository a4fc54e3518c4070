/**
 * The output layer's public face: the CLI imports only from here. Importing
 * this module loads no format library: every writer (exceljs,
 * hyparquet-writer, fast-xml-parser) is loaded with
 * import() when its format is chosen, keeping `news --help` fast.
 */
export type { ApiRecord, FormatName, RecordKind } from './types.js';
export { FORMAT_NAMES, formatFromPath, isBinaryFormat } from './formats.js';
export { exportRecords } from './export.js';
export type { ExportOptions, ExportResult } from './export.js';
export { RecordSource, readRecords } from './record-source.js';
export type { ChunkReader } from './record-source.js';
export { fileChunks } from './parallel/file-chunks.js';
export { gunzipIfCompressed } from './gunzip-input.js';
export { LIVE_FORMATS, checkLiveExport, isLiveOutput, openLiveExport } from './live-export.js';
export type { LiveExport, LiveExportOptions } from './live-export.js';
