import { useCallback, useState } from 'react';
import { useUserStore } from '@/stores/user-store';
import {
  type ColumnSettings,
  type Density,
  defaultSettings,
  loadSettings,
  saveSettings,
  settingsStorageKey,
} from './column-settings';

/** The signed-in user's settings for one list, saved on every change. */
export function useColumnSettings(listKey: string, keys: readonly string[], density: Density) {
  const user = useUserStore((state) => state.info.username ?? '');
  const storageKey = settingsStorageKey(user, listKey);
  const source = `${storageKey}#${keys.join('|')}#${density}`;
  const [state, setState] = useState(() => ({
    source,
    settings: loadSettings(localStorage, storageKey, keys, density),
  }));
  // Another user, list or set of columns: read that one's settings (during render, not in an
  // effect, so no frame shows the previous layout).
  let settings = state.settings;
  if (state.source !== source) {
    settings = loadSettings(localStorage, storageKey, keys, density);
    setState({ source, settings });
  }

  const update = useCallback(
    (next: ColumnSettings) => {
      setState({ source, settings: next });
      saveSettings(localStorage, storageKey, next);
    },
    [source, storageKey],
  );
  const reset = useCallback(() => {
    const next = { ...defaultSettings(keys, density), density: settings.density };
    update(next);
  }, [density, keys, settings.density, update]);
  return { settings, update, reset };
}
