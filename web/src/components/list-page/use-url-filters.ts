import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type FilterSchema, type FilterValues, paramsToValues, valuesToParams } from './url-filters';

/**
 * The list's filters read from and written to the page address. `schema` must be a module
 * constant. `apply` answers false when the filters did not change (the caller refetches).
 */
export function useUrlFilters(schema: FilterSchema) {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const values = useMemo(() => paramsToValues(new URLSearchParams(search), schema), [search, schema]);
  const apply = useCallback(
    (next: FilterValues): boolean => {
      const query = new URLSearchParams(valuesToParams(next, schema)).toString();
      if (query === search) return false;
      setParams(query, { replace: true });
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
