/** Thin wrappers over browser navigation so tests can observe them. */
export function reloadPage(): void {
  window.location.reload();
}
