/**
 * Ports for servers the tests start, known before they start (Playwright needs the URL up
 * front): scripts/free-port.py, which the shell scripts use too, says why they are not ones
 * the kernel hands out for port 0.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../scripts/free-port.py', import.meta.url));

/** `count` different ports, free now. */
export function freePorts(count: number): number[] {
  return execFileSync('python3', [script, String(count)]).toString().trim().split('\n').map(Number);
}
