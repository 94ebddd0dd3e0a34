import { DeleteOutlined } from '@ant-design/icons';
import { Button, Checkbox, Form, Input, List, Modal, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePermission } from '@/components/permission/use-permission';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import type { ViewState } from './saved-views';
import { type SavedView, useSavedViewActions } from './saved-views-api';

/** As long as the server takes (`view.name.too_long`). */
const MAX_NAME = 40;

interface SaveForm {
  name: string;
  shared?: boolean;
  makeDefault?: boolean;
}

/** The share switch's words: a merchant's users share within the merchant, administrators among themselves. */
function useShareLabel(): string {
  const { t } = useTranslation();
  return usePermission(['admin']) ? t('listPage.views.shareAdmins') : t('listPage.views.shareMerchant');
}

/** "Save current as…": a name, shared or not, the page's default or not. */
export function SaveViewDialog({
  open,
  page,
  capture,
  onSaved,
  onClose,
}: {
  open: boolean;
  page: string;
  capture: () => ViewState;
  onSaved: (view: SavedView) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SaveForm>();
  const { create } = useSavedViewActions(page);
  const shareLabel = useShareLabel();
  return (
    <Modal
      open={open}
      title={t('listPage.views.saveTitle')}
      okText={t('listPage.views.save')}
      onOk={() => form.submit()}
      confirmLoading={create.isPending}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ ...({ 'data-testid': 'saved-view-submit' } as Record<string, string>) }}
    >
      <Form<SaveForm>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(values) =>
          create.mutate(
            {
              name: values.name,
              shared: values.shared ?? false,
              makeDefault: values.makeDefault ?? false,
              state: { ...capture() },
            },
            {
              onSuccess: (view) => {
                showSuccessMessage(t('listPage.views.saved', { name: view.name }));
                onSaved(view);
                onClose();
              },
              onError: (error) => applyServerFieldErrors(form, error, { knownFields: ['name'] }),
            },
          )
        }
      >
        <Form.Item
          name="name"
          label={t('listPage.views.name')}
          rules={[{ required: true, whitespace: true, message: t('listPage.views.nameRequired') }]}
        >
          <Input maxLength={MAX_NAME} showCount autoFocus data-testid="saved-view-name" />
        </Form.Item>
        <Form.Item name="shared" valuePropName="checked" noStyle>
          <Checkbox data-testid="saved-view-shared">{shareLabel}</Checkbox>
        </Form.Item>
        <div />
        <Form.Item name="makeDefault" valuePropName="checked" noStyle>
          <Checkbox data-testid="saved-view-default">{t('listPage.views.makeDefault')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The page's views: default, share, rename and delete one's own; others' are read-only. */
export function ManageViewsDialog({
  open,
  page,
  views,
  defaultId,
  onClose,
}: {
  open: boolean;
  page: string;
  views: SavedView[];
  defaultId: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { update, remove, setDefault } = useSavedViewActions(page);
  const shareLabel = useShareLabel();
  return (
    <Modal open={open} title={t('listPage.views.manageTitle')} onCancel={onClose} footer={null} destroyOnHidden>
      <List
        dataSource={views}
        data-testid="saved-views-list"
        renderItem={(view) => {
          const isDefault = view.id === defaultId;
          return (
            <List.Item
              data-testid={`saved-view-row-${view.name}`}
              actions={[
                <Button
                  key="default"
                  size="small"
                  type="link"
                  onClick={() => setDefault.mutate(isDefault ? null : view.id)}
                  data-testid="saved-view-make-default"
                >
                  {isDefault ? t('listPage.views.clearDefault') : t('listPage.views.setDefault')}
                </Button>,
                ...(view.mine
                  ? [
                      <Popconfirm
                        key="delete"
                        title={t('listPage.views.deleteConfirm', { name: view.name })}
                        onConfirm={() => remove.mutate(view.id)}
                      >
                        <Button
                          size="small"
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('listPage.views.delete')}
                          data-testid="saved-view-delete"
                        />
                      </Popconfirm>,
                    ]
                  : []),
              ]}
            >
              <Space orientation="vertical" size={2}>
                <Space size={6} wrap>
                  {view.mine ? (
                    <Typography.Text
                      editable={{
                        maxLength: MAX_NAME,
                        tooltip: t('listPage.views.rename'),
                        text: view.name,
                        onChange: (name) => {
                          if (name.trim() && name !== view.name) update.mutate({ id: view.id, name });
                        },
                      }}
                    >
                      {view.name}
                    </Typography.Text>
                  ) : (
                    <Typography.Text>{view.name}</Typography.Text>
                  )}
                  {isDefault ? <Tag color="blue">{t('listPage.views.default')}</Tag> : null}
                </Space>
                {view.mine ? (
                  <Space size={6}>
                    <Switch
                      size="small"
                      checked={view.shared}
                      onChange={(shared) => update.mutate({ id: view.id, shared })}
                      aria-label={shareLabel}
                      data-testid="saved-view-share"
                    />
                    <Typography.Text type="secondary">{shareLabel}</Typography.Text>
                  </Space>
                ) : (
                  <Typography.Text type="secondary">
                    {t('listPage.views.readOnly', { owner: view.owner })}
                  </Typography.Text>
                )}
              </Space>
            </List.Item>
          );
        }}
      />
    </Modal>
  );
}
