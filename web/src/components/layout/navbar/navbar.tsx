import { MenuOutlined, MoonOutlined, SettingOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import logoUrl from '@/assets/logo.svg';
import { LocaleSwitch } from '@/components/locale-switch/locale-switch';
import { useSettingsStore } from '@/stores/settings-store';
import { useUiStore } from '@/stores/ui-store';
import { NavMenu } from '../menu/nav-menu';
import type { MenuEntry } from '../menu/menu-entries';
import { MessageBell } from './message-bell';
import { PageSearch } from './page-search';
import { UserMenu } from './user-menu';
import './navbar.css';

export interface NavbarProps {
  menuEntries: MenuEntry[];
  onLogout: () => Promise<void>;
}

/** Top bar: logo and name, top menu (when on), search, language, theme, settings, messages, user. */
export function Navbar({ menuEntries, onLogout }: NavbarProps) {
  const { t } = useTranslation();
  const themeMode = useSettingsStore((state) => state.theme);
  const toggleTheme = useSettingsStore((state) => state.toggleTheme);
  const topMenu = useSettingsStore((state) => state.topMenu);
  const menu = useSettingsStore((state) => state.menu);
  const device = useSettingsStore((state) => state.device);
  // The settings drawer's 'search' switch shows or hides the page search.
  const search = useSettingsStore((state) => state.search);
  const openSettings = useUiStore((state) => state.setSettingsDrawerOpen);
  const openMobileMenu = useUiStore((state) => state.setMobileMenuOpen);
  const isDark = themeMode === 'dark';
  const themeLabel = isDark ? t('navbar.theme.toLight') : t('navbar.theme.toDark');

  return (
    <header className="navbar" data-testid="navbar">
      <div className="navbar__left">
        {device === 'mobile' && menu ? (
          <Button
            type="text"
            icon={<MenuOutlined />}
            aria-label={t('navbar.menu.toggle')}
            data-testid="mobile-menu-button"
            onClick={() => openMobileMenu(true)}
          />
        ) : null}
        <Link to="/dashboard/workplace" className="navbar__brand" data-testid="navbar-logo">
          <img src={logoUrl} alt={t('navbar.logoAlt')} width={28} height={28} />
          <span className="navbar__title">{t('app.title')}</span>
        </Link>
      </div>
      <div className="navbar__center">
        {topMenu && menu && device === 'desktop' ? <NavMenu entries={menuEntries} mode="horizontal" /> : null}
      </div>
      <div className="navbar__right">
        {device === 'desktop' && search ? <PageSearch entries={menuEntries} /> : null}
        <Tooltip title={t('navbar.language')}>
          <span>
            <LocaleSwitch />
          </span>
        </Tooltip>
        <Tooltip title={themeLabel}>
          <Button
            type="text"
            icon={isDark ? <SunOutlined /> : <MoonOutlined />}
            aria-label={themeLabel}
            data-testid="theme-toggle"
            onClick={toggleTheme}
          />
        </Tooltip>
        <Tooltip title={t('navbar.settings')}>
          <Button
            type="text"
            icon={<SettingOutlined />}
            aria-label={t('navbar.settings')}
            data-testid="navbar-settings"
            onClick={() => openSettings(true)}
          />
        </Tooltip>
        <MessageBell />
        <UserMenu onLogout={onLogout} />
      </div>
    </header>
  );
}
