import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type FilterSchema, type FilterValues, paramsToValues, valuesToParams } from './url-filters';

/** The schema's filters of an address, as a canonical query string (paging and others left out). */
export function filterKey(params: URLSearchParams, schema: FilterSchema): string {
  return new URLSearchParams(valuesToParams(paramsToValues(params, schema), schema)).toString();
}

/**
 * The list's filters read from and written to the page address. `schema` must be a module
 * constant. `search` is the filters alone: turning a page changes the address, not the
 * filters (nor the values the filter card shows). `apply` writes the filters, plus the
 * `kept` parameters (the page size), and drops the rest (the page); it answers false when
 * the filters did not change (the caller refetches).
 */
export function useUrlFilters(schema: FilterSchema) {
  const [params, setParams] = useSearchParams();
  const search = filterKey(params, schema);
  const values = useMemo(() => paramsToValues(new URLSearchParams(search), schema), [search, schema]);
  const apply = useCallback(
    (next: FilterValues, kept: Record<string, string> = {}): boolean => {
      const filters = valuesToParams(next, schema);
      if (new URLSearchParams(filters).toString() === search) return false;
      setParams(new URLSearchParams({ ...filters, ...kept }), { replace: true });
      return true;
    },
    [schema, search, setParams],
  );
  return { values, apply, search };
}

/**
 * Run `onChange` (e.g. forget a list's cursors) in the render where `value` changed, so no
 * request goes out for the old position under the new filters.
 */
export function useOnChange(value: string, onChange: () => void): void {
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    onChange();
  }
}
