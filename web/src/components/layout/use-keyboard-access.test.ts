import { renderHook } from '@testing-library/react';
import { markScrollRegions, silenceMeasureRows, useKeyboardAccess } from './use-keyboard-access';

/** A scroll container whose content is `scrollWidth` wide in a box `clientWidth` wide. */
function scroller(html: string, scrollWidth: number, clientWidth = 300): HTMLElement {
  const element = document.createElement('div');
  element.className = 'ant-table-content';
  element.innerHTML = html;
  Object.defineProperty(element, 'scrollWidth', { configurable: true, get: () => scrollWidth });
  Object.defineProperty(element, 'clientWidth', { configurable: true, get: () => clientWidth });
  document.body.append(element);
  return element;
}

describe('markScrollRegions', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('makes an overflowing region of plain text reachable from the keyboard', () => {
    const region = scroller('<table><tr><td>text</td></tr></table>', 900);
    markScrollRegions(document.body);
    expect(region.tabIndex).toBe(0);
  });

  it('leaves a region alone that does not overflow or holds something focusable', () => {
    const fits = scroller('<table><tr><td>text</td></tr></table>', 300);
    const withButton = scroller('<button type="button">open</button>', 900);
    markScrollRegions(document.body);
    expect(fits.hasAttribute('tabindex')).toBe(false);
    expect(withButton.hasAttribute('tabindex')).toBe(false);
  });

  it('takes the focus stop away again once the region no longer overflows', () => {
    let width = 900;
    const region = scroller('<p>text</p>', 0);
    Object.defineProperty(region, 'scrollWidth', { configurable: true, get: () => width });
    markScrollRegions(document.body);
    expect(region.tabIndex).toBe(0);
    width = 300;
    markScrollRegions(document.body);
    expect(region.hasAttribute('tabindex')).toBe(false);
  });
});

describe('silenceMeasureRows', () => {
  it("takes a table's hidden measuring row, and the copies of header controls in it, out of the focus order", () => {
    document.body.innerHTML =
      '<table><tbody><tr aria-hidden="true" class="ant-table-measure-row"><td><input type="checkbox"></td></tr>' +
      '<tr class="ant-table-row"><td><input type="checkbox"></td></tr></tbody></table>';
    silenceMeasureRows(document.body);
    expect(document.querySelector('.ant-table-measure-row')?.hasAttribute('inert')).toBe(true);
    expect(document.querySelector('.ant-table-row')?.hasAttribute('inert')).toBe(false);
    document.body.innerHTML = '';
  });
});

describe('useKeyboardAccess', () => {
  it('marks a region that overflows once a text in it changes in place (a live table)', async () => {
    let width = 300;
    const region = scroller('<table><tr><td>1/2</td></tr></table>', 0);
    Object.defineProperty(region, 'scrollWidth', { configurable: true, get: () => width });
    const { unmount } = renderHook(() => useKeyboardAccess());
    expect(region.hasAttribute('tabindex')).toBe(false);
    width = 900;
    const cell = region.querySelector('td')!.firstChild as Text;
    cell.nodeValue = '1234/5678';
    // The observer answers at the end of the task, as the page's does.
    await Promise.resolve();
    expect(region.tabIndex).toBe(0);
    unmount();
    document.body.innerHTML = '';
  });
});
