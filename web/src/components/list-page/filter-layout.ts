/**
 * Which filters a collapsed filter card shows, as antd Pro's query filter does: the first
 * row holds as many fields as fit beside the search/reset/expand buttons; the rest wait
 * behind "expand". Widths are counted in grid cells (4 per row on wide screens, 1 on a phone).
 */

/** Fields per row at each antd breakpoint, matching the columns' spans (24 / 12 / 8 / 6). */
export function cellsPerRow(screens: Partial<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'xxl', boolean>>): number {
  if (screens.xl || screens.xxl) return 4;
  if (screens.lg) return 3;
  if (screens.sm || screens.md) return 2;
  return 1;
}

/**
 * How many leading fields a collapsed card shows: as many whole fields as fit in the first
 * row next to the buttons' cell, and always at least one.
 */
export function collapsedCount(widths: readonly number[], perRow: number): number {
  const room = Math.max(1, perRow - 1);
  let used = 0;
  let count = 0;
  for (const width of widths) {
    const cells = Math.min(width, perRow);
    if (used + cells > room) break;
    used += cells;
    count += 1;
  }
  return Math.max(count, widths.length ? 1 : 0);
}

/** Cells the buttons take: the rest of the last row, or a whole row if it is full. */
export function actionCells(widths: readonly number[], perRow: number): number {
  const used = widths.reduce((sum, width) => {
    const cells = Math.min(width, perRow);
    const column = sum % perRow;
    return sum + (column + cells > perRow ? perRow - column : 0) + cells;
  }, 0);
  const left = perRow - (used % perRow);
  return left === 0 ? perRow : left;
}
