/**
 * The merchant an administrator acts for on the pages that place orders (add order, batch
 * add) and in the merchant-view preview. Remembered for the browser session only
 * (sessionStorage): a new sign-in asks again.
 */
import { create } from 'zustand';
import { onSessionCleared } from '@/lib/session';

export const ACTING_MERCHANT_KEY = 'acting-merchant';

export interface ActingMerchant {
  merchantId: number;
  name: string;
}

function load(): ActingMerchant | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(ACTING_MERCHANT_KEY) ?? 'null') as Partial<ActingMerchant> | null;
    if (value && Number.isInteger(value.merchantId) && (value.merchantId ?? 0) > 0 && typeof value.name === 'string') {
      return { merchantId: value.merchantId as number, name: value.name };
    }
  } catch {
    // A broken entry is as good as none.
  }
  return null;
}

export interface ActingMerchantState {
  merchant: ActingMerchant | null;
  setMerchant: (merchant: ActingMerchant | null) => void;
}

export const useActingMerchantStore = create<ActingMerchantState>()((set) => ({
  merchant: load(),
  setMerchant: (merchant) => {
    if (merchant) sessionStorage.setItem(ACTING_MERCHANT_KEY, JSON.stringify(merchant));
    else sessionStorage.removeItem(ACTING_MERCHANT_KEY);
    set({ merchant });
  },
}));

// Another user signing in on this tab must not inherit the choice.
onSessionCleared(() => useActingMerchantStore.getState().setMerchant(null));
