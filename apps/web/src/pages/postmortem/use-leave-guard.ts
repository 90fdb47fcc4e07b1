import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * While `active`, leaving the page asks first: closing or reloading the tab (the browser's own
 * question) and following a link inside the console (`question`). Without it, a click on the bar drops
 * an hour of writing without a word.
 */
export function useLeaveGuard(active: boolean, question: string): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
  // Another query string on the same page (a filter) leaves nothing behind.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(question)) blocker.proceed();
    else blocker.reset();
  }, [blocker, question]);
}
