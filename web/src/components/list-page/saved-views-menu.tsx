import { AppstoreOutlined, DownOutlined, SaveOutlined, SettingOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps, Space, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ViewState, readState } from './saved-views';
import { type SavedView, type SavedViewList, useSavedViews } from './saved-views-api';
import { ManageViewsDialog, SaveViewDialog } from './saved-views-dialogs';

export interface SavedViewsMenuProps {
  /** The list page's key (its `listKey`), as the server knows it. */
  page: string;
  /** The address's query now: the default view applies only to a page opened without filters. */
  search: string;
  /** The page as it is now, to save. */
  capture: () => ViewState;
  /** Apply a view: filters (into the address), columns, density, sort. */
  onApply: (state: ViewState) => void;
}

/**
 * Once per opening of the page: when its views arrive and the address carries no filters,
 * the user's default view is applied (a link with filters, or filters typed before the views
 * came, win).
 */
function useDefaultView(data: SavedViewList | undefined, search: string, apply: (view: SavedView) => void) {
  const decided = useRef(false);
  useEffect(() => {
    if (decided.current || !data) return;
    decided.current = true;
    const view = data.views.find((candidate) => candidate.id === data.default_id);
    if (view && search === '') apply(view);
  }, [data, search, apply]);
}

/**
 * The saved views of a list page (issue 52): pick one, save the page as it is under a name,
 * manage them (default, share, rename, delete). Kept on the server, so they follow the user
 * to another browser; shared ones are read-only to the others who see them.
 */
export function SavedViewsMenu({ page, search, capture, onApply }: SavedViewsMenuProps) {
  const { t } = useTranslation();
  const views = useSavedViews(page);
  const [active, setActive] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [managing, setManaging] = useState(false);
  const applyRef = useRef(onApply);
  useEffect(() => {
    applyRef.current = onApply;
  });
  const [apply] = useState(() => (view: SavedView) => {
    setActive(view.id);
    applyRef.current(readState(view.state));
  });
  useDefaultView(views.data, search, apply);

  const list = views.data?.views ?? [];
  const defaultId = views.data?.default_id ?? null;
  const item = (view: SavedView) => ({
    key: String(view.id),
    label: (
      <Space size={6} data-testid={`saved-view-${view.name}`}>
        <span>{view.name}</span>
        {view.mine ? null : <span className="list-views__owner">{t('listPage.views.by', { owner: view.owner })}</span>}
        {view.shared && view.mine ? <ShareAltOutlined aria-label={t('listPage.views.sharedTag')} /> : null}
        {view.id === defaultId ? <Tag color="blue">{t('listPage.views.default')}</Tag> : null}
      </Space>
    ),
  });
  const mine = list.filter((view) => view.mine);
  const others = list.filter((view) => !view.mine);
  const items: MenuProps['items'] = [
    ...(mine.length ? [{ type: 'group' as const, label: t('listPage.views.mine'), children: mine.map(item) }] : []),
    ...(others.length
      ? [{ type: 'group' as const, label: t('listPage.views.sharedWithMe'), children: others.map(item) }]
      : []),
    ...(list.length
      ? []
      : [
          {
            key: 'none',
            disabled: true,
            label: views.isError ? t('listPage.views.loadFailed') : t('listPage.views.none'),
          },
        ]),
    { type: 'divider' as const },
    {
      key: 'save',
      icon: <SaveOutlined />,
      label: <span data-testid="saved-views-save">{t('listPage.views.saveAs')}</span>,
    },
    {
      key: 'manage',
      icon: <SettingOutlined />,
      disabled: list.length === 0,
      label: <span data-testid="saved-views-manage">{t('listPage.views.manage')}</span>,
    },
  ];

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items,
          selectable: true,
          selectedKeys: active === null ? [] : [String(active)],
          onClick: ({ key }) => {
            if (key === 'save') setSaving(true);
            else if (key === 'manage') setManaging(true);
            else {
              const view = list.find((candidate) => String(candidate.id) === key);
              if (view) apply(view);
            }
          },
        }}
      >
        <Button size="small" icon={<AppstoreOutlined />} data-testid="saved-views-open">
          {t('listPage.views.title')}
          <DownOutlined />
        </Button>
      </Dropdown>
      <SaveViewDialog
        open={saving}
        page={page}
        capture={capture}
        onSaved={(view) => setActive(view.id)}
        onClose={() => setSaving(false)}
      />
      <ManageViewsDialog
        open={managing}
        page={page}
        views={list}
        defaultId={defaultId}
        onClose={() => setManaging(false)}
      />
    </>
  );
}
