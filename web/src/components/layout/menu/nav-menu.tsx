import { Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { translateOr } from '@/lib/i18n';
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
  const { i18n } = useTranslation();
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

  const items = useMemo(() => {
    const toItem = (entry: MenuEntry, topLevel: boolean): MenuItem => {
      const text = translateOr(entry.labelKey, entry.name);
      const label = entry.external ? (
        <a href={entry.key} target="_blank" rel="noopener noreferrer" data-testid={`menu-item-${entry.name}`}>
          {text}
        </a>
      ) : (
        // The full text on hover too, should a narrow menu still cut it.
        <span data-testid={`menu-item-${entry.name}`} title={text}>
          {text}
        </span>
      );
      const icon = topLevel ? menuIcon(entry.icon) : undefined;
      if (entry.children) {
        return { key: entry.key, label, icon, children: entry.children.map((child) => toItem(child, false)) };
      }
      return { key: entry.key, label, icon };
    };
    return entries.map((entry) => toItem(entry, true));
    // i18n.language: the labels are translated when the language changes.
  }, [entries, i18n.language]);

  return (
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
  );
}
