// The one way the app talks to the API: same origin, `/api/v1`, the
// {"status": "OK", "data": …} envelope unwrapped, and the error messages of SPEC §8.

import type { paths } from './api-schema';
import { getApiKey } from './auth-storage';

export const API_BASE = '/api/v1';

export const NETWORK_ERROR_MESSAGE = 'Unable to connect to the API server. Please try again later.';
export const UNKNOWN_ERROR_MESSAGE = 'Unknown error';
export const requestFailedMessage = (detail: string) => `API request failed with error: ${detail}`;

/** A failed call. `message` is the §8 message; the rest helps the screens explain it. */
export class ApiClientError extends Error {
  readonly httpStatus: number | null;
  readonly code: string | null;
  readonly serverMessage: string | null;

  constructor(
    message: string,
    details: { httpStatus?: number | null; code?: string | null; serverMessage?: string | null } = {},
  ) {
    super(message);
    this.name = 'ApiClientError';
    this.httpStatus = details.httpStatus ?? null;
    this.code = details.code ?? null;
    this.serverMessage = details.serverMessage ?? null;
  }

  /** The server has no such route yet: the screen shows an honest empty state. */
  get isNotAvailable(): boolean {
    return this.httpStatus === 404 && this.serverMessage === 'Route not found';
  }

  get isUnauthorized(): boolean {
    return this.httpStatus === 401;
  }

  /** What a person reads: the server's own message when there is one. */
  get displayMessage(): string {
    return this.serverMessage ?? this.message;
  }
}

type Query = Record<string, string | number | boolean | readonly (string | number)[] | null | undefined>;

/** The message to show for a failed request or action. */
export const errorText = (error: unknown): string =>
  error instanceof ApiClientError ? error.displayMessage : error instanceof Error ? error.message : UNKNOWN_ERROR_MESSAGE;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** A key to send instead of the stored one (checking a key before storing it). */
  apiKey?: string;
};

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((item) => params.append(key, String(item)));
    else params.set(key, String(value));
  }
  const text = params.toString();
  return `${API_BASE}${path}${text ? `?${text}` : ''}`;
}

function headers(hasBody: boolean, override?: string): Record<string, string> {
  // Marks the request as the app's own: the server refuses cookie-authenticated writes
  // without it (a cross-site page cannot add it), which is the CSRF protection.
  const result: Record<string, string> = { Accept: 'application/json', 'X-Podlens-Client': 'web' };
  if (hasBody) result['Content-Type'] = 'application/json';
  const apiKey = override ?? getApiKey();
  if (apiKey) result.Authorization = apiKey;
  return result;
}

type Envelope = { status?: unknown; data?: unknown };

function parseEnvelope(text: string): Envelope | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Envelope) : null;
  } catch {
    return null;
  }
}

function messageOf(envelope: Envelope | null): string | null {
  const data = envelope?.data;
  if (data && typeof data === 'object') {
    const record = data as { message?: unknown; error?: unknown };
    if (typeof record.message === 'string') return record.message;
    if (typeof record.error === 'string') return record.error;
  }
  return null;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const hasBody = options.body !== undefined;
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers: headers(hasBody, options.apiKey),
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiClientError(NETWORK_ERROR_MESSAGE);
  }
}

/**
 * A JSON call: resolves to the envelope's `data`. A non-OK answer rejects with
 * 'API request failed with error: {body}'.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  const text = await response.text();
  const envelope = parseEnvelope(text);
  if (!response.ok || envelope === null || envelope.status !== 'OK') {
    throw new ApiClientError(requestFailedMessage(text), {
      httpStatus: response.status,
      code: typeof envelope?.status === 'string' ? envelope.status : null,
      serverMessage: messageOf(envelope),
    });
  }
  return envelope.data as T;
}

export type SearchOutcome<T> = { success: true; data: T } | { success: false; error: string; httpStatus: number | null };

/**
 * A search call: never throws. A failure carries the server's data.message or
 * data.error, else 'API request failed with error: {status text}'; a network failure
 * the connection message; anything else its own message or 'Unknown error'.
 */
