import '@testing-library/jest-dom/vitest';
import { cleanup, configure, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { MessageHolder } from '@/components/feedback/message-holder';
import i18n, { DEFAULT_LOCALE } from '@/lib/i18n';
import enUS from '@/locales/en-US';
import zhCN from '@/locales/zh-CN';

// The console's texts beyond the login page's load with the signed-in console
// (locales/app-texts.ts); components tested on their own get them all up front.
i18n.addResourceBundle('zh-CN', 'translation', zhCN, true, false);
i18n.addResourceBundle('en-US', 'translation', enUS, true, false);

// waitFor and findBy* give up after this long (default 1 s: too short for antd under load).
configure({ asyncUtilTimeout: 10_000 });

// antd reads these browser APIs, which jsdom lacks.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// Toasts show through the console's holder, as in the signed-in layout, so each test's toasts
// unmount with the test. antd's static toasts (the fallback outside the layout) live in a root
// of their own that nothing unmounts: a close timer of theirs once rendered after a test
// file's window was gone ("window is not defined", an unhandled error failing the run).
beforeEach(() => {
  render(createElement(MessageHolder));
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// The files that mock no module share their worker's module registry and window, one file
// after another (project 'shared' in vite.config.ts): whatever language a file leaves, the
// next one starts in the console's default, as a fresh page would.
afterAll(async () => {
  await i18n.changeLanguage(DEFAULT_LOCALE);
});
