import { useEffect } from 'react';

/** antd's scroll containers: a table wider than its card (scroll.x), a fixed-height table body, a drawer's body. */
const SCROLLERS = '.ant-table-content, .ant-table-body, .ant-drawer-body';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * A scrolling region someone on a keyboard can reach: one that overflows and holds nothing
 * focusable (a table of plain text wider than the screen) takes the focus itself, so the
 * arrow keys scroll it. antd gives no attribute to its tables' inner scroll containers.
 */
export function markScrollRegions(root: ParentNode) {
  for (const element of root.querySelectorAll<HTMLElement>(SCROLLERS)) {
    const overflows = element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight;
    if (element.dataset.keyboardScroll === 'on') {
      if (!overflows) {
        element.removeAttribute('tabindex');
        delete element.dataset.keyboardScroll;
      }
    } else if (overflows && !element.hasAttribute('tabindex') && !element.querySelector(FOCUSABLE)) {
      element.tabIndex = 0;
      element.dataset.keyboardScroll = 'on';
    }
  }
}

/**
 * antd measures column widths in a hidden table row (aria-hidden, no height) holding a copy
 * of each column title, the select-all check box included: Tab would stop on that invisible
 * copy. Made inert, the row keeps its size and its copies leave the focus order.
 */
export function silenceMeasureRows(root: ParentNode) {
  for (const row of root.querySelectorAll<HTMLElement>('.ant-table-measure-row:not([inert])')) {
    row.setAttribute('inert', '');
  }
}

/**
 * Keeps both applied to the whole page (tables in dialogs and drawers included) while the
 * layout is mounted, following the document as it changes.
 */
export function useKeyboardAccess() {
  useEffect(() => {
    // A commit's changes come to the observer as one batch: one look per render, not per row.
    const mark = () => {
      markScrollRegions(document.body);
      silenceMeasureRows(document.body);
    };
    const observer = new MutationObserver(mark);
    // Text changed in place counts too: React updates a cell's text node without adding
    // nodes, and a live table (the monitor's channels) grows wider than its card that way.
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    window.addEventListener('resize', mark);
    mark();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', mark);
    };
  }, []);
}
