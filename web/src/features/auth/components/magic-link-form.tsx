import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { ApiClientError } from '@/lib/api-client';
import { links, paths } from '@/config/paths';

import { useRequestMagicLink } from '../api/magic-link';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Asks the server to email a sign-in or sign-up link. */
export function MagicLinkForm({ kind, initialEmail = '', source }: { kind: 'sign-in' | 'sign-up'; initialEmail?: string; source?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const mutation = useRequestMagicLink(kind);
  const navigate = useNavigate();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!EMAIL_PATTERN.test(email.trim())) {
      setError('Enter a valid email address.');
      return;
    }
    setError(null);
    mutation.mutate(
      { email: email.trim(), source },
      {
        onSuccess: () =>
          navigate(
            kind === 'sign-in'
              ? `${paths.signInMagicEmailSent.pattern}?email=${encodeURIComponent(email.trim())}`
              : links.signUpValidationEmailSent({ email: email.trim(), source }),
          ),
        onError: (failure) =>
          setError(
            failure instanceof ApiClientError && failure.isNotAvailable
              ? 'Email links are not available on this server yet. Sign in with an API key instead.'
              : failure instanceof ApiClientError
                ? failure.displayMessage
                : failure.message,
          ),
      },
    );
  }

  const heading = kind === 'sign-in' ? 'Email me a sign-in link' : 'Create your account';
  return (
    <form className="form card" onSubmit={submit} aria-labelledby={`${kind}-heading`} noValidate>
      <h2 id={`${kind}-heading`}>{heading}</h2>
      <label className="field">
        <span>Email</span>
        <input
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          name="email"
          aria-invalid={error ? true : undefined}
        />
      </label>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={mutation.isPending}>
        {mutation.isPending ? 'Sending…' : kind === 'sign-in' ? 'Send link' : 'Sign up'}
      </button>
    </form>
  );
}
