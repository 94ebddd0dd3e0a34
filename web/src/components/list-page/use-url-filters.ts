import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type FilterSchema, type FilterValues, paramsToValues, valuesToParams } from './url-filters';

/**
 * The list's filters read from and written to the page address. `schema` must be a module
 * constant. `apply` answers false when the filters did not change (the caller refetches).
 * A list's filters replace the address (a search typed again and again is not a trail of
 * steps); `push` keeps the address before as a step the back button returns to (a report,
 * whose every choice is one click). A step is drawn at once rather than in a transition, so
 * a click that follows at once (the grain, then the breakdown) builds on this one's filters.
 */
export function useUrlFilters(schema: FilterSchema) {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const values = useMemo(() => paramsToValues(new URLSearchParams(search), schema), [search, schema]);
  const apply = useCallback(
    (next: FilterValues, { push = false }: { push?: boolean } = {}): boolean => {
      const query = new URLSearchParams(valuesToParams(next, schema)).toString();
      if (query === search) return false;
      setParams(query, { replace: !push, flushSync: push });
      return true;
    },
    [schema, search, setParams],
  );
  return { values, apply, search };
}

/**
 * Run `onChange` (e.g. back to page 1) in the render where `value` changed, so no request
 * goes out for the old page under the new filters.
 */
export function useOnChange(value: string, onChange: () => void): void {
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    onChange();
  }
}
