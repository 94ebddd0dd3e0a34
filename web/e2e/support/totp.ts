/**
 * RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30-second steps) for the browser tests, with
 * node:crypto only: what an authenticator app computes from the secret the console shows.
 */
import { createHmac } from 'node:crypto';

export const TOTP_PERIOD_SECONDS = 30;

/** RFC 4648 base32 (A-Z, 2-7), padding and spaces ignored. */
export function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The 6-digit code of one time step (counter). */
export function totpAt(secret: string, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

export function currentStep(now = Date.now()): number {
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * Hands out codes the server will take: it accepts the current step and one either side,
 * each step once per user, and never a step before the last accepted one. So each call
 * gives the earliest step in the window after the last one handed out, waiting for the
 * clock when the window is used up.
 */
export class TotpCodes {
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly secret: string) {}

  async next(): Promise<string> {
    for (;;) {
      const now = currentStep();
      // Keep a margin: a step about to leave the window might be stale by the time it arrives.
      const secondsIntoStep = (Date.now() / 1000) % TOTP_PERIOD_SECONDS;
      const earliest = secondsIntoStep > TOTP_PERIOD_SECONDS - 5 ? now : now - 1;
      const step = Math.max(earliest, this.last + 1);
      if (step <= now + 1) {
        this.last = step;
        return totpAt(this.secret, step);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  /** A 6-digit code that is none of the ones the server would take now. */
  wrong(): string {
    const now = currentStep();
    const valid = new Set([now - 1, now, now + 1, now + 2].map((step) => totpAt(this.secret, step)));
    for (let candidate = 0; ; candidate++) {
      const code = String((candidate * 7919) % 1_000_000).padStart(6, '0');
      if (!valid.has(code)) return code;
    }
  }
}
