/**
 * A port for a server the tests start, known before it starts (Playwright needs the URL up
 * front): scripts/free-port.py, which the shell scripts use too, says why it is not one the
 * kernel hands out for port 0.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../scripts/free-port.py', import.meta.url));

export function freePort(): number {
  return Number(execFileSync('python3', [script]).toString().trim());
}
