/**
 * Two files of undici, loaded alone by the in-process mock (in-process.ts):
 * the Dispatcher base class and its request() method, which is what the
 * client's transport calls. Types from undici's own declarations.
 */
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici';
  const DispatcherBase: typeof Dispatcher;
  export default DispatcherBase;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: Dispatcher['request'];
  export default request;
}
