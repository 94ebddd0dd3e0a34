import { describe, expect, it } from 'vitest';
import { initialHydration } from './router';

describe('initial hydration', () => {
  it('skips the guard only for the login page without a session', () => {
    expect(initialHydration('#/login', false)).toEqual({ loaderData: { login: null } });
    expect(initialHydration('#/login?redirect=Monitor', false)).toEqual({ loaderData: { login: null } });
  });

  it('runs the guard with a session or on any other page', () => {
    // A session on the login page: the guard sends the user on (to the workplace).
    expect(initialHydration('#/login', true)).toBeUndefined();
    expect(initialHydration('#/dashboard/workplace', false)).toBeUndefined();
    expect(initialHydration('', false)).toBeUndefined();
  });
});
