import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { useAuth } from '@/features/auth/use-auth';
import { links, paths } from '@/config/paths';

/** Screens of signed-in users: others are asked to sign in first. */
export function RequireUser({ children }: { children: ReactNode }) {
  const { signedIn } = useAuth();
  const location = useLocation();
  if (signedIn) return <>{children}</>;
  return (
    <div className="narrow">
      <PageHeader title="Sign in to continue" lead="This part of Podlens is for signed-in users." />
      <p>
        <Link className="button" to={links.signIn({ source: location.pathname })}>
          Sign in
        </Link>{' '}
        or <Link to={paths.signUp.pattern}>create a free account</Link>.
      </p>
    </div>
  );
}
