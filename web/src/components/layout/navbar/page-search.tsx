import { SearchOutlined } from '@ant-design/icons';
import { AutoComplete, Input } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { translateOr } from '@/lib/i18n';
import { menuLeaves, type MenuEntry } from '../menu/menu-entries';

/** Find a page the current role may open by its title and go there. */
export function PageSearch({ entries }: { entries: MenuEntry[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');

  const pages = useMemo(
    () =>
      menuLeaves(entries)
        .filter((leaf) => !leaf.external)
        .map((leaf) => ({ value: leaf.key, label: translateOr(leaf.labelKey, leaf.name) })),
    // i18n.language: the labels are translated when the language changes.
    [entries, i18n.language],
  );
  const query = text.trim().toLowerCase();
  const options = query ? pages.filter((page) => page.label.toLowerCase().includes(query)) : pages;

  return (
    <AutoComplete
      options={options}
      value={text}
      onChange={setText}
      onSelect={(path: string) => {
        setText('');
        navigate(path);
      }}
      style={{ width: 180 }}
      popupMatchSelectWidth={220}
    >
      <Input
        size="middle"
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('navbar.search.placeholder')}
        aria-label={t('navbar.search')}
        data-testid="navbar-search"
      />
    </AutoComplete>
  );
}
