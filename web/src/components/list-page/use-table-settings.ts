import { useMemo } from 'react';
import type { Density } from './column-settings';
import { useColumnSettings } from './use-column-settings';

/** Pinned columns (fixed at the right, e.g. actions) stay last and are not settable. */
export const pinned = (column: { fixed?: unknown }) => column.fixed === 'right';

export interface SettableSource {
  key: string;
  fixed?: unknown;
  defaultHidden?: boolean;
}

/**
 * A table's column settings with what they are about (the settable columns, the defaults):
 * held by the table, or by the list page when a saved view must read and apply them.
 */
export function useTableSettings<C extends SettableSource>(
  listKey: string,
  columns: readonly C[],
  defaultDensity: Density = 'middle',
) {
  const settable = useMemo(() => columns.filter((column) => !pinned(column)), [columns]);
  const keys = useMemo(() => settable.map((column) => column.key), [settable]);
  const hiddenKeys = useMemo(
    () => settable.filter((column) => column.defaultHidden).map((column) => column.key),
    [settable],
  );
  const { settings, update, reset } = useColumnSettings(listKey, keys, defaultDensity, hiddenKeys);
  return { settable, keys, hiddenKeys, defaultDensity, settings, update, reset };
}

export type TableSettings<C extends SettableSource> = ReturnType<typeof useTableSettings<C>>;
