/**
 * Open page tabs. The first tab is always the workplace and cannot be closed. The list is
 * kept in sessionStorage so that a reload restores every open tab, not only the current one.
 */
import { create } from 'zustand';

export interface PageTab {
  /** Route name; one tab per route name. */
  name: string;
  /** i18n key of the title. */
  titleKey: string;
  /** Path plus query, where the tab navigates back to. */
  fullPath: string;
}

export const WORKPLACE_TAB: Readonly<PageTab> = Object.freeze({
  name: 'Workplace',
  titleKey: 'menu.dashboard.workplace',
  fullPath: '/dashboard/workplace',
});

/** Routes that never get a tab. */
export const NEVER_TABBED = ['Redirect', 'login', 'not-found'];

export interface TabBarState {
  tabs: PageTab[];
  openTab: (tab: PageTab) => void;
  closeTab: (name: string) => void;
  closeLeft: (name: string) => void;
  closeRight: (name: string) => void;
  closeOthers: (name: string) => void;
  closeAll: () => void;
}

const isFixed = (tab: PageTab) => tab.name === WORKPLACE_TAB.name;

export const TABS_STORAGE_KEY = 'tab-bar.tabs';

const isPageTab = (value: unknown): value is PageTab =>
  typeof value === 'object' &&
  value !== null &&
  ['name', 'titleKey', 'fullPath'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string') &&
  (value as PageTab).fullPath.startsWith('/');

/** The tabs open before a reload (the workplace first whatever was stored). */
export function storedTabs(): PageTab[] {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(TABS_STORAGE_KEY) ?? '[]');
    const tabs = Array.isArray(value)
      ? value.filter(isPageTab).filter((tab) => !isFixed(tab) && !NEVER_TABBED.includes(tab.name))
      : [];
    return [{ ...WORKPLACE_TAB }, ...tabs];
  } catch {
    return [{ ...WORKPLACE_TAB }];
  }
}

export const useTabBarStore = create<TabBarState>()((set, get) => ({
  tabs: storedTabs(),
  openTab: (tab) => {
    if (NEVER_TABBED.includes(tab.name)) return;
    const tabs = get().tabs;
    const index = tabs.findIndex((item) => item.name === tab.name);
    if (index === -1) {
      set({ tabs: [...tabs, tab] });
    } else if (tabs[index].fullPath !== tab.fullPath) {
      set({ tabs: tabs.map((item, i) => (i === index ? { ...item, fullPath: tab.fullPath } : item)) });
    }
  },
  closeTab: (name) => set({ tabs: get().tabs.filter((tab) => isFixed(tab) || tab.name !== name) }),
  closeLeft: (name) => {
    const tabs = get().tabs;
    const index = tabs.findIndex((tab) => tab.name === name);
    set({ tabs: tabs.filter((tab, i) => isFixed(tab) || i >= index) });
  },
  closeRight: (name) => {
    const tabs = get().tabs;
    const index = tabs.findIndex((tab) => tab.name === name);
    if (index === -1) return;
    set({ tabs: tabs.filter((tab, i) => isFixed(tab) || i <= index) });
  },
  closeOthers: (name) => set({ tabs: get().tabs.filter((tab) => isFixed(tab) || tab.name === name) }),
  closeAll: () => set({ tabs: [{ ...WORKPLACE_TAB }] }),
}));

useTabBarStore.subscribe((state) => {
  try {
    sessionStorage.setItem(TABS_STORAGE_KEY, JSON.stringify(state.tabs));
  } catch {
    // Storage full or refused: the tabs just do not survive a reload.
  }
});
