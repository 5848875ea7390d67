import { Link } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/states';
import { paths } from '@/config/paths';

import { useHealth, useOpenApi, type OpenApiDocument, type OpenApiOperation } from '../api/get-openapi';

type Row = { method: string; path: string; operation: OpenApiOperation };

function groupByTag(document: OpenApiDocument): [string, Row[]][] {
  const groups = new Map<string, Row[]>();
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const tag = operation.tags?.[0] ?? 'other';
      groups.set(tag, [...(groups.get(tag) ?? []), { method: method.toUpperCase(), path, operation }]);
    }
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export function ApiDocsPage() {
  const query = useOpenApi();
  return (
    <div>
      <PageHeader
        title="API documentation"
        lead={
          <>
            Every call takes an API key in the <code>Authorization</code> header and answers{' '}
            <code>{'{"status": "OK", "data": …}'}</code>. <Link to={paths.apiStatus.pattern}>API status</Link>
          </>
        }
      />
      <QueryState query={query} feature="The OpenAPI document" loadingLabel="Loading the API description…">
        {(document) => (
          <>
            <p className="muted">
              {document.info?.title} {document.info?.version ? `v${document.info.version}` : ''} ·{' '}
              <a href="/api/v1/openapi.json">openapi.json</a>
            </p>
            {groupByTag(document).map(([tag, rows]) => (
              <Section key={tag} title={tag}>
                <ul className="endpoints">
                  {rows.map((row) => (
                    <li key={`${row.method} ${row.path}`}>
                      <details>
                        <summary>
                          <span className={`method method-${row.method.toLowerCase()}`}>{row.method}</span> <code>{row.path}</code>{' '}
                          <span className="muted">{row.operation.summary ?? row.operation.description?.split('\n')[0] ?? ''}</span>
                        </summary>
                        {row.operation.description ? <p>{row.operation.description}</p> : null}
                        {row.operation.parameters && row.operation.parameters.length > 0 ? (
                          <div className="table-wrap">
                            <table className="table">
                              <thead>
                                <tr>
                                  <th scope="col">Parameter</th>
                                  <th scope="col">In</th>
                                  <th scope="col">Required</th>
                                  <th scope="col">Description</th>
                                </tr>
                              </thead>
                              <tbody>
                                {row.operation.parameters.map((parameter) => (
                                  <tr key={`${parameter.in}-${parameter.name}`}>
                                    <td>
                                      <code>{parameter.name}</code>
                                    </td>
                                    <td>{parameter.in}</td>
                                    <td>{parameter.required ? 'yes' : 'no'}</td>
                                    <td>{parameter.description ?? ''}</td>
                                  </tr>
                                ))}
                              </tbody>
                            </table>
                          </div>
                        ) : null}
                      </details>
                    </li>
                  ))}
                </ul>
              </Section>
            ))}
          </>
        )}
      </QueryState>
    </div>
  );
}

export function ApiStatusPage() {
  const query = useHealth();
  return (
    <div>
      <PageHeader title="API status" lead="Checked every 30 seconds from this page." />
      {query.isPending ? (
        <p role="status">Checking…</p>
      ) : query.isError ? (
        <p className="status status-down" role="status">
          ● The API is not answering: {query.error.message}
        </p>
      ) : (
        <p className="status status-up" role="status">
          ● The API is up{query.data.version ? ` (version ${query.data.version})` : ''}.
        </p>
      )}
    </div>
  );
}
