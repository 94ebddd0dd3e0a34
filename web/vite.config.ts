/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/web/',
  plugins: [react()],
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
      output: {
        codeSplitting: {
          groups: [
            // Stable framework code changes rarely: one long-cached chunk.
            {
              name: 'react-vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 3,
            },
            {
              name: 'echarts-vendor',
              test: /node_modules[\\/](echarts|zrender)[\\/]/,
              priority: 2,
            },
            {
              name: 'i18n-http-vendor',
              test: /node_modules[\\/](axios|i18next|react-i18next|zustand)[\\/]/,
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
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // antd pages render slowly in jsdom on a busy 2-core machine: generous limits keep
    // slowness from failing a test (timeouts here are not what the tests assert).
    testTimeout: 30_000,
  },
});
