/**
 * A bridge to antd's context-aware feedback (message, modal, notification) for code outside
 * React: the request client, store actions, the route guard.
 *
 * Holders mounted by the pages that render antd (the signed-in layout, the not-found page)
 * register the instances. The login page renders no antd: a toast or dialog asked for there
 * loads antd's static message / Modal on demand (lib/static-feedback). Notifications sent
 * before their holder mounts wait for it.
 */
import type { MessageInstance } from 'antd/es/message/interface';
import type { ModalFuncProps } from 'antd/es/modal/interface';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal';
import type { ArgsProps as NotificationArgs, NotificationInstance } from 'antd/es/notification/interface';

let messageApi: MessageInstance | null = null;
let modalApi: ModalApi | null = null;
let notificationApi: NotificationInstance | null = null;

type NotificationKind = 'info' | 'success' | 'error' | 'warning';
let pendingNotifications: { kind: NotificationKind; args: NotificationArgs }[] = [];

export function registerMessage(api: MessageInstance | null): void {
  messageApi = api;
}

export function registerModal(api: ModalApi | null): void {
  modalApi = api;
}

export function registerNotification(api: NotificationInstance | null): void {
  notificationApi = api;
  if (api && pendingNotifications.length) {
    const queued = pendingNotifications;
    pendingNotifications = [];
    queued.forEach(({ kind, args }) => api[kind](args));
  }
}

/**
 * Show an error toast for `durationSeconds`. Toasts with the same `key` are one toast (the
 * newest replaces the one showing), for a failure several calls meet at once.
 */
export function showErrorMessage(content: string, durationSeconds: number, key?: string): void {
  const args = { content, duration: durationSeconds, key };
  if (messageApi) void messageApi.error(args);
  else void loadStaticFeedback().then(({ message }) => message.error(args));
}

export function showSuccessMessage(content: string): void {
  if (messageApi) void messageApi.success(content);
  else void loadStaticFeedback().then(({ message }) => message.success(content));
}

export function showWarningMessage(content: string): void {
  if (messageApi) void messageApi.warning(content);
  else void loadStaticFeedback().then(({ message }) => message.warning(content));
}

let staticFeedbackUsed = false;
const loadStaticFeedback = () => {
  staticFeedbackUsed = true;
  return import('./static-feedback');
};

/** Remove every toast still showing: a failed sign-in's error has no place on the workplace. */
export function clearMessages(): void {
  messageApi?.destroy();
  if (staticFeedbackUsed) void loadStaticFeedback().then(({ message }) => message.destroy());
}

/** Show a notification now, or as soon as the layout's holder mounts. */
export function notify(kind: NotificationKind, args: NotificationArgs): void {
  if (notificationApi) notificationApi[kind](args);
  else pendingNotifications.push({ kind, args });
}

/** Open an error dialog (context-aware in the layout, antd's static Modal elsewhere). */
export function openErrorDialog(config: ModalFuncProps): void {
  if (modalApi) {
    modalApi.error(config);
    return;
  }
  void loadStaticFeedback().then(({ Modal }) => Modal.error(config));
}

/** Only for tests. */
export function resetFeedbackForTests(): void {
  messageApi = null;
  modalApi = null;
  notificationApi = null;
  pendingNotifications = [];
}
