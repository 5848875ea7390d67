import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

import { CopyButton } from '@/components/ui/copy-button';
import { EmptyState, QueryState } from '@/components/ui/states';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format';

import { useApiKeys, useCreateApiKey, useRevokeApiKey, type ApiKeySummary, type CreateApiKeyResponse } from '../api/api-keys';

/** How a key is named on screen: its prefix, never the key. */
export const shownPrefix = (prefix: string) => `${prefix}…`;

/** The key just created, shown this once; `onDone` forgets it. */
function NewApiKey({ created, onDone }: { created: CreateApiKeyResponse; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [created.keyId]);
  return (
    <section className="card api-key-created" aria-labelledby="new-api-key-title">
      <h3 id="new-api-key-title" ref={headingRef} tabIndex={-1}>
        Your new API key
      </h3>
      <p className="notice">
        <strong>Copy this key now: you will not see it again.</strong> Podlens keeps only a hash of it; if it is lost, revoke it
        and create another.
      </p>
      <div className="api-key-secret">
        <input
          type="text"
          readOnly
          value={created.apiKey}
          aria-label="New API key"
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={created.apiKey} label="Copy key" />
      </div>
      <p className="muted">
        Send it in the <code>Authorization</code> header of each request.
      </p>
      <button type="button" className="button button-secondary" onClick={onDone}>
        I have saved the key
      </button>
    </section>
  );
}

/** Revoke, then a confirmation in place: nothing is sent until "Revoke key". */
function RevokeKey({ apiKey }: { apiKey: ApiKeySummary }) {
  const revoke = useRevokeApiKey();
  const [confirming, setConfirming] = useState(false);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const doneRef = useRef<HTMLSpanElement>(null);
  const name = shownPrefix(apiKey.prefix);

  const wasConfirming = useRef(false);
  useEffect(() => {
    // Into the confirmation on the safe choice; back to the row's button when it closes.
    if (confirming) cancelRef.current?.focus();
    else if (wasConfirming.current) revokeRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  useEffect(() => {
    if (revoke.isSuccess) doneRef.current?.focus();
  }, [revoke.isSuccess]);

  const cancel = () => {
    setConfirming(false);
    revoke.reset();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !revoke.isPending) {
      event.preventDefault();
      cancel();
    }
  };

  if (revoke.isSuccess) {
    return (
      <span role="status" tabIndex={-1} ref={doneRef}>
        Revoked
      </span>
    );
  }
  if (!confirming) {
    return (
      <button ref={revokeRef} type="button" className="button button-ghost button-small" aria-label={`Revoke ${name}`} onClick={() => setConfirming(true)}>
        Revoke
      </button>
    );
  }
  return (
    <div role="group" aria-label={`Confirm revoking ${name}`} className="revoke-confirm" onKeyDown={onKeyDown}>
      <p>Revoke {name}? Tools using it stop working at once; this cannot be undone.</p>
      <button type="button" className="button button-danger button-small" disabled={revoke.isPending} onClick={() => revoke.mutate(apiKey.keyId)}>
        {revoke.isPending ? 'Revoking…' : 'Revoke key'}
      </button>{' '}
      <button ref={cancelRef} type="button" className="button button-secondary button-small" disabled={revoke.isPending} onClick={cancel}>
        Cancel
      </button>
      {revoke.isError ? (
        <p className="form-error" role="alert">
          {errorText(revoke.error)}
        </p>
      ) : null}
    </div>
  );
}

function ApiKeyTable({ apiKeys }: { apiKeys: ApiKeySummary[] }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Created by</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {apiKeys.map((apiKey) => (
            <tr key={apiKey.keyId}>
              <th scope="row">
                <code>{shownPrefix(apiKey.prefix)}</code>
              </th>
              <td>
                <time dateTime={apiKey.createdAt}>{formatDate(apiKey.createdAt)}</time>
              </td>
              <td>{apiKey.createdBy}</td>
              <td>
                {apiKey.revokedAt ? (
                  <span className="tag tag-warn">
                    Revoked <time dateTime={apiKey.revokedAt}>{formatDate(apiKey.revokedAt)}</time>
                  </span>
                ) : (
                  <span className="tag">Active</span>
                )}
              </td>
              <td>{apiKey.revokedAt ? null : <RevokeKey apiKey={apiKey} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The team's API keys: the list, creating one (shown once) and revoking. */
export function ApiKeys() {
  const query = useApiKeys();
  const create = useCreateApiKey();
  const createRef = useRef<HTMLButtonElement>(null);
  const forgetNewKey = () => {
    create.reset();
    createRef.current?.focus();
  };
  return (
    <div className="stack">
      <div className="toolbar">
        <button ref={createRef} type="button" className="button" disabled={create.isPending} onClick={() => create.mutate()}>
          {create.isPending ? 'Creating…' : 'Create API key'}
        </button>
      </div>
      {create.isError ? (
        <p className="form-error" role="alert">
          {errorText(create.error)}
        </p>
      ) : null}
      {create.data ? <NewApiKey created={create.data} onDone={forgetNewKey} /> : null}
      <QueryState
        query={query}
        feature="API keys"
        loadingLabel="Loading API keys…"
        isEmpty={(data) => data.apiKeys.length === 0}
        empty={<EmptyState title="No API keys yet">Create one to call the Podlens API from your own tools.</EmptyState>}
      >
        {(data) => <ApiKeyTable apiKeys={data.apiKeys} />}
      </QueryState>
    </div>
  );
}
