/**
 * The console's own navigation under /ui/ (the server answers every /ui/ path with the page):
 * the path in the address bar is the page shown, so links can be shared and reloaded, and the
 * browser's back button works.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/ui';
const listeners = new Set<() => void>();

/** The path below /ui ('/packages/42'). */
export function currentPath(): string {
  const path = window.location.pathname;
  return path.startsWith(BASE) ? path.slice(BASE.length) || '/' : '/';
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = BASE + to;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const update = () => setPath(currentPath());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return path;
}

/** A link inside the console: a real <a href> (opens in a new tab too), routed here on a plain click. */
export function Link(props: {
  to: string;
  children: ComponentChildren;
  class?: string;
  title?: string;
  'aria-current'?: 'page';
}) {
  const { to, children, ...rest } = props;
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={BASE + to} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}

/** Matches '/packages/:id' against a path; the named segments, or undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return undefined;
  }
  return params;
}
