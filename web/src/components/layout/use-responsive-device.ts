import { useEffect } from 'react';
import { useSettingsStore } from '@/stores/settings-store';

export const MOBILE_BREAKPOINT_PX = 992;

/** Below 992 px the console switches to the mobile device: the side menu moves into a drawer. */
export function useResponsiveDevice(): void {
  const update = useSettingsStore((state) => state.updateSettings);
  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
    const apply = () => {
      const mobile = query.matches;
      const state = useSettingsStore.getState();
      const device = mobile ? 'mobile' : 'desktop';
      if (state.device !== device || state.hideMenu !== mobile) update({ device, hideMenu: mobile });
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [update]);
}