export async function searchRequest<T>(path: string, body: unknown, signal?: AbortSignal): Promise<SearchOutcome<T>> {
  try {
    const response = await send(path, { method: 'POST', body, signal });
    const text = await response.text();
    const envelope = parseEnvelope(text);
    if (!response.ok || envelope?.status !== 'OK') {
      return {
        success: false,
        error: messageOf(envelope) ?? requestFailedMessage(response.statusText),
        httpStatus: response.status,
      };
    }
    return { success: true, data: envelope.data as T };
  } catch (error) {
    if (error instanceof ApiClientError) return { success: false, error: error.message, httpStatus: null };
    const message = error instanceof Error && error.message ? error.message : UNKNOWN_ERROR_MESSAGE;
    return { success: false, error: message, httpStatus: null };
  }
}

/** Exports and downloads: the body is a file; a failure reports the status text. */
export async function downloadRequest(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(path, options);
  if (!response.ok) {
    throw new ApiClientError(requestFailedMessage(response.statusText), { httpStatus: response.status });
  }
  return response.blob();
}

// ---- Calls typed by the server's OpenAPI document (src/lib/api-schema.d.ts) ----

/** The document's routes, keyed without the `/api/v1` prefix. */
type Routes = { [P in keyof paths as P extends `${typeof API_BASE}${infer R}` ? R : never]: paths[P] };
export type Route = keyof Routes;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The routes that have an operation for `M`. */
export type RouteFor<M extends Method> = {
  [R in Route]: [NonNullable<Routes[R][M]>] extends [never] ? never : R;
}[Route];

type OperationOf<M extends Method, R extends RouteFor<M>> = NonNullable<Routes[R][M]>;

/** The `data` of the operation's 200 answer. */
export type ResponseData<M extends Method, R extends RouteFor<M>> =
  OperationOf<M, R> extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

/** The operation's JSON request body. */
export type RequestBody<M extends Method, R extends RouteFor<M>> =
  OperationOf<M, R> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

type OperationParameters<M extends Method, R extends RouteFor<M>> =
  OperationOf<M, R> extends { parameters: infer P } ? P : never;
type PathParameters<M extends Method, R extends RouteFor<M>> = OperationParameters<M, R> extends { path?: infer X } ? X : never;
type QueryParameters<M extends Method, R extends RouteFor<M>> = OperationParameters<M, R> extends { query?: infer X } ? X : never;

export type CallOptions<M extends Method, R extends RouteFor<M>> = ([NonNullable<PathParameters<M, R>>] extends [never]
  ? { path?: undefined }
  : { path: NonNullable<PathParameters<M, R>> }) & {
  query?: QueryParameters<M, R>;
  body?: RequestBody<M, R>;
  signal?: AbortSignal;
  apiKey?: string;
};

/** `/podcasts/{podcastIdOrSlug}` with the parameters filled in (each encoded). */
export function fillPath(route: string, values: Record<string, string | number> | undefined): string {
  return route.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values?.[name];
    if (value === undefined) throw new Error(`${route}: no value for ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** A JSON call to one operation of the document: its parameters, body and answer typed. */
export function call<M extends Method, R extends RouteFor<M>>(
  method: M,
  route: R,
  ...[options]: {} extends CallOptions<M, R> ? [CallOptions<M, R>?] : [CallOptions<M, R>]
): Promise<ResponseData<M, R>> {
  const { path, query, body, signal, apiKey } = (options ?? {}) as {
    path?: Record<string, string | number>;
    query?: Query;
    body?: unknown;
    signal?: AbortSignal;
    apiKey?: string;
  };
  return apiRequest<ResponseData<M, R>>(fillPath(route, path), {
    method: method.toUpperCase() as RequestOptions['method'],
    query,
    body,
    signal,
    apiKey,
  });
}
