import { CameraOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Space, Typography, Upload, type UploadProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAvatarUrl } from '@/components/avatar/use-avatar-url';
import { showErrorMessage, showSuccessMessage } from '@/lib/feedback';
import { ERROR_MESSAGE_SECONDS } from '@/lib/request';
import { AVATAR_TYPES, MAX_AVATAR_BYTES, useUploadAvatar } from '../api/upload-avatar';

/** The avatar with an upload button (antd Upload through the console's request client). */
export function AvatarField() {
  const { t } = useTranslation();
  const url = useAvatarUrl();
  const upload = useUploadAvatar();

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (!AVATAR_TYPES.includes(file.type)) {
      showErrorMessage(t('userSetting.basic.avatar.wrongType'), ERROR_MESSAGE_SECONDS);
      return Upload.LIST_IGNORE;
    }
    if (file.size > MAX_AVATAR_BYTES) {
      showErrorMessage(t('userSetting.basic.avatar.tooLarge'), ERROR_MESSAGE_SECONDS);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  // The request client adds the session headers and handles the envelope.
  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    upload.mutate(file as Blob, {
      onSuccess: (saved) => {
        showSuccessMessage(t('userSetting.basic.avatar.success'));
        onSuccess?.(saved);
      },
      onError: (error) => onError?.(error as Error),
    });
  };

  return (
    <Space size={16} align="center" data-testid="avatar-field">
      <Avatar size={72} src={url} icon={<UserOutlined />} data-testid="avatar-preview" />
      <Space orientation="vertical" size={4}>
        <Upload
          accept={AVATAR_TYPES.join(',')}
          showUploadList={false}
          beforeUpload={beforeUpload}
          customRequest={customRequest}
        >
          <Button icon={<CameraOutlined />} loading={upload.isPending} data-testid="avatar-upload-button">
            {t('userSetting.basic.avatar.upload')}
          </Button>
        </Upload>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('userSetting.basic.avatar.hint')}
        </Typography.Text>
      </Space>
    </Space>
  );
}
