import { describe, expect, it } from 'vitest';
import type { TwoFactorSetup } from '../api/types';
import {
  downloadableCodes,
  initialPanelState,
  panelReducer,
  panelView,
  WIZARD_STEPS,
  type PanelAction,
  type PanelState,
} from './panel-state';

const setup: TwoFactorSetup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  qrCodeUrl: 'data:image/svg+xml;base64,PHN2Zy8+',
  backupCodes: ['11111111', '22222222'],
  tempKey: 'temp',
};

const run = (...actions: PanelAction[]): PanelState => actions.reduce(panelReducer, initialPanelState);
const inSetup = () => run({ type: 'setupStarted', setup });

describe('panelReducer', () => {
  it('starts idle at step 1 with no code', () => {
    expect(initialPanelState).toMatchObject({ mode: 'idle', step: 1, code: '', setup: null, dialog: null });
    expect(WIZARD_STEPS).toBe(3);
  });

  it('a started setup opens the wizard at step 1', () => {
    expect(inSetup()).toMatchObject({ mode: 'setup', step: 1, setup, code: '' });
  });

  it('next only from step 1 (below 2)', () => {
    const two = panelReducer(inSetup(), { type: 'next' });
    expect(two.step).toBe(2);
    expect(panelReducer(two, { type: 'next' })).toBe(two);
    const three = panelReducer(two, { type: 'enabled', backupCodes: ['1'] });
    expect(panelReducer(three, { type: 'next' })).toBe(three);
    // Not in the wizard: nothing to move.
    expect(panelReducer(initialPanelState, { type: 'next' })).toBe(initialPanelState);
  });

  it('previous only above step 1', () => {
    const one = inSetup();
    expect(panelReducer(one, { type: 'previous' })).toBe(one);
    const two = panelReducer(one, { type: 'next' });
    expect(panelReducer(two, { type: 'previous' }).step).toBe(1);
    expect(panelReducer(initialPanelState, { type: 'previous' })).toBe(initialPanelState);
  });

  it('a successful enable moves to step 3 with the codes now in force, and drops the secret', () => {
    const state = run(
      { type: 'setupStarted', setup },
      { type: 'next' },
      { type: 'codeChanged', code: '123456' },
      { type: 'enabled', backupCodes: ['33333333'] },
    );
    expect(state).toMatchObject({ mode: 'setup', step: 3, code: '', setup: null, backupCodes: ['33333333'] });
  });

  it('cancel or close returns to idle, resets the step and clears the code', () => {
    const cancelled = run(
      { type: 'setupStarted', setup },
      { type: 'next' },
      { type: 'codeChanged', code: '12' },
      {
        type: 'close',
      },
    );
    expect(cancelled).toMatchObject({ mode: 'idle', step: 1, code: '', setup: null });
    const completed = run(
      { type: 'setupStarted', setup },
      { type: 'next' },
      { type: 'enabled', backupCodes: ['33333333'] },
      { type: 'close' },
    );
    expect(completed).toMatchObject({ mode: 'idle', step: 1, code: '' });
    // The codes just issued stay downloadable in the enabled state.
    expect(completed.backupCodes).toEqual(['33333333']);
  });

  it('disable and regenerate open their dialogs with the code field cleared', () => {
    const typed = run({ type: 'codeChanged', code: '999' });
    const disable = panelReducer(typed, { type: 'openDialog', dialog: 'disable' });
    expect(disable).toMatchObject({ dialog: 'disable', code: '', dialogRound: 1 });
    const regenerate = panelReducer(panelReducer(disable, { type: 'closeDialog' }), {
      type: 'openDialog',
      dialog: 'regenerate',
    });
    expect(regenerate).toMatchObject({ dialog: 'regenerate', code: '', dialogRound: 2 });
  });

  it('disabling returns to not enabled and forgets the codes', () => {
    const state = run(
      { type: 'regenerated', backupCodes: ['44444444'] },
      { type: 'openDialog', dialog: 'disable' },
      { type: 'disabled' },
    );
    expect(state).toMatchObject({ mode: 'idle', step: 1, dialog: null, backupCodes: null, code: '' });
  });

  it('regenerating replaces the held codes and shows them', () => {
    const state = run(
      { type: 'setupStarted', setup },
      { type: 'next' },
      { type: 'enabled', backupCodes: ['33333333'] },
      { type: 'close' },
      { type: 'openDialog', dialog: 'regenerate' },
      { type: 'regenerated', backupCodes: ['55555555', '66666666'] },
    );
    expect(state).toMatchObject({ dialog: 'codes', backupCodes: ['55555555', '66666666'] });
  });
});

describe('panelView', () => {
  const on = { enabled: true, enabledAt: '2026-01-01T00:00:00Z', backupCodesCount: 10 };
  const off = { enabled: false, enabledAt: null, backupCodesCount: 0 };

  it('maps the state and the status to the four screens (and a failed load)', () => {
    expect(panelView(initialPanelState, undefined, false)).toBe('loading');
    expect(panelView(initialPanelState, undefined, true)).toBe('loadFailed');
    expect(panelView(initialPanelState, off, false)).toBe('notEnabled');
    expect(panelView(initialPanelState, on, false)).toBe('enabled');
    expect(panelView(inSetup(), off, false)).toBe('setup');
  });

  it('keeps the wizard on step 3 after the reloaded status says enabled', () => {
    const three = run({ type: 'setupStarted', setup }, { type: 'next' }, { type: 'enabled', backupCodes: ['1'] });
    expect(panelView(three, on, false)).toBe('setup');
    expect(panelView(panelReducer(three, { type: 'close' }), on, false)).toBe('enabled');
  });
});

describe('downloadableCodes', () => {
  it('offers the wizard set on step 1, else the codes this session holds, else none', () => {
    expect(downloadableCodes(inSetup())).toEqual(setup.backupCodes);
    expect(downloadableCodes(initialPanelState)).toEqual([]);
    expect(downloadableCodes(run({ type: 'regenerated', backupCodes: ['7'] }))).toEqual(['7']);
  });
});
