/**
 * The console: starts the session (how this Bosun signs callers in), shows the sign-in form
 * until the caller is in, then the page the path names inside the layout.
 */
import { useEffect, useState } from 'preact/hooks';
import { onSessionChange, sessionState, startSession } from './api/session.ts';
import { Layout } from './components/layout.tsx';
import { ProblemBox } from './components/problem-box.tsx';
import { HOME, NOT_FOUND, ROUTES } from './pages/routes.ts';
import { SignInPage } from './pages/sign-in.tsx';
import { matchPath, navigate, usePath } from './router.tsx';

function useSession() {
  const [state, setState] = useState(sessionState);
  useEffect(() => {
    const off = onSessionChange(() => setState(sessionState()));
    void startSession();
    return off;
  }, []);
  return state;
}

export function App() {
  const session = useSession();
  const path = usePath();
  useEffect(() => {
    if (path === '/') navigate(HOME, { replace: true });
  }, [path]);

  if (session.status === 'loading') return <p class="muted">Loading…</p>;
  if (session.status === 'failed') {
    return (
      <main id="main">
        <h1>Bosun</h1>
        <ProblemBox error={session.problem} />
      </main>
    );
  }
  if (session.status === 'signed-out') return <SignInPage reason={session.reason} />;

  let page = <NOT_FOUND params={{}} />;
  for (const route of ROUTES) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    page =
      route.admin && !session.admin ? (
        <p class="notice">This page needs the administrator scope ({session.settings.adminScope}).</p>
      ) : (
        <route.page params={params} />
      );
    break;
  }
  return (
    <Layout session={session} path={path}>
      {page}
    </Layout>
  );
}
