import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';

import { PageHeader } from '@/components/ui/page-header';
import { Spinner, ErrorState } from '@/components/ui/states';
import { getSessionEmail, setApiKey, setSessionEmail } from '@/lib/auth-storage';
import { links, paths, SIGNED_OUT_MESSAGE } from '@/config/paths';

import { acceptTeamInvitation, redeemSignInLink, redeemSignUpLink, signOutSession, type SessionInfo } from '../api/magic-link';
import { ApiKeySignIn } from './api-key-sign-in';
import { MagicLinkForm } from './magic-link-form';

export function SignInPage() {
  const [params] = useSearchParams();
  const message = params.get('message');
  return (
    <div className="narrow">
      <PageHeader title="Sign in" />
      {message ? (
        <p className="notice" role="status">
          {message}
        </p>
      ) : null}
      <div className="stack">
        <ApiKeySignIn />
        <MagicLinkForm kind="sign-in" initialEmail={params.get('email') ?? ''} source={params.get('source') ?? undefined} />
        <p>
          New here? <Link to={paths.signUp.pattern}>Create an account</Link>
        </p>
      </div>
    </div>
  );
}

export function SignUpPage() {
  const [params] = useSearchParams();
  return (
    <div className="narrow">
      <PageHeader title="Create your account" lead="Free plan: basic podcast search and alerts, no card needed." />
      <div className="stack">
        <MagicLinkForm kind="sign-up" initialEmail={params.get('email') ?? ''} source={params.get('source') ?? undefined} />
        <p>
          Already have an account or an API key? <Link to={paths.signIn.pattern}>Sign in</Link>
        </p>
      </div>
    </div>
  );
}

function EmailSent({ title, what }: { title: string; what: string }) {
  const [params] = useSearchParams();
  const email = params.get('email');
  return (
    <div className="narrow">
      <PageHeader title={title} />
      <div className="card">
        <p>
          We sent {what} to <strong>{email ?? 'your email address'}</strong>. Open the link in that email on this
          device to continue. The link can be used once and expires.
        </p>
        <p className="muted">
          Nothing arrived? Check your spam folder, or <Link to={paths.signIn.pattern}>try again</Link>.
        </p>
      </div>
    </div>
  );
}

export function MagicEmailSentPage() {
  return <EmailSent title="Check your email" what="a sign-in link" />;
}

export function ValidationEmailSentPage() {
  return <EmailSent title="Check your email" what="a link to validate your email address" />;
}

/** Redeems a magic link (`?key=`) once and signs the browser in. */
function RedeemLink({ title, redeem, next }: { title: string; redeem: (key: string) => Promise<SessionInfo>; next: string }) {
  const [params] = useSearchParams();
  const key = params.get('key');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!key || started.current) return;
    started.current = true;
    redeem(key)
      .then(async (result) => {
        setApiKey(null);
        setSessionEmail(result.email);
        await queryClient.invalidateQueries();
        navigate(next, { replace: true });
      })
      .catch(setError);
  }, [key, redeem, next, navigate, queryClient]);

  return (
    <div className="narrow">
      <PageHeader title={title} />
      {!key ? (
        <ErrorState error={new Error('This link is incomplete: it has no key. Request a new one.')} />
      ) : error ? (
        <>
          <ErrorState error={error} />
          <p>
            <Link to={paths.signIn.pattern}>Request a new link</Link>
          </p>
        </>
      ) : (
        <Spinner label="Checking your link…" />
      )}
    </div>
  );
}

export function EmailLinkPage() {
  return <RedeemLink title="Signing you in" redeem={redeemSignInLink} next={paths.dashboard.pattern} />;
}

/** A team invitation's link: joins the team, signs in and opens the app. */
export function TeamInvitePage() {
  return <RedeemLink title="Joining the team" redeem={acceptTeamInvitation} next={paths.dashboard.pattern} />;
}

export function ValidatePage() {
  return <RedeemLink title="Validating your email" redeem={redeemSignUpLink} next={paths.onboarding.pattern} />;
}

/** Forgets the key and goes to /sign-in with 'You have been signed out'. */
export function SignOutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const hadSession = getSessionEmail() !== null;
    setApiKey(null);
    setSessionEmail(null);
    queryClient.clear();
    const done = () => navigate(links.signIn({ message: SIGNED_OUT_MESSAGE }), { replace: true });
    // The cookie is HttpOnly: only the server can end the session.
    if (hadSession) signOutSession().catch(() => undefined).finally(done);
    else done();
  }, [navigate, queryClient]);
  return <Spinner label="Signing out…" />;
}
