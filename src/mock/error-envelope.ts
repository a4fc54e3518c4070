import type { ApiErrorEnvelope } from '../api/errors.js';

/** Raised anywhere in the mock to answer with the specification's error envelope. */
export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    /** The 402/404 directory answers carry fewer fields; see the spec's Errors section. */
    readonly shape: 'full' | 'short' = 'full',
  ) {
    super(message);
  }
}

export function errorEnvelope(
  error: MockHttpError,
  requestId: string,
  now: Date,
): ApiErrorEnvelope {
  const detail =
    error.shape === 'short'
      ? {
          status: error.status,
          ...(error.code ? { code: error.code } : {}),
          message: error.message,
        }
      : {
          status: error.status,
          ...(error.code ? { code: error.code } : {}),
          message: error.message,
          links: {
            about: `https://docs.apitube.io/platform/news-api/errors${error.code ? `#${error.code}` : ''}`,
          },
          timestamp: now.toISOString(),
        };
  return { status: 'not_ok', request_id: requestId, errors: [detail] };
}
