import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';

import { ApiClientError } from '@/lib/api-client';
import { setApiKey } from '@/lib/auth-storage';
import { paths } from '@/config/paths';

import { getCurrentUsage } from '../api/get-current-usage';

/** Signs in with an API key created by `podlens keys create`; the key is checked first. */
export function ApiKeySignIn({ redirectTo = paths.dashboard.pattern }: { redirectTo?: string }) {
  const [apiKey, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const key = apiKey.trim();
    if (!key) {
      setError('Paste your API key.');
      return;
    }
    setChecking(true);
    setError(null);
    try {
      await getCurrentUsage(undefined, key);
    } catch (failure) {
      setChecking(false);
      if (failure instanceof ApiClientError && failure.isUnauthorized) {
        setError(failure.displayMessage);
        return;
      }
      // Any other answer (a server without usage reporting, a plan without API access)
      // is not a verdict on the key: the key is kept and the server decides per call.
      if (!(failure instanceof ApiClientError) || failure.httpStatus === null) {
        setError(failure instanceof Error ? failure.message : 'Unknown error');
        return;
      }
    }
    setApiKey(key);
    await queryClient.invalidateQueries();
    navigate(redirectTo);
  }

  return (
    <form className="form card" onSubmit={submit} aria-labelledby="api-key-heading">
      <h2 id="api-key-heading">Sign in with an API key</h2>
      <p className="muted">
        Create a key on the server with <code>podlens keys create --email you@example.com --plan business</code> and
        paste it here. It is kept in this browser only.
      </p>
      <label className="field">
        <span>API key</span>
        <input
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => setKey(event.target.value)}
          name="apiKey"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'api-key-error' : undefined}
        />
      </label>
      {error ? (
        <p id="api-key-error" className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={checking}>
        {checking ? 'Checking…' : 'Sign in'}
      </button>
    </form>
  );
}
