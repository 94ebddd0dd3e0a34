import { Dropdown, Tabs, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMatches, useNavigate } from 'react-router';
import type { RouteHandle } from '@/lib/route-meta';
import { useTabBarStore, WORKPLACE_TAB, type PageTab } from '@/stores/tab-bar-store';
import './tab-bar.css';

type TabAction = 'reload' | 'close-current' | 'close-left' | 'close-right' | 'close-others' | 'close-all';

/** Page tabs: the workplace first and fixed; others closable; right-click for more. */
export function TabBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const matches = useMatches();
  const tabs = useTabBarStore((state) => state.tabs);
  const store = useTabBarStore;
  const current = (matches[matches.length - 1]?.handle as RouteHandle | undefined)?.name;

  /** After closing tabs, leave the current page if its tab is gone. */
  const settle = () => {
    const remaining = store.getState().tabs;
    if (!remaining.some((tab) => tab.name === current)) {
      navigate((remaining[remaining.length - 1] ?? WORKPLACE_TAB).fullPath);
    }
  };

  const act = (action: TabAction, tab: PageTab) => {
    const state = store.getState();
    switch (action) {
      case 'reload':
        navigate(`/redirect${tab.fullPath}`, { replace: true });
        return;
      case 'close-current':
        state.closeTab(tab.name);
        break;
      case 'close-left':
        state.closeLeft(tab.name);
        break;
      case 'close-right':
        state.closeRight(tab.name);
        break;
      case 'close-others':
        state.closeOthers(tab.name);
        break;
      case 'close-all':
        state.closeAll();
        break;
    }
    settle();
  };

  const contextMenu = (tab: PageTab): MenuProps => {
    const fixed = tab.name === WORKPLACE_TAB.name;
    return {
      items: [
        { key: 'reload', label: t('tabBar.reload') },
        { key: 'close-current', label: t('tabBar.closeCurrent'), disabled: fixed },
        { key: 'close-left', label: t('tabBar.closeLeft') },
        { key: 'close-right', label: t('tabBar.closeRight') },
        { key: 'close-others', label: t('tabBar.closeOthers') },
        { key: 'close-all', label: t('tabBar.closeAll') },
      ],
      onClick: ({ key }) => act(key as TabAction, tab),
    };
  };

  return (
    <div className="tab-bar" data-testid="tab-bar">
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={current}
        onChange={(name) => {
          const tab = tabs.find((item) => item.name === name);
          if (tab) navigate(tab.fullPath);
        }}
        onEdit={(name, action) => {
          if (action !== 'remove' || typeof name !== 'string') return;
          store.getState().closeTab(name);
          settle();
        }}
        items={tabs.map((tab) => ({
          key: tab.name,
          closable: tab.name !== WORKPLACE_TAB.name,
          label: (
            <Dropdown trigger={['contextMenu']} menu={contextMenu(tab)}>
              <span data-testid={`tab-${tab.name}`}>{t(tab.titleKey)}</span>
            </Dropdown>
          ),
        }))}
      />
    </div>
  );
}
