import { Form, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { FilterCard, type FilterField } from './filter-card';
import { HeldListTable, type ListTableProps } from './list-table';
import { ListViewsMenu } from './list-views-menu';
import type { ListAnswer, ListPageState } from './use-list-page';
import { useTableSettings } from './use-table-settings';

export interface ListPageFilters {
  title: ReactNode;
  fields: FilterField[];
  testId: string;
  searchTestId: string;
  resetTestId?: string;
}

export interface ListPageTotal {
  testId: string;
  /** The heading's text, given `count`; the API's capped totals say "more than" instead. */
  textKey?: string;
  strong?: boolean;
  /** Shown instead until the first page arrives (otherwise "0 in total"). */
  beforeLoad?: ReactNode;
  /** Next to the total (a button acting on the list). */
  extra?: ReactNode;
}

/** What the page wires itself: everything but the list's data, state and paging. */
type Wired = 'title' | 'dataSource' | 'loading' | 'error' | 'onRetry' | 'pagination' | 'onExport';

export interface ListPageProps<T extends object, Q> extends Omit<ListTableProps<T>, Wired> {
  /** What `useListPage` answered. */
  state: ListPageState<Q, ListAnswer<T>>;
  testId: string;
  /** The filter card; a list without filters has none. */
  filters?: ListPageFilters;
  total: ListPageTotal;
  paginationTestId: string;
  /** The export, given the list's current query. */
  onExport?: (query: Q, format: ExportFormat) => Promise<void>;
  /** Above the filter card (a notice about the page). */
  top?: ReactNode;
  /** Between the filter card and the table. */
  middle?: ReactNode;
  /** After the table: hints, the page's dialogs. */
  children?: ReactNode;
  /** The page's sort, when it has one the person chooses: a saved view keeps and applies it. */
  sort?: { value: string; onChange: (value: string) => void };
}

/** The total above a list: "N in total", or "more than N" when the server stopped counting. */
export function ListTotal({ data, total }: { data: ListAnswer<unknown> | undefined; total: ListPageTotal }) {
  const { t } = useTranslation();
  const key = data?.total_capped ? 'common.totalCapped' : (total.textKey ?? 'common.total');
  const text = !data && total.beforeLoad !== undefined ? total.beforeLoad : t(key, { count: data?.total ?? 0 });
  const heading = total.strong ? (
    <Typography.Text strong data-testid={total.testId}>
      {text}
    </Typography.Text>
  ) : (
    <span data-testid={total.testId}>{text}</span>
  );
  return total.extra ? (
    <Space wrap size={12}>
      {heading}
      {total.extra}
    </Space>
  ) : (
    heading
  );
}

/**
 * A list page: the filter card, the table with its total heading, export and pager, wired
 * to `useListPage` once. The feature brings its fields, columns, query and test ids.
 */
export function ListPage<T extends object, Q>({
  state,
  testId,
  filters,
  total,
  paginationTestId,
  onExport,
  top,
  middle,
  children,
  sort,
  ...table
}: ListPageProps<T, Q>) {
  const [form] = Form.useForm();
  const { list, query } = state;
  // Held here rather than by the table: a saved view reads and applies them with the filters.
  const held = useTableSettings(table.listKey, table.columns, table.defaultDensity);
  const views = (
    <ListViewsMenu
      listKey={table.listKey}
      held={held}
      search={state.search}
      applyFilters={state.applyParams}
      sort={sort}
    />
  );
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid={testId}>
      {top}
      {filters ? (
        <FilterCard
          title={filters.title}
          extra={views}
          form={form}
          fields={filters.fields}
          values={state.values}
          testId={filters.testId}
          searchTestId={filters.searchTestId}
          resetTestId={filters.resetTestId}
          onSearch={state.onSearch}
          onReset={state.onReset}
        />
      ) : null}
      {middle}
      <HeldListTable<T>
        {...table}
        held={held}
        extra={
          filters ? (
            table.extra
          ) : (
            <>
              {views}
              {table.extra}
            </>
          )
        }
        title={<ListTotal data={list.data} total={total} />}
        onExport={onExport ? (format) => onExport(query, format) : undefined}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        pagination={{ ...state.pagination, testId: paginationTestId }}
      />
      {children}
    </Space>
  );
}
