import { Space, Typography } from 'antd';

/** A channel as both tables show it: its name, its code beneath. */
export function ChannelName({ name, code }: { name: string; code: string }) {
  return (
    <Space orientation="vertical" size={0}>
      <span>{name}</span>
      <Typography.Text type="secondary" code>
        {code}
      </Typography.Text>
    </Space>
  );
}
