/** Transient layout state that is not a setting (not persisted). */
import { create } from 'zustand';

export interface UiState {
  settingsDrawerOpen: boolean;
  mobileMenuOpen: boolean;
  setSettingsDrawerOpen: (open: boolean) => void;
  setMobileMenuOpen: (open: boolean) => void;
}

export const useUiStore = create<UiState>()((set) => ({
  settingsDrawerOpen: false,
  mobileMenuOpen: false,
  setSettingsDrawerOpen: (open) => set({ settingsDrawerOpen: open }),
  setMobileMenuOpen: (open) => set({ mobileMenuOpen: open }),
}));
