import { beforeEach, describe, expect, it } from 'vitest';
import { storedTabs, TABS_STORAGE_KEY, useTabBarStore, WORKPLACE_TAB } from './tab-bar-store';

const tab = (name: string, fullPath = `/${name}`) => ({ name, titleKey: `menu.${name}`, fullPath });
const names = () => useTabBarStore.getState().tabs.map((item) => item.name);

beforeEach(() => useTabBarStore.getState().closeAll());

describe('tab bar store', () => {
  it('starts with the workplace, which cannot be closed', () => {
    expect(names()).toEqual([WORKPLACE_TAB.name]);
    useTabBarStore.getState().closeTab('Workplace');
    useTabBarStore.getState().closeOthers('Nope');
    expect(names()).toEqual(['Workplace']);
  });

  it('opens one tab per route and updates its query', () => {
    const store = useTabBarStore.getState();
    store.openTab(tab('OrderList', '/order/list'));
    store.openTab(tab('OrderList', '/order/list?page=2'));
    expect(names()).toEqual(['Workplace', 'OrderList']);
    expect(useTabBarStore.getState().tabs[1].fullPath).toBe('/order/list?page=2');
  });

  it('never tabs the redirect route', () => {
    useTabBarStore.getState().openTab(tab('Redirect', '/redirect/order/list'));
    expect(names()).toEqual(['Workplace']);
  });

  it('closes left, right and others but keeps the workplace', () => {
    const store = useTabBarStore.getState();
    ['A', 'B', 'C', 'D'].forEach((name) => store.openTab(tab(name)));
    store.closeRight('B');
    expect(names()).toEqual(['Workplace', 'A', 'B']);
    store.closeLeft('B');
    expect(names()).toEqual(['Workplace', 'B']);
    store.openTab(tab('E'));
    store.closeOthers('E');
    expect(names()).toEqual(['Workplace', 'E']);
    store.closeTab('E');
    expect(names()).toEqual(['Workplace']);
  });
});

describe('tabs across a reload', () => {
  it('are stored as they change and read back, the workplace first, junk dropped', () => {
    useTabBarStore.getState().openTab(tab('OrderList', '/order/list?page=2'));
    useTabBarStore.getState().openTab(tab('QouteList', '/qoute/list'));
    expect(storedTabs().map((item) => item.fullPath)).toEqual([
      '/dashboard/workplace',
      '/order/list?page=2',
      '/qoute/list',
    ]);
    sessionStorage.setItem(
      TABS_STORAGE_KEY,
      JSON.stringify([
        tab('Redirect', '/redirect/x'),
        { name: 7 },
        tab('Evil', 'https://evil.example'),
        tab('AddList', '/order/addList'),
      ]),
    );
    expect(storedTabs().map((item) => item.name)).toEqual(['Workplace', 'AddList']);
    sessionStorage.setItem(TABS_STORAGE_KEY, '{not json');
    expect(storedTabs().map((item) => item.name)).toEqual(['Workplace']);
  });

  it('are forgotten by closeAll (sign-out)', () => {
    useTabBarStore.getState().openTab(tab('OrderList', '/order/list'));
    useTabBarStore.getState().closeAll();
    expect(storedTabs().map((item) => item.name)).toEqual(['Workplace']);
  });
});
