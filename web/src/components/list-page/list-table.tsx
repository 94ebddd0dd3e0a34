import {
  Alert,
  Button,
  Card,
  Empty,
  Grid,
  Pagination,
  Space,
  Table,
  type TableColumnType,
  type TableProps,
  Tooltip,
} from 'antd';
import { type HTMLAttributes, type Key, type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons, type ExportFormat } from '@/components/export-buttons/export-buttons';
import { applySettings, type Density } from './column-settings';
import { ColumnSettingsButton, DensityButton } from './column-settings-button';
import { ListViewsMenu } from './list-views-menu';
import { pinned, type TableSettings, useTableSettings } from './use-table-settings';
import './list-page.css';

/** A list column: a key is required (settings are kept by key). */
export type ListColumn<T> = TableColumnType<T> & {
  key: string;
  /** Kept on a phone-sized screen; when any column says so, the others hide there. */
  phone?: boolean;
  /** Its width on a phone, when narrower than on a wide screen (cut with an ellipsis). */
  phoneWidth?: number;
  /** Left out until the person adds it in the column settings (a reset hides it again). */
  defaultHidden?: boolean;
};

export interface ListPagination {
  current: number;
  pageSize: number;
  total: number;
  onChange: (page: number, pageSize: number) => void;
  pageSizeOptions?: number[];
  testId?: string;
}

export interface ListTableProps<T> {
  /** Names the list's saved column settings ("orders-ordinary", "quotes" …). */
  listKey: string;
  /** The card's heading: usually the total. */
  title: ReactNode;
  columns: ListColumn<T>[];
  dataSource: readonly T[];
  rowKey: string | ((record: T) => Key);
  loading: boolean;
  /** The list failed and has nothing to show: an alert with a retry replaces the table. */
  error: boolean;
  onRetry: () => void;
  errorTestId?: string;
  tableTestId: string;
  onExport?: (format: ExportFormat) => Promise<void>;
  onTableChange?: TableProps<T>['onChange'];
  /** Check boxes for acting on several rows at once (the review queue). */
  rowSelection?: TableProps<T>['rowSelection'];
  /** Row events (a click that opens the row's editor); keep a button for keyboards too. */
  onRow?: TableProps<T>['onRow'];
  pagination?: ListPagination;
  defaultDensity?: Density;
  className?: string;
  /** More toolbar buttons, left of export. */
  extra?: ReactNode;
}

export interface ShortListProps<T> extends ListTableProps<T> {
  /**
   * A saved-views menu for a list without filters (its views keep the columns and density);
   * a list with filters is a `ListPage`, whose views keep those too.
   */
  savedViews?: boolean;
}

/** Horizontal padding of a cell at each density (antd's table sizes). */
const CELL_PADDING: Record<Density, number> = { large: 32, middle: 16, small: 16 };

/**
 * The widest a text cell grows in a column without a width: a 64-character merchant or
 * product name would otherwise stretch its column and push the rest of the table off screen.
 */
export const TEXT_CELL_MAX_WIDTH = 240;

/** Cut text (ellipsis) whose full text a tooltip shows on hover, only when it is cut. */
function CutCell({ maxWidth, full, children }: { maxWidth: number; full: ReactNode; children: ReactNode }) {
  const box = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  const cut = () => (box.current ? box.current.scrollWidth > box.current.clientWidth : false);
  return (
    <Tooltip title={full} open={open} onOpenChange={(next) => setOpen(next && cut())}>
      <span ref={box} className="list-table__cut" style={{ maxWidth }}>
        {children}
      </span>
    </Tooltip>
  );
}

const isText = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';

/**
 * Every cell names its column (data-column): stable hooks for tests and styles. Long text is
 * cut with an ellipsis and shown whole in a tooltip: in a column with `ellipsis` (at its
 * width, or TEXT_CELL_MAX_WIDTH without one) and in any column whose cell is plain text
 * (at TEXT_CELL_MAX_WIDTH, or its width). Headers are not cut but wrap instead: "Recharge
 * account" stays readable in English in a narrow column. Pinned columns (actions) are left as
 * they are.
 */
