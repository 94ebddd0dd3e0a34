import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ChannelList } from './channel-list';
import { RoutingPreview } from './routing-preview';
import '@/locales/channels-texts';

type ChannelsTab = 'list' | 'routing';

/**
 * /qoute/channels (administrators): the upstream channels with live figures, their
 * settings and products, and the routing preview. The tab and the previewed product live
 * in the address, so a reload or a link keeps them.
 */
export default function ChannelsPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: ChannelsTab = searchParams.get('tab') === 'routing' ? 'routing' : 'list';
  const product = searchParams.get('product');

  const update = (changes: Record<string, string>) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        for (const [key, value] of Object.entries(changes)) next.set(key, value);
        return next;
      },
      { replace: true },
    );

  return (
    <div data-testid="channels-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => update({ tab: key })}
        items={[
          {
            key: 'list',
            label: <span data-testid="channels-tab-list">{t('channels.tab.list')}</span>,
            children: <ChannelList />,
          },
          {
            key: 'routing',
            label: <span data-testid="channels-tab-routing">{t('channels.tab.routing')}</span>,
            children: <RoutingPreview productKey={product} onProduct={(key) => update({ product: key })} />,
          },
        ]}
      />
    </div>
  );
}
