/**
 * An S3-compatible object store as a byte store: objects replaced by a PUT
 * and published by a server-side copy, outputs uploaded whole, the state's
 * lock a lease in the store (lock.ts). Importing this file is cheap: the
 * AWS SDK (under objects.ts and the sinks) loads on the first operation.
 */
import type { ByteStore } from '../destination.js';
import { basenameS3, checkStateUrl, dirnameS3, joinS3, parseObjectUrl, parseS3Url } from './url.js';

const objects = () => import('./objects.js');

export const s3Store: ByteStore = {
  name: 's3',
  appendable: false,
  remote: true,
  join: joinS3,
  dirname: dirnameS3,
  basename: basenameS3,
  isRoot: (path) => parseS3Url(path).key === '',

  async readText(path) {
    return (await (await objects()).getText(path))?.text;
  },

  async writeText(path, text) {
    await (await objects()).putText(path, text);
  },

  async remove(path) {
    await (await objects()).remove(path);
  },

  async exists(path) {
    return (await objects()).exists(path);
  },

  makeFolderFor: async () => undefined,

  async publish(staged, final) {
    return (await objects()).publish(staged, final);
  },

  async removeTree(dir) {
    await (await objects()).removePrefix(dir.endsWith('/') ? dir : `${dir}/`);
  },

  async openSink(path, options = {}) {
    const upload = { onProgress: options.onUploaded };
    if (options.uploadWhole === true) {
      const { S3SpooledSink } = await import('./spooled-upload-sink.js');
      return S3SpooledSink.open(path, upload);
    }
    const { S3UploadSink } = await import('./upload-sink.js');
    return S3UploadSink.open(path, upload);
  },

  async stagingTarget(path) {
    return { root: dirnameS3(path), name: basenameS3(path) };
  },

  async checkOutput(path) {
    // A missing bucket or an unreachable store is found before a point is spent.
    await (await objects()).checkBucket(path);
  },

  async checkWritable(path) {
    parseObjectUrl(path);
  },

  checkStateName(path) {
    checkStateUrl(path);
  },

  async lock(stateFile, now, notice) {
    const { acquireStoreLock } = await import('./lock.js');
    return acquireStoreLock(checkStateUrl(stateFile), now, notice);
  },
};
