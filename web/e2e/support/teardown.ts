/**
 * After the run: the throwaway data folder the config made for the shared server (its
 * database and key file) goes away, so that runs do not pile folders up in /tmp.
 * A folder given from outside (E2E_DATA_DIR set before the run) is left alone.
 */
import { rmSync } from 'node:fs';

export default function teardown(): void {
  const folder = process.env.E2E_DATA_DIR_OWNED;
  if (folder) rmSync(folder, { recursive: true, force: true });
}
