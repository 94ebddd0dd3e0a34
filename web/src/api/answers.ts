/**
 * The success answer (the envelope's `data`) of each path the console calls, by schema name.
 * The server's OpenAPI document declares no content for its 200 answers: it names the `data`
 * schema only in each answer's description ("`data` is a list of AuditAction"), and this
 * table writes those names down as types. Only names of the document's schemas go here,
 * never a shape: when the document declares an answer's content, lib/api-paths takes the
 * declared type instead and the entry can go.
 */
import type { components } from './schema';

type S<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface PostAnswers {
  '/adminapi/admin/audit/actions': S<'AuditAction'>[];
  '/adminapi/admin/audit/list': S<'AuditListResponse'>;
  '/adminapi/admin/channel/enable': null;
  '/adminapi/admin/channel/list': S<'ChannelItem'>[];
  '/adminapi/admin/channel/products': S<'SupplyItem'>[];
  '/adminapi/admin/channel/products/save': null;
  '/adminapi/admin/channel/reconcile': S<'Reconciliation'>;
  '/adminapi/admin/channel/routing': S<'RouteItem'>[];
  '/adminapi/admin/channel/save': S<'SavedChannel'>;
  '/adminapi/admin/channel/test': S<'TestResult'>;
  '/adminapi/admin/merchant/addUser': S<'TemporaryCredentials'>;
  '/adminapi/admin/merchant/adjust': S<'Account'>;
  '/adminapi/admin/merchant/create': S<'TemporaryCredentials'>;
  '/adminapi/admin/merchant/credit': S<'Account'>;
  '/adminapi/admin/merchant/disable': S<'MerchantState'>;
  '/adminapi/admin/merchant/enable': S<'MerchantState'>;
  '/adminapi/admin/merchant/list': S<'MerchantListResponse'>;
  '/adminapi/admin/merchant/repay': S<'Account'>;
  '/adminapi/admin/merchant/resetPassword': S<'TemporaryCredentials'>;
  '/adminapi/admin/merchant/topup': S<'Account'>;
  '/adminapi/admin/merchant/update': S<'MerchantState'>;
  '/adminapi/admin/merchant/users': S<'MerchantUserItem'>[];
  '/adminapi/admin/order/querySupplier': S<'QuerySupplierAnswer'>;
  '/adminapi/admin/order/resolve': S<'OrderItem'>;
  '/adminapi/admin/order/resolveMany': S<'ResolveManyResponse'>;
  '/adminapi/admin/order/sendToChannel': S<'OrderItem'>;
  '/adminapi/admin/product/create': number;
  '/adminapi/admin/product/delete': null;
  '/adminapi/admin/product/update': null;
  '/adminapi/admin/quote/history': S<'PriceHistoryResponse'>;
  '/adminapi/admin/quote/import': S<'ImportOutcome'>;
  '/adminapi/admin/quote/reprice/apply': S<'RepricePreview'>;
  '/adminapi/admin/quote/reprice/preview': S<'RepricePreview'>;
  '/adminapi/admin/quote/save': S<'QuoteItem'>;
  '/adminapi/admin/stepUp/confirm': S<'StepUpResponse'>;
  '/adminapi/admin/user/reset2FA': null;
  '/adminapi/apikey/create': S<'CreatedKey'>;
  '/adminapi/apikey/list': S<'KeyItem'>[];
  '/adminapi/apikey/revoke': null;
  '/adminapi/apikey/setLegacy': null;
  '/adminapi/apikey/signCheck': S<'SignCheckResponse'>;
  '/adminapi/certification/detail': S<'CertificationRecord'>;
  '/adminapi/certification/licence': S<'LicenceSaved'>;
  '/adminapi/certification/list': S<'CertificationRecord'>[];
  '/adminapi/certification/review': S<'CertificationRecord'>;
  '/adminapi/certification/submit': S<'CertificationRecord'>;
  '/adminapi/certification/withdraw': S<'CertificationRecord'>;
  '/adminapi/finance/account/list': S<'LogListResponse'>;
  '/adminapi/finance/overview': S<'Overview'>;
  '/adminapi/finance/statement': S<'Statement'>[];
  '/adminapi/google-auth/disable2FA': null;
  '/adminapi/google-auth/enable2FA': S<'BackupCodesResponse'>;
  '/adminapi/google-auth/regenerateBackupCodes': S<'BackupCodesResponse'>;
  '/adminapi/login/login': S<'LoginResponse'> | S<'PendingLoginResponse'>;
  '/adminapi/login/logout': null;
  '/adminapi/login/verify2FA': S<'LoginResponse'>;
  '/adminapi/merchant/avatar': S<'AvatarSaved'>;
  '/adminapi/merchant/changeInfo': S<'ProfileView'>;
  '/adminapi/merchant/changeIntegration': S<'ProfileView'>;
  '/adminapi/merchant/changePassword': S<'PasswordChanged'>;
  '/adminapi/merchant/profile': S<'ProfileView'>;
  '/adminapi/merchant/security': S<'ProfileView'>;
  '/adminapi/merchant/userInfo': S<'UserInfo'>;
  '/adminapi/message/list': S<'MessageItem'>[];
  '/adminapi/message/read': S<'MarkReadResult'>;
  '/adminapi/message/readAll': S<'MarkReadResult'>;
  '/adminapi/monitor/stream/ticket': S<'StreamTicket'>;
  '/adminapi/notify/attempts': S<'OrderNotifications'>;
  '/adminapi/notify/list': S<'NotifyListResponse'>;
  '/adminapi/notify/resend': S<'Resent'>;
  '/adminapi/notify/resendFailed': S<'Resent'>;
  '/adminapi/notify/rotateSecret': S<'RotateSecretResponse'>;
  '/adminapi/notify/test': S<'AttemptResult'>;
  '/adminapi/order/add': S<'AddOrderResponse'>;
  '/adminapi/order/batch/detail': S<'BatchDetail'>;
  '/adminapi/order/batch/discard': null;
  '/adminapi/order/batch/list': S<'BatchListResponse'>;
  '/adminapi/order/batch/preview': S<'PreviewResponse'>;
  '/adminapi/order/batch/submit': S<'BatchSummary'>;
  '/adminapi/order/card/reveal': S<'RevealedCard'>;
  '/adminapi/order/detail': S<'OrderDetail'>;
  '/adminapi/order/list': S<'OrderListResponse'>;
  '/adminapi/order/price': S<'PriceResponse'>;
  '/adminapi/product/list': S<'Product'>[];
  '/adminapi/quote/list': S<'QuoteListResponse'>;
  '/api/template/channel-form/submit': S<'ChannelFormReceipt'>;
  '/api/user/menu': S<'MenuEntry'>[];
}

