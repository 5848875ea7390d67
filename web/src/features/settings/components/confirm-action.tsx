import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

import { ApiClientError } from '@/lib/api-client';

type Props = {
  /** The button that opens the confirmation, e.g. "Delete". */
  label: string;
  /** The accessible name of that button and of the confirmation group, e.g. "the Weekly recap prompt". */
  subject: string;
  question: string;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel?: () => void;
};

/** A destructive action behind a confirmation in place: nothing is sent until the second button. */
export function ConfirmAction({ label, subject, question, confirmLabel, pending, error, onConfirm, onCancel }: Props) {
  const [confirming, setConfirming] = useState(false);
  const openRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  useEffect(() => {
    // Into the confirmation on the safe choice; back to the opening button when it closes.
    if (confirming) cancelRef.current?.focus();
    else if (wasConfirming.current) openRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  const cancel = () => {
    setConfirming(false);
    onCancel?.();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !pending) {
      event.preventDefault();
      cancel();
    }
  };
  if (!confirming) {
    return (
      <button ref={openRef} type="button" className="button button-ghost button-small" aria-label={`${label} ${subject}`} onClick={() => setConfirming(true)}>
        {label}
      </button>
    );
  }
  return (
    <div role="group" aria-label={`Confirm: ${label.toLowerCase()} ${subject}`} className="revoke-confirm" onKeyDown={onKeyDown}>
      <p>{question}</p>
      <button type="button" className="button button-danger button-small" disabled={pending} onClick={onConfirm}>
        {pending ? 'Working…' : confirmLabel}
      </button>{' '}
      <button ref={cancelRef} type="button" className="button button-secondary button-small" disabled={pending} onClick={cancel}>
        Cancel
      </button>
      {error ? (
        <p className="form-error" role="alert">
          {error instanceof ApiClientError ? error.displayMessage : error instanceof Error ? error.message : 'Unknown error'}
        </p>
      ) : null}
    </div>
  );
}
