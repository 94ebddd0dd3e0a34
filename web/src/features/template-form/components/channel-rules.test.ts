import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_NAME_MAX,
  AUDIO_ACQUISITION_CHANNELS,
  AUDIO_ENCODING_CHANNELS,
  AUDIO_ENCODING_RATE,
  checkRange,
  checkRateOrder,
  DESCRIPTION_MAX,
  ENCODING_RATE,
  FRAME_RATE,
  isPromoteLink,
  maxLength,
} from './channel-rules';

const t = (key: string, options?: Record<string, unknown>) => (options ? `${key} ${JSON.stringify(options)}` : key);

describe('channel form rules', () => {
  it('uses the spec ranges for video and says which ones it chose for audio', () => {
    expect(ENCODING_RATE).toEqual({ min: 150, max: 1800 });
    expect(FRAME_RATE).toEqual({ min: 1, max: 30 });
    expect(DESCRIPTION_MAX).toBe(200);
    expect(ACTIVITY_NAME_MAX).toBe(20);
    expect(AUDIO_ACQUISITION_CHANNELS).toEqual({ min: 1, max: 8 });
    expect(AUDIO_ENCODING_CHANNELS).toEqual({ min: 1, max: 2 });
    expect(AUDIO_ENCODING_RATE).toEqual({ min: 16, max: 320 });
  });

  it.each([
    ['encoding rate', ENCODING_RATE],
    ['frame rate', FRAME_RATE],
    ['audio acquisition channels', AUDIO_ACQUISITION_CHANNELS],
    ['audio encoding channels', AUDIO_ENCODING_CHANNELS],
    ['audio encoding rate', AUDIO_ENCODING_RATE],
  ])('%s: accepts both edges, refuses one past each', (_, range) => {
    const refused = `template.form.range ${JSON.stringify({ min: range.min, max: range.max })}`;
    expect(checkRange(range.min, range, t)).toBeNull();
    expect(checkRange(range.max, range, t)).toBeNull();
    expect(checkRange(range.min - 1, range, t)).toBe(refused);
    expect(checkRange(range.max + 1, range, t)).toBe(refused);
    expect(checkRange(range.min + 0.5, range, t)).toBe(refused);
    expect(checkRange(undefined, range, t)).toBe('template.form.required');
  });

  it('keeps the default rate between minimum and maximum', () => {
    expect(checkRateOrder(150, 1800, 150, t)).toBeNull();
    expect(checkRateOrder(150, 1800, 1800, t)).toBeNull();
    expect(checkRateOrder(900, 800, 850, t)).toEqual({
      field: 'videoEncodingRateMin',
      message: 'template.form.minAboveMax',
    });
    expect(checkRateOrder(300, 800, 801, t)).toEqual({
      field: 'videoEncodingRateDefault',
      message: 'template.form.defaultOutside',
    });
    expect(checkRateOrder(300, 800, 299, t)?.field).toBe('videoEncodingRateDefault');
  });

  it('bounds the texts by characters and wants an http(s) link', () => {
    expect(maxLength('名'.repeat(20), ACTIVITY_NAME_MAX)).toBe(true);
    expect(maxLength('名'.repeat(21), ACTIVITY_NAME_MAX)).toBe(false);
    expect(maxLength('x'.repeat(200), DESCRIPTION_MAX)).toBe(true);
    expect(maxLength('x'.repeat(201), DESCRIPTION_MAX)).toBe(false);
    expect(isPromoteLink('http://example.com')).toBe(true);
    expect(isPromoteLink('https://example.com/a')).toBe(true);
    expect(isPromoteLink('ftp://example.com')).toBe(false);
    expect(isPromoteLink('example.com')).toBe(false);
  });
});
