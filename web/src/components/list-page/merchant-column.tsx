import { queryOptions, useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePermission } from '@/components/permission/use-permission';
import { post } from '@/lib/request';
import type { ListColumn } from './list-table';

const MERCHANT_LIST_URL = '/adminapi/admin/merchant/list';

/** POST /adminapi/admin/merchant/list (administrators): id → name for the lists' merchant column. */
export function getMerchantNames(): Promise<Map<number, string>> {
  return post(MERCHANT_LIST_URL, { page: 1, page_size: 100 }).then(
    (answer) => new Map(answer.list.map((merchant) => [merchant.merchant_id, merchant.name])),
  );
}

export const merchantNamesQueryOptions = () =>
  queryOptions({ queryKey: ['merchant-names'], queryFn: getMerchantNames, staleTime: 5 * 60_000 });

/**
 * The merchant column administrators see on lists spanning merchants (orders, account
 * records): the name with the id, or the id alone while names load or for a merchant
 * beyond the first hundred. Merchants see only their own rows: no column for them.
 */
export function useMerchantColumn<T extends { merchant_id: number }>(): ListColumn<T> | null {
  const { t } = useTranslation();
  const isAdmin = usePermission(['admin']);
  const names = useQuery({ ...merchantNamesQueryOptions(), enabled: isAdmin });
  if (!isAdmin) return null;
  return {
    key: 'merchant',
    title: t('listPage.merchant'),
    dataIndex: 'merchant_id',
    width: 120,
    ellipsis: true,
    render: (id: number) => {
      const name = names.data?.get(id);
      return name ? (
        <>
          {name} <Typography.Text type="secondary">({id})</Typography.Text>
        </>
      ) : (
        String(id)
      );
    },
  };
}
