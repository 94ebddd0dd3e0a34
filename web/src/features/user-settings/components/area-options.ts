/**
 * Chinese provinces, cities and counties (GB/T 2260 codes) for the area cascader, from
 * @vant/area-data (MIT). About 160 kB of data: imported on demand, only by this page, so
 * neither the login page nor the layout carries it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';

export interface AreaOption {
  value: string;
  label: string;
  children?: AreaOption[];
}

/** The country/region whose areas the cascader offers. */
export const MAINLAND_CHINA = 'CN';

/** Country/region codes offered by the select (labels are translated: profile.country.<code>). */
export const COUNTRY_REGIONS = ['CN', 'HK', 'MO', 'TW', 'SG', 'MY', 'JP', 'KR', 'US', 'GB', 'OTHER'] as const;

interface VantOption {
  text: string;
  value: string;
  children?: VantOption[];
}

function toAreaOption(option: VantOption): AreaOption {
  return {
    value: option.value,
    label: option.text,
    ...(option.children?.length ? { children: option.children.map(toAreaOption) } : {}),
  };
}

export async function loadAreaOptions(): Promise<AreaOption[]> {
  // Despite its name, a plain function that builds the tree (not a React hook).
  const { useCascaderAreaData: buildAreaTree } = await import('@vant/area-data');
  return buildAreaTree().map(toAreaOption);
}

export const areaOptionsQueryOptions = () =>
  queryOptions({ queryKey: ['area-options'], queryFn: loadAreaOptions, staleTime: Infinity, gcTime: Infinity });

export function useAreaOptions() {
  return useQuery(areaOptionsQueryOptions());
}

/** '110000/110100/110101' ↔ ['110000', '110100', '110101'] (codes only; else null). */
export function areaCodes(area: string): string[] | null {
  if (!/^\d{6}(\/\d{6}){0,2}$/.test(area)) return null;
  return area.split('/');
}

/** The names of a code path, e.g. ['北京市', '北京市', '东城区'], as far as they are known. */
export function areaNames(options: AreaOption[], codes: string[]): string[] {
  const names: string[] = [];
  let level: AreaOption[] | undefined = options;
  for (const code of codes) {
    const found: AreaOption | undefined = level?.find((option) => option.value === code);
    if (!found) break;
    names.push(found.label);
    level = found.children;
  }
  return names;
}
