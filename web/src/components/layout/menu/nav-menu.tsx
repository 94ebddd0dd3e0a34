import { Badge, Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useMenuBadges } from '@/lib/admin-badges';
import { translateOr } from '@/lib/i18n';
import { useUserStore } from '@/stores/user-store';
import { menuIcon } from './menu-icons';
import { openKeysFor, type MenuEntry } from './menu-entries';

type MenuItem = Required<MenuProps>['items'][number];

export interface NavMenuProps {
  entries: MenuEntry[];
  mode: 'inline' | 'horizontal';
  collapsed?: boolean;
  onNavigate?: () => void;
}

/** The console menu, in the side bar (inline) or the navbar (horizontal). */
export function NavMenu({ entries, mode, collapsed = false, onNavigate }: NavMenuProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(entries, pathname));
  // On another page (or menu), also open the groups leading to it: adjusted while rendering,
  // not in an effect, so no frame shows the group closed.
  const [shownFor, setShownFor] = useState({ entries, pathname });
  if (shownFor.entries !== entries || shownFor.pathname !== pathname) {
    setShownFor({ entries, pathname });
    setOpenKeys((keys) => Array.from(new Set([...keys, ...openKeysFor(entries, pathname)])));
  }
  // Work waiting for an administrator, e.g. certifications to review, as a count on the entry.
  const badges = useMenuBadges(useUserStore((state) => state.role) === 'admin');

  const items = useMemo(() => {
    const toItem = (entry: MenuEntry, topLevel: boolean): MenuItem => {
      const text = translateOr(entry.labelKey, entry.name);
      const label = entry.external ? (
        <a href={entry.key} target="_blank" rel="noopener noreferrer" data-testid={`menu-item-${entry.name}`}>
          {text}
        </a>
      ) : badges[entry.name] ? (
        <span data-testid={`menu-item-${entry.name}`}>
          {text} <Badge count={badges[entry.name]} size="small" data-testid={`menu-badge-${entry.name}`} />
        </span>
      ) : (
        // The full text on hover too, should a narrow menu still cut it.
        <span data-testid={`menu-item-${entry.name}`} title={text}>
          {text}
        </span>
      );
      const icon = topLevel ? menuIcon(entry.icon) : undefined;
      if (entry.children) {
        // A closed group shows that something inside waits.
        const waiting = entry.children.some((child) => badges[child.name]);
        const groupLabel = waiting ? (
          <span data-testid={`menu-item-${entry.name}`}>
            {text} <Badge dot data-testid={`menu-badge-${entry.name}`} />
          </span>
        ) : (
          label
        );
        return {
          key: entry.key,
          label: groupLabel,
          icon,
          children: entry.children.map((child) => toItem(child, false)),
        };
      }
      return { key: entry.key, label, icon };
    };
    return entries.map((entry) => toItem(entry, true));
    // i18n.language: the labels are translated when the language changes.
  }, [entries, i18n.language, badges]);

  // A navigation landmark around antd's menu (a list of menu items, no landmark of its own).
  return (
    <nav
      aria-label={t('navbar.menu.label')}
      style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: mode === 'inline' ? 'column' : 'row' }}
    >
      <Menu
        data-testid={mode === 'inline' ? 'side-menu' : 'top-menu'}
        mode={mode}
        items={items}
        selectedKeys={[pathname]}
        inlineCollapsed={mode === 'inline' ? collapsed : undefined}
        {...(mode === 'inline' && !collapsed ? { openKeys, onOpenChange: setOpenKeys } : {})}
        onClick={({ key }) => {
          if (/^https?:\/\//.test(key)) return;
          navigate(key);
          onNavigate?.();
        }}
        style={{ borderInlineEnd: 'none', borderBottom: 'none', background: 'transparent', flex: 1, minWidth: 0 }}
      />
    </nav>
  );
}
