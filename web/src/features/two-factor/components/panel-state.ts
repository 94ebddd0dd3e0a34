/**
 * The two-factor panel as a pure state machine.
 *
 * Mode idle or setup; in setup the wizard has steps 1-3. Next only from step 1 (below 2),
 * previous only above step 1. Enabling moves to step 3 (the page then reloads the status).
 * Cancel or close returns to idle, resets the step and clears the code. Disable and
 * regenerate open their dialogs with an empty code field. Disabling returns to not enabled;
 * regenerating replaces the backup codes this console holds and shows the new set.
 */
import type { TwoFactorSetup, TwoFactorStatus } from '../api/types';

export const WIZARD_STEPS = 3;
export type WizardStep = 1 | 2 | 3;
export type PanelMode = 'idle' | 'setup';
export type PanelDialog = 'disable' | 'regenerate' | 'codes' | null;

export interface PanelState {
  mode: PanelMode;
  step: WizardStep;
  /** The 6-digit code of step 2. */
  code: string;
  /** The pending setup (secret, QR code, codes, temp key) while the wizard runs. */
  setup: TwoFactorSetup | null;
  /**
   * Backup codes this console session holds: set by enabling and regenerating, since the
   * server never shows them again (status gives only their count).
   */
  backupCodes: string[] | null;
  dialog: PanelDialog;
  /** Counts dialog openings, so each opening starts with a fresh (empty) code field. */
  dialogRound: number;
}

export type PanelAction =
  | { type: 'setupStarted'; setup: TwoFactorSetup }
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'codeChanged'; code: string }
  | { type: 'enabled'; backupCodes: string[] }
  | { type: 'close' }
  | { type: 'openDialog'; dialog: Exclude<PanelDialog, null> }
  | { type: 'closeDialog' }
  | { type: 'disabled' }
  | { type: 'regenerated'; backupCodes: string[] };

export const initialPanelState: PanelState = {
  mode: 'idle',
  step: 1,
  code: '',
  setup: null,
  backupCodes: null,
  dialog: null,
  dialogRound: 0,
};

export function panelReducer(state: PanelState, action: PanelAction): PanelState {
  switch (action.type) {
    case 'setupStarted':
      return { ...state, mode: 'setup', step: 1, code: '', setup: action.setup, dialog: null };
    case 'next':
      if (state.mode !== 'setup' || state.step >= 2) return state;
      return { ...state, step: (state.step + 1) as WizardStep };
    case 'previous':
      if (state.mode !== 'setup' || state.step <= 1) return state;
      return { ...state, step: (state.step - 1) as WizardStep };
    case 'codeChanged':
      return { ...state, code: action.code };
    case 'enabled':
      // The secret is not needed any more; the codes now in force stay for step 3 and downloads.
      return { ...state, mode: 'setup', step: 3, code: '', setup: null, backupCodes: action.backupCodes };
    case 'close':
      return { ...state, mode: 'idle', step: 1, code: '', setup: null, dialog: null };
    case 'openDialog':
      return { ...state, dialog: action.dialog, code: '', dialogRound: state.dialogRound + 1 };
    case 'closeDialog':
      return { ...state, dialog: null, code: '' };
    case 'disabled':
      return { ...initialPanelState, dialogRound: state.dialogRound };
    case 'regenerated':
      // Show the new set at once: it cannot be fetched again.
      return {
        ...state,
        backupCodes: action.backupCodes,
        dialog: 'codes',
        code: '',
        dialogRound: state.dialogRound + 1,
      };
    default:
      return state;
  }
}

export type PanelView = 'loading' | 'loadFailed' | 'notEnabled' | 'setup' | 'enabled';

/** Which of the screen's states shows: the wizard wins while it runs, even once enabled. */
export function panelView(state: PanelState, status: TwoFactorStatus | undefined, statusFailed: boolean): PanelView {
  if (state.mode === 'setup') return 'setup';
  if (!status) return statusFailed ? 'loadFailed' : 'loading';
  return status.enabled ? 'enabled' : 'notEnabled';
}

/** Codes the download button can offer now: the wizard's set, else the ones this session holds. */
export function downloadableCodes(state: PanelState): string[] {
  if (state.mode === 'setup' && state.step === 1 && state.setup) return state.setup.backupCodes;
  return state.backupCodes ?? [];
}
