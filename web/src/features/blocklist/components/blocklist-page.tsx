import { Alert, Button, Form, Input, Modal, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors, serverFieldErrors } from '@/lib/form-errors';
import { formatTime } from '@/lib/platform-time';
import { useSubmission } from '@/lib/submission';
import {
  addBlock,
  type BlockedNumber,
  exportBlocklist,
  importBlocklist,
  blocklistQueryOptions,
  removeBlock,
  useBlocklistChange,
} from '../api/blocklist';
import '@/locales/blocklist-texts';

/** Bar a number or a prefix, with the reason. */
function AddDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ pattern: string; reason: string }>();
  const add = useBlocklistChange(addBlock);
  // A double click submits twice before the first answer: barred (and audited) once.
  const submission = useSubmission();
  const submit = (values: { pattern: string; reason: string }) => {
    submission
      .run(values, () => add.mutateAsync(values))
      ?.then(() => {
        showSuccessMessage(t('blocklist.added'));
        onClose();
      })
      .catch((error: unknown) => applyServerFieldErrors(form, error));
  };
  return (
    <Modal
      open={open}
      title={t('blocklist.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={submission.pending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'blocklist-add-submit' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={submit}>
        <Form.Item
          name="pattern"
          label={t('blocklist.pattern')}
          extra={t('blocklist.patternHint')}
          rules={[{ required: true, whitespace: true, message: t('blocklist.patternRequired') }]}
        >
          <Input maxLength={32} inputMode="numeric" data-testid="blocklist-pattern" />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('blocklist.reason')}
          rules={[{ required: true, whitespace: true, message: t('blocklist.reasonRequired') }]}
        >
          <Input.TextArea maxLength={200} showCount rows={3} data-testid="blocklist-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Paste lines of "number or prefix, reason": all good or nothing imported, each bad line named. */
function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const run = useBlocklistChange(importBlocklist);
  const submission = useSubmission();
  const submit = () => {
    const started = submission.run(text, () => run.mutateAsync(text));
    if (!started) return;
    setProblems([]);
    started
      .then((result) => {
        showSuccessMessage(t('blocklist.imported', { lines: result.lines, added: result.added }));
        setText('');
        onClose();
      })
      .catch((error: unknown) =>
        setProblems(
          serverFieldErrors(error).map(({ name, message }) =>
            name.startsWith('line:') ? t('blocklist.importLine', { line: name.slice(5), message }) : message,
          ),
        ),
      );
  };
  return (
    <Modal
      open={open}
      title={t('blocklist.import')}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={submission.pending}
      okButtonProps={{ 'data-testid': 'blocklist-import-submit' } as Record<string, string>}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <span>{t('blocklist.importHint')}</span>
        <Input.TextArea
          rows={8}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={'13800138000,欺诈投诉\n1700,高风险号段'}
          aria-label={t('blocklist.import')}
          data-testid="blocklist-import-text"
        />
        {problems.length > 0 ? (
          <Alert
            type="error"
            showIcon
            title={t('blocklist.importRefused')}
            description={
              <ul data-testid="blocklist-import-errors">
                {problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            }
          />
        ) : null}
      </Space>
    </Modal>
  );
}

const SCHEMA: FilterSchema = { texts: ['pattern'] };

interface BlocklistQuery {
  pattern: string;
}

/** Address values → the list's query: entries starting with the digits typed (spaces dropped). */
export function toBlocklistQuery(values: FilterValues): BlocklistQuery {
  return { pattern: typeof values.pattern === 'string' ? values.pattern.replace(/\s+/g, '') : '' };
}

/** The blocklist (/qoute/blocklist, administrators). */
export default function BlocklistPage() {
  const { t } = useTranslation();
  const state = useListPage({
    schema: SCHEMA,
    paging: 'numbers',
    toQuery: toBlocklistQuery,
    queryOptions: (query, page) => blocklistQueryOptions(query.pattern, page.page, page.page_size),
  });
  const remove = useBlocklistChange(removeBlock);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);

  const columns: ListColumn<BlockedNumber>[] = [
    { key: 'pattern', title: t('blocklist.pattern'), dataIndex: 'pattern', phone: true, phoneWidth: 130 },
    {
      key: 'kind',
      title: t('blocklist.kind'),
      dataIndex: 'pattern',
      render: (value: string) => t(value.length === 11 ? 'blocklist.kind.number' : 'blocklist.kind.prefix'),
    },
    { key: 'reason', title: t('blocklist.reason'), dataIndex: 'reason', ellipsis: true },
    { key: 'created_by', title: t('blocklist.createdBy'), dataIndex: 'created_by' },
    {
      key: 'created_at',
      title: t('blocklist.createdAt'),
      dataIndex: 'created_at',
      render: (value: string) => formatTime(value),
    },
    {
      key: 'actions',
      title: t('blocklist.actions'),
      phone: true,
      phoneWidth: 80,
      render: (_: unknown, entry: BlockedNumber) => (
        <Popconfirm
          title={t('blocklist.removeConfirm', { pattern: entry.pattern })}
          onConfirm={() => remove.mutate(entry.id, { onSuccess: () => showSuccessMessage(t('blocklist.removed')) })}
        >
          <Button type="link" size="small" danger data-testid={`blocklist-remove-${entry.pattern}`}>
            {t('blocklist.remove')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <ListPage<BlockedNumber, BlocklistQuery>
      state={state}
      testId="blocklist-page"
      filters={{
        title: t('menu.qoute.blocklist'),
        fields: [
          {
            name: 'pattern',
            label: t('blocklist.search'),
            input: <Input allowClear placeholder="138" data-testid="blocklist-filter-pattern" />,
          },
        ],
        testId: 'blocklist-filters',
        searchTestId: 'blocklist-search',
        resetTestId: 'blocklist-reset',
      }}
      total={{ testId: 'blocklist-total', textKey: 'blocklist.total' }}
      listKey="blocklist"
      columns={columns}
      rowKey="id"
      tableTestId="blocklist-table"
      paginationTestId="blocklist-pagination"
      onExport={(_query, format) => exportBlocklist(format)}
      extra={
        <Space>
          <Button onClick={() => setImporting(true)} data-testid="blocklist-import">
            {t('blocklist.import')}
          </Button>
          <Button type="primary" onClick={() => setAdding(true)} data-testid="blocklist-add">
            {t('blocklist.add')}
          </Button>
        </Space>
      }
    >
      <AddDialog open={adding} onClose={() => setAdding(false)} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
    </ListPage>
  );
}
