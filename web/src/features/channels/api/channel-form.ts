/**
 * The channel form's values and the save request they become. Money (the low-balance
 * line) is typed in yuan and sent in fen, parsed as text (lib/money.ts), never as a float.
 * The secret is write-only: never shown back, and a blank one on an edit keeps the stored one.
 */
import { formatFen, parseYuanToFen } from '@/lib/money';
import type { Channel, SaveChannelRequest } from './channels';

export const ADAPTERS = ['http-json', 'sandbox'] as const;
export const TIMEOUT_RANGE_MS = [100, 60_000] as const;
export const CODE_RULE = /^[a-z0-9-]{1,32}$/;

export interface ChannelFormValues {
  code: string;
  name: string;
  adapter: string;
  base_url: string;
  secret: string;
  timeout_ms: number;
  /** Yuan, as typed. */
  low_balance: string;
  enabled: boolean;
}

/** Server field names that differ from the form's. */
export const CHANNEL_FIELD_MAP: Record<string, string> = { low_balance_fen: 'low_balance' };

export function channelFormInitial(channel: Channel | null): ChannelFormValues {
  if (!channel)
    return {
      code: '',
      name: '',
      adapter: 'http-json',
      base_url: 'https://',
      secret: '',
      timeout_ms: 5000,
      low_balance: '0.00',
      enabled: true,
    };
  return {
    code: channel.code,
    name: channel.name,
    adapter: channel.adapter,
    base_url: channel.base_url,
    // Never the stored secret (the server does not answer it anyway).
    secret: '',
    timeout_ms: channel.timeout_ms,
    low_balance: formatFen(channel.low_balance_fen, { grouping: false }),
    enabled: channel.enabled,
  };
}

/** The save request; null when the low-balance amount is not a plain yuan amount. */
export function channelSaveRequest(values: ChannelFormValues): SaveChannelRequest | null {
  const lowBalance = parseYuanToFen(values.low_balance ?? '');
  if (lowBalance === null) return null;
  const secret = values.secret?.trim() ?? '';
  return {
    code: values.code.trim(),
    name: values.name.trim(),
    adapter: values.adapter,
    base_url: values.adapter === 'sandbox' ? '' : values.base_url.trim(),
    // Blank: left out, the stored secret stays.
    ...(secret ? { secret } : {}),
    timeout_ms: values.timeout_ms,
    enabled: values.enabled,
    low_balance_fen: lowBalance,
  };
}
