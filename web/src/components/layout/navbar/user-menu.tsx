import { IdcardOutlined, LogoutOutlined, SettingOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useRevalidator } from 'react-router';
import { useAvatarUrl } from '@/components/avatar/use-avatar-url';
import { showSuccessMessage } from '@/lib/feedback';
import { displayName, roleLabel, useUserStore } from '@/stores/user-store';

export interface UserMenuProps {
  onLogout: () => Promise<void>;
}

/** Avatar dropdown: local role switcher, user info, user settings, logout. */
export function UserMenu({ onLogout }: UserMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const info = useUserStore((state) => state.info);
  const role = useUserStore((state) => state.role);
  const merchantRole = useUserStore((state) => state.merchantRole);
  const previewing = useUserStore((state) => state.previewing);
  const switchRole = useUserStore((state) => state.switchRole);
  // Only an administrator may switch: the server grants a merchant nothing more.
  const mayPreview = info.role === 'admin';
  const name = displayName(info);
  const avatarUrl = useAvatarUrl();

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          {
            key: 'current-role',
            disabled: true,
            label: (
              <span data-testid="current-role">
                {previewing
                  ? t('navbar.user.currentRolePreview')
                  : t('navbar.user.currentRole', { role: roleLabel(t, role, merchantRole) })}
              </span>
            ),
          },
          ...(mayPreview
            ? [
                {
                  key: 'switch-role',
                  icon: <SwapOutlined />,
                  title: t('navbar.user.switchRole.hint'),
                  label: (
                    <span data-testid="role-switch">
                      {previewing ? t('navbar.user.endPreview') : t('navbar.user.previewMerchant')}
                    </span>
                  ),
                },
              ]
            : []),
          {
            key: 'info',
            icon: <IdcardOutlined />,
            label: <span data-testid="user-info-link">{t('navbar.user.info')}</span>,
          },
          {
            key: 'settings',
            icon: <SettingOutlined />,
            label: <span data-testid="user-settings-link">{t('navbar.user.settings')}</span>,
          },
          { type: 'divider' },
          {
            key: 'logout',
            icon: <LogoutOutlined />,
            label: <span data-testid="logout">{t('navbar.user.logout')}</span>,
          },
        ],
        onClick: async ({ key }) => {
          if (key === 'switch-role') {
            const next = switchRole();
            if (next) showSuccessMessage(t('navbar.user.switchRole.done', { role: t(`role.${next}`) }));
            // Re-run the guard: a page the new role may not open is left.
            void revalidator.revalidate();
          } else if (key === 'info') {
            navigate('/user/info');
          } else if (key === 'settings') {
            navigate('/user/setting');
          } else if (key === 'logout') {
            await onLogout();
            navigate('/login', { replace: true });
          }
        },
      }}
    >
      <Button type="text" data-testid="user-dropdown" style={{ paddingInline: 4 }}>
        <Avatar size={28} src={avatarUrl ?? (info.avatar || undefined)} icon={<UserOutlined />} />
        <span className="navbar__username" data-testid="navbar-username">
          {name}
        </span>
      </Button>
    </Dropdown>
  );
}
