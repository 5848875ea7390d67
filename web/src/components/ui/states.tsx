import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { ApiClientError } from '@/lib/api-client';

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children ? <div className="state-body">{children}</div> : null}
    </div>
  );
}

/** What a screen shows when the server it talks to does not offer the feature yet. */
export function NotAvailable({ feature }: { feature: string }) {
  return (
    <EmptyState title={`${feature} is not available on this server yet`}>
      <p>This Podlens server does not provide this feature yet. Nothing is shown rather than made-up data.</p>
    </EmptyState>
  );
}

/** What a page shows for something that does not exist: what was asked for, and where to
 * go on from there (search, the directory, the home page). Not an error to retry. */
export function NotFoundState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty state-not-found">
      <p className="state-title">{title}</p>
      {children ? <div className="state-body">{children}</div> : null}
      <nav aria-label="Where to go from here" className="toolbar">
        <Link className="button" to={paths.home.pattern}>
          Search podcasts
        </Link>
        <Link className="button button-secondary" to={paths.directory.pattern}>
          Browse the directory
        </Link>
      </nav>
    </div>
  );
}

/** Whether a query failed because what it asked for does not exist (a 404 of a route the
 * server has, as opposed to a feature it does not offer). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiClientError && error.httpStatus === 404 && !error.isNotAvailable;
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message =
    error instanceof ApiClientError ? error.displayMessage : error instanceof Error ? error.message : 'Unknown error';
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">Something went wrong</p>
      <p>{message}</p>
      {onRetry ? (
        <button type="button" className="button button-secondary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

type QueryStateProps<T> = {
  query: UseQueryResult<T>;
  /** Names the feature in the "not available on this server yet" state. */
  feature: string;
  loadingLabel?: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** Shown instead of an error when the server says the thing asked for does not exist. */
  notFound?: ReactNode;
  children: (data: T) => ReactNode;
};

/** Loading, error, not-available and empty states around one query. */
export function QueryState<T>({ query, feature, loadingLabel, isEmpty, empty, notFound, children }: QueryStateProps<T>) {
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError) {
    if (query.error instanceof ApiClientError && query.error.isNotAvailable) return <NotAvailable feature={feature} />;
    if (notFound !== undefined && isNotFound(query.error)) return <>{notFound}</>;
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (isEmpty?.(query.data)) return <>{empty ?? <EmptyState title="Nothing here yet" />}</>;
  return <>{children(query.data)}</>;
}
