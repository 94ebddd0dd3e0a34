import { QueryClientProvider } from '@tanstack/react-query';
import { Drawer, Layout } from 'antd';
import { useEffect, useMemo } from 'react';
import { Outlet } from 'react-router';
import { AppFooter } from '@/components/layout/footer/app-footer';
import { buildMenuEntries } from '@/components/layout/menu/menu-entries';
import { NavMenu } from '@/components/layout/menu/nav-menu';
import { Navbar } from '@/components/layout/navbar/navbar';
import { PageHeading } from '@/components/layout/page-heading';
import { FloatingSettingsButton } from '@/components/layout/settings/floating-settings-button';
import { PreviewBanner } from '@/components/layout/preview-banner/preview-banner';
import { SettingsDrawer } from '@/components/layout/settings/settings-drawer';
import { KeepAliveOutlet } from '@/components/layout/tab-bar/keep-alive-outlet';
import { TabBar } from '@/components/layout/tab-bar/tab-bar';
import { useTabSync } from '@/components/layout/tab-bar/use-tab-sync';
import { useKeyboardAccess } from '@/components/layout/use-keyboard-access';
import { useResponsiveDevice } from '@/components/layout/use-responsive-device';
import { useLogout } from '@/features/auth/api/logout';
import { loadServerMenu } from '@/features/menu/api/get-server-menu';
import { queryClient } from '@/lib/query-client';
import { withoutTemplates } from '@/lib/route-meta';
import { templatePagesOn } from '@/lib/system-info';
import { useSettingsStore } from '@/stores/settings-store';
import { useUiStore } from '@/stores/ui-store';
import { useUserStore } from '@/stores/user-store';
import { AntdProviders } from '../antd-providers';
import { APP_ROUTES } from '../routes/route-table';
import { endRehearsal } from './rehearsal';
import './default-layout.css';

const NAVBAR_HEIGHT = 60;
/** The local menu without the template section, for servers that do not serve it. */
const LOCAL_MENU = withoutTemplates(APP_ROUTES);

/** The signed-in pages' providers: antd (theme, locale, feedback) and the server-state cache. */
export default function DefaultLayout() {
  return (
    <AntdProviders>
      <QueryClientProvider client={queryClient}>
        <LayoutFrame />
      </QueryClientProvider>
    </AntdProviders>
  );
}

/** The frame around every signed-in page. */
function LayoutFrame() {
  useResponsiveDevice();
  useKeyboardAccess();
  useTabSync();
  const settings = useSettingsStore();
  const logout = useLogout();
  const role = useUserStore((state) => state.role);
  const merchantRole = useUserStore((state) => state.merchantRole);
  const mobileMenuOpen = useUiStore((state) => state.mobileMenuOpen);
  const setMobileMenuOpen = useUiStore((state) => state.setMobileMenuOpen);
  // The console's components hold antd's cache entries now; a task later, because a root
  // is not unmounted while another one commits.
  useEffect(() => {
    const later = setTimeout(endRehearsal, 0);
    return () => clearTimeout(later);
  }, []);

  // The server's menu leaves the template section out itself when it does not serve it.
  const menuSource = settings.menuFromServer ? settings.serverMenu : templatePagesOn() ? APP_ROUTES : LOCAL_MENU;
  const menuEntries = useMemo(
    () => buildMenuEntries(menuSource, role, '', merchantRole),
    [menuSource, role, merchantRole],
  );

  const showSider = settings.menu && !settings.topMenu && !settings.hideMenu;
  const siderTop = settings.navbar ? NAVBAR_HEIGHT : 0;

  return (
    <Layout className="default-layout" data-testid="default-layout">
      {settings.navbar ? <Navbar menuEntries={menuEntries} onLogout={logout.mutateAsync} /> : null}
      <Layout hasSider={showSider}>
        {showSider ? (
          <Layout.Sider
            className="default-layout__sider"
            data-testid="sider"
            theme="light"
            collapsible
            collapsed={settings.menuCollapse}
            onCollapse={(collapsed) => settings.updateSettings({ menuCollapse: collapsed })}
            width={settings.menuWidth}
            style={{ top: siderTop, height: `calc(100vh - ${siderTop}px)` }}
          >
            <NavMenu entries={menuEntries} mode="inline" collapsed={settings.menuCollapse} />
          </Layout.Sider>
        ) : null}
        <Layout
          className="default-layout__main"
          style={{ ['--tab-bar-top' as string]: settings.navbar ? `${NAVBAR_HEIGHT}px` : '0px' }}
        >
          <PreviewBanner />
          {settings.tabBar ? <TabBar /> : null}
          <Layout.Content className="default-layout__content">
            <PageHeading />
            {settings.tabBar ? <KeepAliveOutlet /> : <Outlet />}
          </Layout.Content>
          {settings.footer ? <AppFooter /> : null}
        </Layout>
      </Layout>
      {settings.menu && settings.hideMenu ? (
        <Drawer
          placement="left"
          size={settings.menuWidth}
          open={mobileMenuOpen}
          onClose={() => setMobileMenuOpen(false)}
          closable={false}
          styles={{ body: { padding: 0 } }}
          data-testid="mobile-menu-drawer"
        >
          <NavMenu entries={menuEntries} mode="inline" onNavigate={() => setMobileMenuOpen(false)} />
        </Drawer>
      ) : null}
      <SettingsDrawer loadServerMenu={loadServerMenu} />
      {!settings.navbar ? <FloatingSettingsButton /> : null}
    </Layout>
  );
}
