import { useCallback, useEffect, useState } from 'react';
import { useUserStore } from '@/stores/user-store';
import {
  type ColumnSettings,
  type Density,
  defaultSettings,
  loadSettings,
  fitSettings,
  saveSettings,
  type SettingsChange,
  settingsStorageKey,
} from './column-settings';

interface Held {
  source: string;
  storageKey: string;
  settings: ColumnSettings;
  /** Changed by the user since it was read, so it is to be saved. */
  changed: boolean;
}

const NONE: readonly string[] = [];

/**
 * The signed-in user's settings for one list, saved on every change. `hidden` are the keys
 * left out by default (until the person adds them).
 */
export function useColumnSettings(
  listKey: string,
  keys: readonly string[],
  density: Density,
  hidden: readonly string[] = NONE,
) {
  const user = useUserStore((state) => state.info.username ?? '');
  const storageKey = settingsStorageKey(user, listKey);
  const source = `${storageKey}#${keys.join('|')}#${density}#${hidden.join('|')}`;
  const [held, setHeld] = useState<Held>(() => ({
    source,
    storageKey,
    settings: loadSettings(localStorage, storageKey, keys, density, hidden),
    changed: false,
  }));
  // Another user, list or set of columns: read that one's settings (during render, not in an
  // effect, so no frame shows the previous layout).
  // A change of this list's not saved yet (a saved view applied in the render its filters
  // changed the columns: a report's breakdown) goes over to the new columns, not lost to what
  // storage held before it.
  let settings = held.settings;
  if (held.source !== source) {
    const carried = held.changed && held.storageKey === storageKey;
    settings = carried
      ? fitSettings(held.settings, keys, density, hidden)
      : loadSettings(localStorage, storageKey, keys, density, hidden);
    setHeld({ source, storageKey, settings, changed: carried });
  }

  // Saved once the change is committed: a state updater must stay pure (StrictMode runs it twice).
  useEffect(() => {
    if (held.changed) saveSettings(localStorage, held.storageKey, held.settings);
  }, [held]);

  const update = useCallback((change: SettingsChange) => {
    setHeld((current) => ({ ...current, settings: change(current.settings), changed: true }));
  }, []);
  const reset = useCallback(
    () => update((current) => ({ ...defaultSettings(keys, density, hidden), density: current.density })),
    [density, keys, hidden, update],
  );
  return { settings, update, reset };
}
