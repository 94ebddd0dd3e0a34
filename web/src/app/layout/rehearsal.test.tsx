import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { endRehearsal, rehearseFirstScreen } from './rehearsal';

const consoleVariables = () =>
  [...document.head.querySelectorAll('style')].filter((style) => style.textContent?.includes('.css-var-console'));

describe('the first screen rehearsal', () => {
  afterEach(() => act(() => endRehearsal()));

  it("fills antd's cache under the console's CSS-variable key, off the document", async () => {
    const before = document.body.innerHTML;
    await act(async () => rehearseFirstScreen());
    // The theme token and components' variables the console's own ConfigProvider will use.
    expect(consoleVariables().length).toBeGreaterThan(5);
    expect(consoleVariables().some((style) => style.textContent?.includes('.ant-menu'))).toBe(true);
    // Nothing shown.
    expect(document.body.innerHTML).toBe(before);
  });
});
