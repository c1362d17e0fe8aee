/**
 * The frame of every page: a skip link, the header with the navigation (the route table's
 * entries the caller may use) and who is signed in, then the page.
 */
import type { ComponentChildren } from 'preact';
import { type SessionState, signOut } from '../api/session.ts';
import { ROUTES } from '../pages/routes.ts';
import { Link } from '../router.tsx';

export function Layout(props: {
  session: Extract<SessionState, { status: 'signed-in' }>;
  path: string;
  children: ComponentChildren;
}) {
  const { session, path } = props;
  const entries = ROUTES.filter((r) => r.nav && (!r.admin || session.admin));
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link to="/" class="brand">
          Bosun
        </Link>
        <nav aria-label="Main">
          <ul>
            {entries.map((r) => {
              const here = path === r.path || path.startsWith(`${r.path}/`);
              return (
                <li key={r.path}>
                  <Link to={r.path} aria-current={here ? 'page' : undefined}>
                    {r.nav}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div class="who">
          {session.settings.authMode === 'oauth2' ? (
            <>
              <span title={session.scopes.join(' ')}>
                {session.clientId}
                {session.admin ? ' (admin)' : ''}
              </span>
              <button type="button" onClick={() => signOut()}>
                Sign out
              </button>
            </>
          ) : (
            <span class="muted" title="auth.mode is none: every caller is an administrator">
              no sign-in (admin)
            </span>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </>
  );
}