function tagged<T>(column: ListColumn<T>, density: Density): ListColumn<T> {
  // TSX accepts data-* only as JSX attributes; as an object it needs the cast.
  const attributes = (extra: object | undefined) =>
    ({ ...extra, 'data-column': column.key }) as HTMLAttributes<HTMLElement>;
  const width = column.width;
  const maxWidth = typeof width === 'number' ? width - CELL_PADDING[density] : TEXT_CELL_MAX_WIDTH;
  const render: ListColumn<T>['render'] = pinned(column)
    ? column.render
    : (value, record, index) => {
        const content = column.render ? (column.render(value, record, index) as ReactNode) : (value as ReactNode);
        if (!column.ellipsis && !isText(content)) return content;
        return (
          <CutCell maxWidth={maxWidth} full={content}>
            {content}
          </CutCell>
        );
      };
  return {
    ...column,
    ellipsis: false,
    render,
    onCell: (record, index) => attributes(column.onCell?.(record, index)),
    onHeaderCell: (header) => attributes(column.onHeaderCell?.(header)),
  };
}

/** On a phone nothing is fixed (it would take the little room there is) and widths shrink. */
function onPhone<T>(column: ListColumn<T>): ListColumn<T> {
  const narrower = column.phoneWidth !== undefined;
  return {
    ...column,
    fixed: undefined,
    width: column.phoneWidth ?? column.width,
    ellipsis: narrower ? true : column.ellipsis,
  };
}

/**
 * The table half of a list page: a toolbar (total, export, density, column settings), the
 * error alert or the table, and the pager. On a phone the toolbar wraps instead of cutting
 * the total, only the columns marked `phone` show, nothing is fixed and the pager is the
 * simple one, so everything stays on screen.
 */
export function ListTable<T extends object>({ savedViews, ...props }: ShortListProps<T>) {
  const held = useTableSettings(props.listKey, props.columns, props.defaultDensity);
  const extra = savedViews ? (
    <>
      <ListViewsMenu listKey={props.listKey} held={held} search="" />
      {props.extra}
    </>
  ) : (
    props.extra
  );
  return <HeldListTable {...props} held={held} extra={extra} />;
}

/** `ListTable` with its column settings held by the caller (the list page, for saved views). */
export function HeldListTable<T extends object>(props: ListTableProps<T> & { held: TableSettings<ListColumn<T>> }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const phone = screens.md === false;
  const { settable, settings, update, reset } = props.held;

  const columns = useMemo(() => {
    const shown = applySettings(props.columns, settings, pinned).map(({ defaultHidden: _, ...column }) => column);
    const phoneOnly = phone && shown.some((column) => column.phone);
    return shown
      .filter((column) => !phoneOnly || column.phone)
      .map((column) => tagged(phone ? onPhone(column) : column, settings.density));
  }, [props.columns, settings, phone]);

  // Fixed widths hold only against a known table width: the sum when every column has one.
  const widths = columns.map((column) => column.width);
  const fixedLayout = widths.every((width) => typeof width === 'number');
  const scrollX = fixedLayout ? (widths as number[]).reduce((sum, width) => sum + width, 0) : 'max-content';
  const pagination = props.pagination;
  return (
    <Card size="small" className={`list-table ${props.className ?? ''}`}>
      <div className="list-table__toolbar">
        <div className="list-table__title">{props.title}</div>
        <Space wrap size={8} className="list-table__tools">
          {props.extra}
          {props.onExport ? <ExportButtons onExport={props.onExport} /> : null}
          <DensityButton
            value={settings.density}
            onChange={(density) => update((current) => ({ ...current, density }))}
          />
          <ColumnSettingsButton
            columns={settable.map((column) => ({ key: column.key, title: column.title as ReactNode }))}
            settings={settings}
            onChange={update}
            onReset={reset}
          />
        </Space>
      </div>
      {props.error ? (
        <Alert
          type="error"
          showIcon
          title={t('common.loadFailed')}
          action={<Button onClick={props.onRetry}>{t('common.retry')}</Button>}
          data-testid={props.errorTestId}
        />
      ) : (
        <>
          <Table<T>
            rowKey={props.rowKey}
            size={settings.density}
            columns={columns}
            dataSource={props.dataSource}
            loading={props.loading}
            pagination={false}
            scroll={{ x: scrollX }}
            tableLayout={fixedLayout ? 'fixed' : 'auto'}
            data-testid={props.tableTestId}
            data-density={settings.density}
            locale={{ emptyText: <Empty description={t('common.empty')} /> }}
            onChange={props.onTableChange}
            rowSelection={props.rowSelection}
            onRow={props.onRow}
          />
          {pagination ? (
            <div className="list-table__pagination">
              <Pagination
                current={pagination.current}
                pageSize={pagination.pageSize}
                total={pagination.total}
                simple={phone}
                size={phone ? 'small' : undefined}
                showSizeChanger={!phone}
                pageSizeOptions={pagination.pageSizeOptions ?? [10, 20, 50, 100]}
                showTotal={phone ? undefined : (total) => t('common.total', { count: total })}
                onChange={pagination.onChange}
                data-testid={pagination.testId}
              />
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}
