/* eslint-disable react-hooks/refs -- the kept pages are a cache that lives across renders and is
   read while rendering on purpose: it must not cause renders of its own (a state would). */
import { type ReactNode, useEffect, useLayoutEffect, useRef } from 'react';
import {
  type Location,
  UNSAFE_LocationContext,
  useLocation,
  useMatches,
  useNavigationType,
  useOutlet,
} from 'react-router';
import type { RouteHandle } from '@/lib/route-meta';
import { useTabBarStore } from '@/stores/tab-bar-store';

interface KeptPage {
  element: ReactNode;
  /** Where the page was last shown: a hidden page keeps seeing it, so nothing in it reacts to other pages' URLs. */
  location: Location;
  scrollY: number;
}

const REDIRECT_PREFIX = '/redirect';

/**
 * The page outlet with the tab bar on (page tabs): every open tab's page stays mounted,
 * hidden while another tab shows, so its filters, page number and scroll position are
 * there when the user comes back. Closing a tab drops its page; "reload" (through
 * /redirect) mounts it afresh.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const matches = useMatches();
  const tabs = useTabBarStore((state) => state.tabs);
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const current = handle && !handle.meta.noTab && handle.meta.locale ? handle.name : null;
  const kept = useRef(new Map<string, KeptPage>());
  const pages = kept.current;

  if (location.pathname.startsWith(`${REDIRECT_PREFIX}/`)) {
    // Reloading a tab: forget its page so that it mounts again.
    const target = location.pathname.slice(REDIRECT_PREFIX.length);
    const reloaded = tabs.find((tab) => tab.fullPath.split('?')[0] === target);
    if (reloaded) pages.delete(reloaded.name);
  }
  if (current) pages.set(current, { element: outlet, location, scrollY: pages.get(current)?.scrollY ?? 0 });
  for (const name of [...pages.keys()]) {
    if (name !== current && !tabs.some((tab) => tab.name === name)) pages.delete(name);
  }

  // Remember where the shown page is scrolled to (one listener, reading which page shows
  // now), and put a page back where it was when its tab is chosen again.
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const remember = () => {
      const page = shown.current ? pages.get(shown.current) : undefined;
      if (page) page.scrollY = window.scrollY;
    };
    window.addEventListener('scroll', remember, { passive: true });
    return () => window.removeEventListener('scroll', remember);
  }, [pages]);
  useLayoutEffect(() => {
    shown.current = current;
    if (current) window.scrollTo(0, pages.get(current)?.scrollY ?? 0);
  }, [current, pages]);

  return (
    <>
      {[...pages].map(([name, page]) => (
        <div key={name} hidden={name !== current} data-kept-page={name}>
          <UNSAFE_LocationContext.Provider value={{ location: page.location, navigationType }}>
            {page.element}
          </UNSAFE_LocationContext.Provider>
        </div>
      ))}
      {current ? null : outlet}
    </>
  );
}