export interface GetAnswers {
  '/adminapi/certification/pendingCount': S<'PendingCount'>;
  '/adminapi/google-auth/get2FAStatus': S<'StatusResponse'>;
  '/adminapi/google-auth/setup2FA': S<'SetupResponse'>;
  '/adminapi/merchant/activity': S<'ActivityItem'>[];
  '/adminapi/message/unreadCount': S<'UnreadCounts'>;
  '/adminapi/monitor/overview': S<'MonitorOverview'>;
  '/api/system/info': S<'SystemInfo'>;
  '/api/template/chat/list': S<'ChatItem'>[];
  '/api/template/content-data': S<'ContentPoint'>[];
  '/api/template/policy/list': S<'PolicyPage'>;
  '/api/template/popular/list': S<'PopularItem'>[];
  '/api/template/quality-inspection/list': S<'QualityInspection'>[];
  '/api/template/rules-preset/list': S<'RulePreset'>[];
  '/api/template/the-service/list': S<'ServiceItem'>[];
  '/api/template/user/latest-activity': S<'Activity'>[];
  '/api/template/user/my-project/list': S<'Project'>[];
  '/api/template/user/my-team/list': S<'Team'>[];
  '/api/template/user/project-and-team/list': S<'ProjectsAndTeams'>;
  '/api/template/user/visits': S<'Visits'>[];
}
