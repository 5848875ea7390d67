import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';

import { createQueryClient } from '@/app/provider';
import { appRoutes } from '@/app/router';

/** Renders the whole app at `url` with a fresh query client. */
export function renderApp(url: string) {
  const router = createMemoryRouter(appRoutes(), { initialEntries: [url] });
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  const view = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router };
}

export function renderWithProviders(element: ReactElement, url = '/') {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [url] });
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

type Handler = (url: URL, init: RequestInit | undefined) => { status?: number; body: unknown } | undefined;

/** A fetch that answers API calls from `handler` (envelope added), and 404 otherwise. */
export function stubApi(handler: Handler) {
  const calls: { url: URL; init: RequestInit | undefined }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push({ url, init });
    const answer = handler(url, init);
    if (!answer) {
      return new Response(JSON.stringify({ status: 'NOT_FOUND', data: { message: 'Route not found' } }), { status: 404 });
    }
    const status = answer.status ?? 200;
    const body = status < 400 ? { status: 'OK', data: answer.body } : answer.body;
    return new Response(JSON.stringify(body), { status });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** Replaces the browser clipboard with a spy; returns its `writeText`. */
export function stubClipboard() {
  const writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}
