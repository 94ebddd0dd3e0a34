import { Modal, notification } from 'antd';
import { useLayoutEffect } from 'react';
import { registerModal, registerNotification } from '@/lib/feedback';

/** Mount in the signed-in layout: registers themed dialogs and notifications. */
export function ModalNotificationHolder() {
  const [modalApi, modalHolder] = Modal.useModal();
  const [notificationApi, notificationHolder] = notification.useNotification();
  useLayoutEffect(() => {
    registerModal(modalApi);
    registerNotification(notificationApi);
    return () => {
      registerModal(null);
      registerNotification(null);
    };
  }, [modalApi, notificationApi]);
  return (
    <>
      {modalHolder}
      {notificationHolder}
    </>
  );
}
