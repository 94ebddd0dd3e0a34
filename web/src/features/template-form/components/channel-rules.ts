/**
 * The channel form's rules. Video encoding rate 150–1800 and frame rates 1–30 are
 * the spec's; the audio channel and rate ranges are ours (the original's were
 * placeholders copied and inconsistent) and the form's help text names them. The server
 * checks the same ranges (src/template_pages/channel_form.rs).
 */
import type { Rule } from 'antd/es/form';

export interface Range {
  min: number;
  max: number;
}

export const ENCODING_RATE: Range = { min: 150, max: 1800 };
export const FRAME_RATE: Range = { min: 1, max: 30 };
export const AUDIO_ACQUISITION_CHANNELS: Range = { min: 1, max: 8 };
export const AUDIO_ENCODING_CHANNELS: Range = { min: 1, max: 2 };
export const AUDIO_ENCODING_RATE: Range = { min: 16, max: 320 };
export const DESCRIPTION_MAX = 200;
export const ACTIVITY_NAME_MAX = 20;

export const MODES = ['custom', 'auto'] as const;
export const RESOLUTIONS = ['1920x1080', '1280x720', '720x1280', '640x360'] as const;
export const VIDEO_PROFILES = ['baseline', 'main', 'high'] as const;
export const AUDIO_PROFILES = ['AAC-LC', 'HE-AAC', 'HE-AACv2'] as const;
export const CHANNEL_TYPES = ['app', 'web', 'miniProgram'] as const;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Why a number is refused, or null: required, a whole number, within the range. */
export function checkRange(value: unknown, range: Range, t: Translate): string | null {
  if (value === undefined || value === null || value === '') return t('template.form.required');
  const number = Number(value);
  if (!Number.isInteger(number) || number < range.min || number > range.max) {
    return t('template.form.range', { min: range.min, max: range.max });
  }
  return null;
}

export function rangeRule(range: Range, t: Translate): Rule {
  return {
    validator: (_, value) => {
      const problem = checkRange(value, range, t);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  };
}

/** The default encoding rate between the minimum and the maximum (checked once all three are valid). */
export function checkRateOrder(
  min: unknown,
  max: unknown,
  fallback: unknown,
  t: Translate,
): { field: string; message: string } | null {
  const [low, high, value] = [Number(min), Number(max), Number(fallback)];
  if (![low, high, value].every(Number.isInteger)) return null;
  if (low > high) return { field: 'videoEncodingRateMin', message: t('template.form.minAboveMax') };
  if (value < low || value > high)
    return { field: 'videoEncodingRateDefault', message: t('template.form.defaultOutside') };
  return null;
}

/** The locale hint: a link starting with http:// (https:// accepted as well). */
export function isPromoteLink(value: string): boolean {
  return /^https?:\/\/\S+$/.test(value.trim());
}

export function maxLength(value: string | undefined, max: number): boolean {
  return [...(value ?? '')].length <= max;
}
