/**
 * Sign-in with an OAuth 2.0 client of Bosun (`bosun auth client create`): its id and secret are
 * exchanged for a token at Bosun's token endpoint and kept in memory only.
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, asProblem } from '../api/problem.ts';
import { signIn } from '../api/session.ts';
import { ProblemBox } from '../components/problem-box.tsx';

export function SignInPage(props: { reason?: string }) {
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiProblem | undefined>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(clientId.trim(), secret);
      setSecret('');
    } catch (err) {
      setError(asProblem(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to Bosun</h1>
      <p class="muted">
        Use an OAuth 2.0 client of this Bosun (an administrator creates one with{' '}
        <code>bosun auth client create</code>). You see what its project may see.
      </p>
      {props.reason && <p class="notice">{props.reason}</p>}
      {error && <ProblemBox error={error} />}
      <form onSubmit={submit}>
        <label>
          Client id
          <input
            name="client_id"
            autocomplete="username"
            required
            value={clientId}
            onInput={(e) => setClientId(e.currentTarget.value)}
          />
        </label>
        <label>
          Client secret
          <input
            name="client_secret"
            type="password"
            autocomplete="current-password"
            required
            value={secret}
            onInput={(e) => setSecret(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
