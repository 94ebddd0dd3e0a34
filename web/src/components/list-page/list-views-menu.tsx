import { captureState, viewColumns } from './saved-views';
import { SavedViewsMenu } from './saved-views-menu';
import type { SettableSource, TableSettings } from './use-table-settings';

export interface ListViewsMenuProps<C extends SettableSource> {
  listKey: string;
  /** The list's column settings, which a view keeps and applies. */
  held: TableSettings<C>;
  /** The filters now, as address parameters ('' for a list without filters). */
  search: string;
  /** Apply a view's filters; a list without filters has none to apply. */
  applyFilters?: (filters: Record<string, string>) => void;
  /** The sort the person chose, when the list has one. */
  sort?: { value: string; onChange: (value: string) => void };
}

/**
 * The saved-views menu of one list: a view keeps the filters, the columns, the density and
 * the sort, and applying it sets all four. One wiring for the list pages with filters
 * (`ListPage`) and the short lists without (`ListTable` with `savedViews`).
 */
export function ListViewsMenu<C extends SettableSource>({
  listKey,
  held,
  search,
  applyFilters,
  sort,
}: ListViewsMenuProps<C>) {
  return (
    <SavedViewsMenu
      page={listKey}
      search={search}
      capture={() => captureState(search, held.settings, sort?.value)}
      onApply={(view) => {
        applyFilters?.(view.filters);
        held.update((current) => viewColumns(current, view, held.keys, held.hiddenKeys));
        if (sort && view.sort !== undefined) sort.onChange(view.sort);
      }}
    />
  );
}
