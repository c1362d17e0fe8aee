/** A /ui/ path no page answers: said plainly, with the way back. */
import { Link } from '../router.tsx';

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        The console has no page at <code>{window.location.pathname}</code>.{' '}
        <Link to="/packages">Go to the packages</Link>.
      </p>
    </section>
  );
}
