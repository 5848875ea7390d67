import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderApp } from '@/test/render';

// The server's own document (web/openapi.json), served unwrapped as /api/v1/openapi.json.
const openApi = JSON.parse(readFileSync(resolve(process.cwd(), 'openapi.json'), 'utf8')) as {
  info: { title: string; version: string };
  paths: Record<string, Record<string, { tags?: string[]; summary?: string }>>;
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(openApi.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ path, method: method.toUpperCase(), tag: operation.tags?.[0] ?? 'other' })),
);

function serve(status: number, body: unknown) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('the API documentation page', () => {
  it('lists every operation of the OpenAPI document, grouped by tag', async () => {
    const calls = serve(200, openApi);
    renderApp('/api-docs');
    expect(await screen.findByText(new RegExp(`${openApi.info.title} v${openApi.info.version.replace(/\./g, '\\.')}`))).toBeInTheDocument();
    expect(calls).toEqual(['/api/v1/openapi.json']);
    const summaries = document.body.querySelectorAll('ul.endpoints > li');
    expect(summaries).toHaveLength(operations.length);

    const tags = [...new Set(operations.map((operation) => operation.tag))];
    for (const tag of tags) {
      const section = screen.getByRole('region', { name: tag });
      const expected = operations.filter((operation) => operation.tag === tag);
      expect(within(section).getAllByRole('listitem')).toHaveLength(expected.length);
    }
    const outreach = within(screen.getByRole('region', { name: 'outreach' }));
    const generate = outreach.getByText('/api/v1/outreach/generate').closest('summary')!;
    expect(generate).toHaveTextContent('POST');
    expect(generate).toHaveTextContent(openApi.paths['/api/v1/outreach/generate'].post.summary!);
  });

  it("shows the server's message when the document cannot be read", async () => {
    serve(503, { status: 'SERVICE_UNAVAILABLE', data: { message: 'The API description is not available' } });
    renderApp('/api-docs');
    expect(await screen.findByRole('alert')).toHaveTextContent('The API description is not available');
  });
});
