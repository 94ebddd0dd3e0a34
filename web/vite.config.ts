/// <reference types="vitest/config" />
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { chunksToHint, withCompileHint } from './src/app/build/compile-hints.ts';
import { CONSOLE_SCRIPTS_META } from './src/app/login-shell/console-scripts.ts';
import { loginShellPage, SHELL_LOCALES } from './src/app/login-shell/login-shell-html.ts';
import enPublic from './src/locales/en-US/public.ts';
import zhPublic from './src/locales/zh-CN/public.ts';

const apiTarget = 'http://127.0.0.1:8080';

/**
 * The unit tests that replace modules (`vi.mock`): each runs in a fresh module registry of
 * its own, so that its stand-ins reach no other file. The others share their worker's
 * registry and jsdom window (`isolate: false`): a fresh window and a fresh import of antd
 * for each of 89 files were most of the suite's time (environment 112 s, imports 50 s,
 * tests 62 s, summed over both workers; 2026-11-28).
 */
function testFilesThatMock(): string[] {
  const root = fileURLToPath(new URL('./src', import.meta.url));
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(root, file), 'utf8')))
    .map((file) => `src/${file}`);
}
// Read once, and only by vitest (it sets VITEST): a build has no use for the test files.
const mockingTestFiles = process.env.VITEST ? testFilesThatMock() : [];

const base = '/web/';
const earlyEntry = fileURLToPath(new URL('./src/app/login-shell/early.ts', import.meta.url));
const appStartModule = fileURLToPath(new URL('./src/app/app-start.tsx', import.meta.url));

/**
 * Next to index.html (the bare console, for visitors with a session), writes the login page
 * as HTML in each language, login.zh-CN.html and login.en-US.html (and a .dark.html of
 * each, for the dark theme): the form in the page
 * (src/app/login-shell), the console's stylesheet inlined (no request before the first
 * paint) and the small early script before the console's own. The bare console instead
 * preloads the router and what it imports, which it loads at once. The server picks one of
 * the three pages by the console's hint cookies (src/web_assets.rs).
 */
function loginShellPages(): Plugin {
  return {
    name: 'login-shell-pages',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir!;
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const early = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId === earlyEntry);
      const appStart = chunks.find((chunk) => chunk.facadeModuleId === appStartModule);
      if (!early || !appStart) throw new Error('login shell: the early script or the console start was not built');
      const index = readFileSync(join(outDir, 'index.html'), 'utf8');

      // The bare console: modulepreload the console start's whole static import tree.
      const preloads = new Set<string>();
      const visit = (fileName: string) => {
        if (preloads.has(fileName) || index.includes(`${base}${fileName}"`)) return;
        preloads.add(fileName);
        chunks.find((chunk) => chunk.fileName === fileName)?.imports.forEach(visit);
      };
      visit(appStart.fileName);
      const preloadTags = [...preloads].map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`);
      const stylesheet = /(\s*)<link rel="stylesheet" crossorigin href="([^"]+)">/;
      // It shows the boot spinner (.app-boot, global.css) until the console renders.
      writeFileSync(
        join(outDir, 'index.html'),
        index
          .replace(stylesheet, (tag, space: string) => `${preloadTags.map((link) => space + link).join('')}${tag}`)
          .replace('<div id="root"></div>', '<div id="root"><div class="app-boot" aria-busy="true"></div></div>'),
      );

      // The login pages: stylesheet inline, the form in the root, and only the early script:
      // it loads the console's (named in a meta tag, in the order the page had them) once the
      // form's first paint is reported (src/app/login-shell/early.ts). Fetched and compiled
      // with the page, they competed with its first frame for the two cores.
      const css = readFileSync(join(outDir, index.match(stylesheet)![2].slice(base.length)), 'utf8');
      const earlyTag = `<script type="module" crossorigin src="${base}${early.fileName}"></script>`;
      const consoleScripts = [
        ...index.matchAll(/<(?:script type="module"|link rel="modulepreload") crossorigin (?:src|href)="([^"]+)"/g),
      ];
      if (!consoleScripts.length || !consoleScripts[0][0].startsWith('<script')) {
        throw new Error('login shell: the console entry script was not first in index.html');
      }
      const loginIndex = index // as read above: an empty root, filled per language below
        .replace(stylesheet, (_, space: string) => `${space}<style>${css.trim()}</style>`)
        .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
        .replace(
          /(\s*)<script type="module"[^>]*><\/script>/,
          `$1${earlyTag}$1<meta name="${CONSOLE_SCRIPTS_META}" content="${consoleScripts.map((match) => match[1]).join(' ')}">`,
        );
      const texts = { 'zh-CN': zhPublic, 'en-US': enPublic };
      const year = new Date().getFullYear();
      for (const locale of SHELL_LOCALES) {
        const page = loginShellPage(loginIndex, locale, texts[locale], year);
        writeFileSync(join(outDir, `login.${locale}.html`), page);
        // For the dark theme (global.css's body[data-theme='dark']): no light flash first.
        writeFileSync(join(outDir, `login.${locale}.dark.html`), page.replace('<body>', '<body data-theme="dark">'));
      }
    },
  };
}

/** V8's explicit compile hint on the chunks loaded after the page (src/app/build/compile-hints.ts). */
function compileHints(): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    generateBundle: {
      // After every other plugin's (Vite's import analysis puts its preload helper first in
      // a chunk there): the hint must be the chunk's first line.
      order: 'post',
      handler(_, bundle) {
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        chunksToHint(chunks, ['echarts-vendor']).forEach(withCompileHint);
      },
    },
  };
}

export default defineConfig({
  base,
  plugins: [react(), compileHints(), loginShellPages()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/adminapi': { target: apiTarget, changeOrigin: true },
      '/api': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline <script> in index.html: the server's CSP is script-src 'self'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 4096,
    // The ECharts chunk (echarts/core with bar and line charts, about 530 kB, 180 kB
    // gzipped) is loaded only by the pages that chart (monitor, workplace's chart).
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), 'login-early': earlyEntry },
      output: {
        codeSplitting: {
          groups: [
            // Stable framework code changes rarely: one long-cached chunk.
            {
              name: 'react-vendor',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 3,
            },
            // Apart from React: the login page renders without the router (app/login-app).
            {
              name: 'router-vendor',
              test: /node_modules[\\/]react-router[\\/]/,
              priority: 3,
            },
            {
              name: 'echarts-vendor',
              test: /node_modules[\\/](echarts|zrender)[\\/]/,
              priority: 2,
            },
            {
              name: 'i18n-vendor',
              test: /node_modules[\\/](i18next|react-i18next|zustand)[\\/]/,
              priority: 2,
            },
            // The HTTP client loads on the login form's first focus or submit, not with the form.
            {
              name: 'http-vendor',
              test: /node_modules[\\/]axios[\\/]/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // antd pages render slowly in jsdom on a busy 2-core machine: generous limits keep
    // slowness from failing a test (timeouts here are not what the tests assert).
    testTimeout: 30_000,
    // Vitest leaves a core free by default: one worker on a 2-core machine, which then sat
    // half idle (4 min 11 s for the whole suite; 2 min 42 s with both cores, 2026-11-28).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: { name: 'shared', isolate: false, include: ['src/**/*.test.{ts,tsx}'], exclude: mockingTestFiles },
      },
      {
        extends: true,
        test: { name: 'isolated', include: mockingTestFiles },
      },
    ],
  },
});
