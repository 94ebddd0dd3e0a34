import { message } from 'antd';
import { useLayoutEffect } from 'react';
import { registerMessage } from '@/lib/feedback';

/** Mount once at the root: registers themed, localised toasts for the whole console. */
export function MessageHolder() {
  const [api, holder] = message.useMessage();
  useLayoutEffect(() => {
    registerMessage(api);
    return () => registerMessage(null);
  }, [api]);
  return holder;
}
