/** Thin wrappers over browser navigation so tests can observe them. */
export function reloadPage(): void {
  window.location.reload();
}

/** Opens a page of the console by its path (a full load: the guards run again). */
export function openPage(path: string): void {
  if (window.location.pathname !== path) window.location.assign(path);
}
