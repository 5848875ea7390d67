import { useEffect, useRef, useState, type FormEvent } from 'react';

import { CopyButton } from '@/components/ui/copy-button';
import { EmptyState, QueryState } from '@/components/ui/states';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format';

import {
  useCreateWebhook,
  useDeleteWebhook,
  useWebhookDeliveries,
  useWebhooks,
  WEBHOOK_EVENTS,
  webhookUrlError,
  type Webhook,
} from '../api/webhooks';
import { ConfirmAction } from './confirm-action';

const eventLabel = (event: string) => WEBHOOK_EVENTS.find((item) => item.value === event)?.label ?? event;

/** The secret of the webhook just added, shown this once; `onDone` forgets it. */
function NewSecret({ webhook, secret, onDone }: { webhook: Webhook; secret: string; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [webhook.webhookId]);
  return (
    <section className="card api-key-created" aria-labelledby="new-webhook-title">
      <h3 id="new-webhook-title" ref={headingRef} tabIndex={-1}>
        Signing secret for {webhook.url}
      </h3>
      <p className="notice">
        <strong>Copy this secret now: you will not see it again.</strong> Check each delivery&apos;s <code>X-Podlens-Signature</code>{' '}
        header with it (an HMAC-SHA256 of <code>&lt;t&gt;.&lt;body&gt;</code>); if it is lost, delete the webhook and add it again.
      </p>
      <div className="api-key-secret">
        <input type="text" readOnly value={secret} aria-label="Signing secret" spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={secret} label="Copy secret" />
      </div>
      <button type="button" className="button button-secondary" onClick={onDone}>
        I have saved the secret
      </button>
    </section>
  );
}

function AddWebhook() {
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(WEBHOOK_EVENTS.map((event) => event.value));
  const [problem, setProblem] = useState<string | null>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const urlError = webhookUrlError(url);
    if (urlError) {
      setProblem(urlError);
      urlRef.current?.focus();
      return;
    }
    if (events.length === 0) {
      setProblem('Choose at least one event.');
      return;
    }
    setProblem(null);
    create.mutate({ url: url.trim(), events }, { onSuccess: () => setUrl('') });
  }
  const forget = () => {
    create.reset();
    urlRef.current?.focus();
  };
  return (
    <>
      <form className="form card" onSubmit={submit} aria-label="Add a webhook" noValidate>
        <label className="field">
          <span>Endpoint URL</span>
          <input
            ref={urlRef}
            type="url"
            inputMode="url"
            placeholder="https://example.com/podlens-events"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'webhook-url-error' : undefined}
          />
        </label>
        <fieldset className="field">
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((item) => (
            <label key={item.value} className="checkbox">
              <input
                type="checkbox"
                checked={events.includes(item.value)}
                onChange={(event) => setEvents(event.target.checked ? [...events, item.value] : events.filter((value) => value !== item.value))}
              />
              {item.label} <span className="muted">({item.description})</span>
            </label>
          ))}
        </fieldset>
        {problem ? (
          <p className="form-error" id="webhook-url-error" role="alert">
            {problem}
          </p>
        ) : null}
        {create.isError ? (
          <p className="form-error" role="alert">
            {errorText(create.error)}
          </p>
        ) : null}
        <div>
          <button type="submit" className="button" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add webhook'}
          </button>
        </div>
      </form>
      {create.data ? <NewSecret webhook={create.data.webhook} secret={create.data.secret} onDone={forget} /> : null}
    </>
  );
}

function DeleteWebhook({ webhook }: { webhook: Webhook }) {
  const remove = useDeleteWebhook();
  return (
    <ConfirmAction
      label="Delete"
      subject={webhook.url}
      question={`Stop sending events to ${webhook.url}?`}
      confirmLabel="Delete webhook"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate(webhook.webhookId)}
      onCancel={() => remove.reset()}
    />
  );
}

/** The latest deliveries to one webhook: status, attempts and the last error. */
function Deliveries({ webhook }: { webhook: Webhook }) {
  const query = useWebhookDeliveries(webhook.webhookId);
  return (
    <QueryState
      query={query}
      feature="Webhook deliveries"
      loadingLabel="Loading deliveries…"
      isEmpty={(data) => data.deliveries.length === 0}
      empty={<EmptyState title="Nothing delivered yet">Deliveries appear here when an alert matches new episodes.</EmptyState>}
    >
      {(data) => (
        <ol className="activity activity-small" aria-label={`Deliveries to ${webhook.url}`}>
          {data.deliveries.map((delivery) => (
            <li key={delivery.deliveryId}>
              <time dateTime={delivery.createdAt}>{formatDate(delivery.createdAt)}</time> {eventLabel(delivery.event)} ·{' '}
              <strong>{delivery.status}</strong> after {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
              {delivery.lastError ? <span className="muted break-anywhere"> · {delivery.lastError}</span> : null}{' '}
              <code className="muted">{delivery.deliveryId}</code>
            </li>
          ))}
        </ol>
      )}
    </QueryState>
  );
}

function WebhookRows({ webhook }: { webhook: Webhook }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr>
        <th scope="row" className="break-anywhere">
          {webhook.url}
        </th>
        <td>{webhook.events.map(eventLabel).join(', ')}</td>
        <td>
          <time dateTime={webhook.createdAt}>{formatDate(webhook.createdAt)}</time>
        </td>
        <td>
          <button type="button" className="button button-ghost button-small" aria-expanded={open} aria-label={`Deliveries to ${webhook.url}`} onClick={() => setOpen(!open)}>
            Deliveries
          </button>{' '}
          <DeleteWebhook webhook={webhook} />
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={4}>
            <Deliveries webhook={webhook} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** Team settings, integrations: webhooks that receive the team's events, signed with a secret shown once. */
export function Integrations() {
  const query = useWebhooks();
  return (
    <div className="stack">
      <p>
        Webhooks post your team&apos;s events as JSON to your own endpoint. Each delivery is signed and carries a delivery id that stays the same when
        it is retried.
      </p>
      <AddWebhook />
      <QueryState
        query={query}
        feature="Integrations"
        loadingLabel="Loading webhooks…"
        isEmpty={(data) => data.webhooks.length === 0}
        empty={<EmptyState title="No webhooks yet">Add an endpoint to receive alert matches as they are found.</EmptyState>}
      >
        {(data) => (
          <div className="table-wrap">
            <table className="table" aria-label="Webhooks">
              <thead>
                <tr>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Events</th>
                  <th scope="col">Added</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.webhooks.map((webhook) => (
                  <WebhookRows key={webhook.webhookId} webhook={webhook} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
    </div>
  );
}
