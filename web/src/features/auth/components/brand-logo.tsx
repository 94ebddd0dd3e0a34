/**
 * The logo (public/favicon.svg) drawn in the page: as an <img> it cost the login page's first
 * paint a request and an SVG document of its own (≈ 10 ms on this machine, bench/README.md).
 * The login page's HTML (app/login-shell/login-shell-html.ts) writes the same markup.
 */
export function BrandLogo({ label }: { label: string }) {
  return (
    <svg width="32" height="32" viewBox="0 0 64 64" role="img" aria-label={label}>
      <rect width="64" height="64" rx="14" fill="#165DFF"></rect>
      <path
        d="M20 44V20h14a8 8 0 0 1 0 16h-6m0-8h8a8 8 0 0 1 0 16H20"
        fill="none"
        stroke="#fff"
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
      ></path>
    </svg>
  );
}
