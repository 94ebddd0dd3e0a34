//! Every server text exists in both languages: no key lacks one, none is empty, the
//! Chinese text is Chinese and the English one is not. A new message variant must be
//! added to the lists below (the `match`es refuse to compile otherwise).

use super::files::{self, Labels};
use super::notices::Notice;
use super::{
    AdminMessage, CatalogueMessage, ChannelMessage, FileKind, FundingMessage, Locale, Message, NotifyMessage,
    OpenApiMessage, TemplateMessage, TradeMessage, UserCentreMessage, ViewMessage, WindowMessage,
};
use crate::domain::Carrier;
use std::collections::HashSet;

fn is_chinese(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

fn check(key: &str, zh: &str, en: &str) {
    assert!(!zh.trim().is_empty(), "{key}: the Chinese text is empty");
    assert!(!en.trim().is_empty(), "{key}: the English text is empty");
    assert!(zh.chars().any(is_chinese), "{key}: the Chinese text {zh:?} has no Chinese");
    assert!(!en.chars().any(is_chinese), "{key}: the English text {en:?} has Chinese in it");
}

fn trade_messages() -> Vec<TradeMessage> {
    use TradeMessage::*;
    let all = vec![
        AccountRequired,
        AccountInvalid,
        CarrierMismatch { number: Carrier::Mobile, product: Carrier::Unicom },
        NumberPorted { from: Carrier::Mobile },
        OutOfScope { carrier: Carrier::Mobile, province: Some(440_000) },
        AccountBlocked,
        NumberInFlight,
        NumberDailyOrders { max: 3 },
        NumberDailyAmount { max_fen: 30_000 },
        MerchantDailyCap { cap_fen: 1_000_000 },
        WindowClosed { title: "upgrade".into(), until: "2026-12-01 02:00".into() },
        RiskLimitInvalid,
        BlockPatternInvalid,
        BlockReasonInvalid { max: 200 },
        BlockPatternTaken,
        BlockImportSize { max: 10_000 },
        ProductRequired,
        ProductUnknown,
        QuoteUnavailable,
        MerchantOrderIdInvalid,
        MerchantOrderIdDuplicate,
        DuplicateInFile,
        InsufficientFunds,
        AmountInvalid,
        AdjustmentInvalid,
        AdjustmentBelowZero,
        AdjustmentRemarkRequired,
        CreditLimitBelowUsed,
        RepaymentTooLarge,
        OrderNotResolvable,
        OrderNotReversible,
        ReversalReasonInvalid { max: 200 },
        SerialRequired,
        CardNotDelivered,
        CardOrderNeedsCard,
        CardExportPasswordWeak,
        CardExportNoneChosen,
        CardExportTooMany { max: 10_000 },
        CardExportNothing,
        InvalidChoice { allowed: "a, b" },
        ProvinceInvalid,
        CursorInvalid,
        PageSizeInvalid { max: 500 },
        TimeInvalid,
        StatementPeriodInvalid,
        ReportRangeInvalid { max_days: 366 },
        BatchEmpty,
        BatchTooLarge { max: 10 },
        BatchFileUnreadable,
        BatchLineIncomplete,
        BatchCellTooLong,
        BatchFileNotUtf8 { line: 3 },
        BatchLineTooLong { line: 3, max: 4096 },
        BatchFileUnpackedTooLarge { max_mb: 64 },
        BatchFileTooManyRows { max: 100_000 },
        BatchFileTooManyCells { max: 1_000_000 },
        BatchFileTooDeep { max: 64 },
        BatchFileTooSlow { seconds: 10 },
        BatchFileNameTooLong { max: 100 },
        BatchLineNul { line: 3 },
        BatchFileKind { kind: FileKind::Pdf },
        QuoteChanged,
        BatchExpired,
        BatchNotDiscardable,
        BatchSubmitted,
        BatchNotFound,
        SegmentPhoneInvalid,
        SegmentUnknown { prefix: 1_380_013 },
    ];
    for message in &all {
        match message {
            AccountRequired
            | AccountInvalid
            | CarrierMismatch { .. }
            | NumberPorted { .. }
            | OutOfScope { .. }
            | AccountBlocked
            | NumberInFlight
            | NumberDailyOrders { .. }
            | NumberDailyAmount { .. }
            | MerchantDailyCap { .. }
            | WindowClosed { .. }
            | RiskLimitInvalid
            | BlockPatternInvalid
            | BlockReasonInvalid { .. }
            | BlockPatternTaken
            | BlockImportSize { .. }
            | ProductRequired
            | ProductUnknown
            | QuoteUnavailable
            | MerchantOrderIdInvalid
            | MerchantOrderIdDuplicate
            | DuplicateInFile
            | InsufficientFunds
            | AmountInvalid
            | AdjustmentInvalid
            | AdjustmentBelowZero
            | AdjustmentRemarkRequired
            | CreditLimitBelowUsed
            | RepaymentTooLarge
            | OrderNotResolvable
            | OrderNotReversible
            | ReversalReasonInvalid { .. }
            | SerialRequired
            | CardNotDelivered
            | CardOrderNeedsCard
            | CardExportPasswordWeak
            | CardExportNoneChosen
            | CardExportTooMany { .. }
            | CardExportNothing
            | InvalidChoice { .. }
            | ProvinceInvalid
            | CursorInvalid
            | PageSizeInvalid { .. }
            | TimeInvalid
            | StatementPeriodInvalid
            | ReportRangeInvalid { .. }
            | BatchEmpty
            | BatchTooLarge { .. }
            | BatchFileUnreadable
            | BatchLineIncomplete
            | BatchCellTooLong
            | BatchFileNotUtf8 { .. }
            | BatchLineTooLong { .. }
            | BatchFileUnpackedTooLarge { .. }
            | BatchFileTooManyRows { .. }
            | BatchFileTooManyCells { .. }
            | BatchFileTooDeep { .. }
            | BatchFileTooSlow { .. }
            | BatchFileNameTooLong { .. }
            | BatchLineNul { .. }
            | BatchFileKind { .. }
            | QuoteChanged
            | BatchExpired
            | BatchNotDiscardable
            | BatchSubmitted
            | BatchNotFound
            | SegmentPhoneInvalid
            | SegmentUnknown { .. } => {}
        }
    }
    all
}

fn user_centre_messages() -> Vec<UserCentreMessage> {
    use UserCentreMessage::*;
    let all = vec![
        EmailRequired,
        EmailInvalid,
        NicknameRequired,
        CountryRegionRequired,
        AreaRequired,
        TooLong { max: 20 },
        NotifyUrlInvalid,
        IpWhitelistInvalid { entry: "1.2.3".into() },
        IpWhitelistChineseComma,
        IpWhitelistTooMany { max: 20 },
        PhoneInvalid,
        WebsiteInvalid,
        CurrentPasswordRequired,
        CurrentPasswordWrong,
        NewPasswordSameAsOld,
        SecurityAnswerRequired,
        AvatarMissing,
        AvatarNotAnImage,
        AvatarTooLarge { max_kib: 512 },
        LicenceNotAnImage,
        LicenceTooLarge { max_kib: 5120 },
        LicenceNotEditable,
        CertificationFieldRequired,
        CertificationPending,
        CertificationNotWithdrawable,
        CertificationNotReviewable,
        RejectReasonRequired,
        DecisionInvalid,
        IdsInvalid,
        AccountTypeInvalid,
        CertificateTypeInvalid,
        CreditCodeInvalid,
        OrganizationCodeInvalid,
    ];
    for message in &all {
        match message {
            EmailRequired
            | EmailInvalid
            | NicknameRequired
            | CountryRegionRequired
            | AreaRequired
            | TooLong { .. }
            | NotifyUrlInvalid
            | IpWhitelistInvalid { .. }
            | IpWhitelistChineseComma
            | IpWhitelistTooMany { .. }
            | PhoneInvalid
            | WebsiteInvalid
            | CurrentPasswordRequired
            | CurrentPasswordWrong
            | NewPasswordSameAsOld
            | SecurityAnswerRequired
            | AvatarMissing
            | AvatarNotAnImage
            | AvatarTooLarge { .. }
            | LicenceNotAnImage
            | LicenceTooLarge { .. }
            | LicenceNotEditable
            | CertificationFieldRequired
            | CertificationPending
            | CertificationNotWithdrawable
            | CertificationNotReviewable
            | RejectReasonRequired
            | DecisionInvalid
            | IdsInvalid
            | AccountTypeInvalid
            | CertificateTypeInvalid
            | CreditCodeInvalid
            | OrganizationCodeInvalid => {}
        }
    }
    all
}

fn template_messages() -> Vec<TemplateMessage> {
    use TemplateMessage::*;
    let all = vec![
        Required,
        NumberOutOfRange { min: 150, max: 1800 },
        DefaultOutsideMinMax,
        MinAboveMax,
        LinkInvalid,
        SubmitFailed,
    ];
    for message in &all {
        match message {
            Required | NumberOutOfRange { .. } | DefaultOutsideMinMax | MinAboveMax | LinkInvalid | SubmitFailed => {}
        }
    }
    all
}

fn open_api_messages() -> Vec<OpenApiMessage> {
    use OpenApiMessage::*;
    let all = vec![
        HeaderInvalid { header: "X-Nonce" },
        KeyUnknown,
        LegacyParamInvalid { param: "sign" },
        LegacyNotEnabled,
        LegacySignatureWrong,
        TimestampSkewed { server_time: 1_700_000_000, window_seconds: 300 },
        NonceReplayed,
        SignatureWrong,
        WhitelistEmpty,
        AddressNotWhitelisted { address: "192.0.2.1".into() },
        MerchantDisabled,
        RateLimited { retry_after_seconds: 1 },
        OrderIdReused,
        NotifyUrlInvalid { max: 500 },
        KeyLimitReached { max: 2 },
        KeyAlreadyRevoked,
    ];
    for message in &all {
        match message {
            HeaderInvalid { .. }
            | KeyUnknown
            | LegacyParamInvalid { .. }
            | LegacyNotEnabled
            | LegacySignatureWrong
            | TimestampSkewed { .. }
            | NonceReplayed
            | SignatureWrong
            | WhitelistEmpty
            | AddressNotWhitelisted { .. }
            | MerchantDisabled
            | RateLimited { .. }
            | OrderIdReused
            | NotifyUrlInvalid { .. }
            | KeyLimitReached { .. }
            | KeyAlreadyRevoked => {}
        }
    }
    all
}

fn notify_messages() -> Vec<NotifyMessage> {
    use NotifyMessage::*;
    let all = vec![
        UrlInvalid,
        UrlPrivate { host: "127.0.0.1".into() },
        NoNotifyUrl,
        InFlight,
        TimeRangeRequired,
        DeliveryDns,
        DeliveryRefused,
        DeliveryTimeout,
        DeliveryTls,
        DeliveryHttpStatus { status: 502 },
        DeliveryGuard,
        DeliveryAnswer,
        DeliveryFailed,
    ];
    for message in &all {
        match message {
            UrlInvalid
            | UrlPrivate { .. }
            | NoNotifyUrl
            | InFlight
            | TimeRangeRequired
            | DeliveryDns
            | DeliveryRefused
            | DeliveryTimeout
            | DeliveryTls
            | DeliveryHttpStatus { .. }
            | DeliveryGuard
            | DeliveryAnswer
            | DeliveryFailed => {}
        }
    }
    all
}

fn admin_messages() -> Vec<AdminMessage> {
    use AdminMessage::*;
    let all = vec![
        MerchantNameRequired,
        MerchantNameTooLong { max: 64 },
        UsernameInvalid { max: 64 },
        UsernameTaken,
        MerchantDisabled,
        PasswordChangeRequired,
        NotAMerchantUser,
        AuditActionUnknown,
        SecurityKindUnknown,
        StepUpRequired,
        PortReasonInvalid { max: 200 },
        TwoFactorRequired,
        LastOwner,
        UserDisabled,
    ];
    for message in &all {
        match message {
            MerchantNameRequired
            | MerchantNameTooLong { .. }
            | UsernameInvalid { .. }
            | UsernameTaken
            | MerchantDisabled
            | PasswordChangeRequired
            | NotAMerchantUser
            | AuditActionUnknown
            | SecurityKindUnknown
            | StepUpRequired
            | PortReasonInvalid { .. }
            | TwoFactorRequired
            | LastOwner
            | UserDisabled => {}
        }
    }
    all
}

fn catalogue_messages() -> Vec<CatalogueMessage> {
    use super::catalogue::{SegmentAt, SegmentProblem};
    use CatalogueMessage::*;
    let all = vec![
        ProductKeyInvalid { max: 64 },
        ProductKeyTaken,
        ProvincesInvalid,
        ProductNameInvalid { max: 64 },
        FaceValueInvalid,
        ProductInUse,
        ProductLocked,
        RateInvalid { min: 1, max: 20_000 },
        RulePriceInvalid,
        RuleMatchesNothing,
        RuleNeedsAcknowledgement { count: 2, products: "MOBILE-DIRECT-50, MOBILE-DIRECT-100".into() },
        RuleWarningsChanged { count: 2, products: "MOBILE-DIRECT-50, MOBILE-DIRECT-100".into() },
        ImportLineMerchant { line: 2 },
        ImportLineProduct { line: 2 },
        ImportLinePrice { line: 2 },
        ImportLineStatus { line: 2 },
        ImportLineDuplicate { line: 3, first: 2 },
        ImportLineIncomplete { line: 2 },
        SegmentFileUnreadable,
        SegmentFileTooLarge { max_mb: 32 },
        SegmentFileRows { max: 1_000_000 },
        SegmentEntry { at: SegmentAt::Line(3), problem: SegmentProblem::Prefix },
        SegmentEntry { at: SegmentAt::Record(3), problem: SegmentProblem::Province("Mars".into()) },
        SegmentEntry { at: SegmentAt::Line(3), problem: SegmentProblem::City },
        SegmentEntry { at: SegmentAt::Line(3), problem: SegmentProblem::Carrier("satellite".into()) },
        SegmentEntry { at: SegmentAt::Line(3), problem: SegmentProblem::Columns },
        SegmentEntry { at: SegmentAt::Line(3), problem: SegmentProblem::Repeated { first: 2 } },
        SegmentUploadGone,
        SegmentUploadStale,
    ];
    for message in &all {
        match message {
            ProductKeyInvalid { .. }
            | ProductKeyTaken
            | ProvincesInvalid
            | ProductNameInvalid { .. }
            | FaceValueInvalid
            | ProductInUse
            | ProductLocked
            | RateInvalid { .. }
            | RulePriceInvalid
            | RuleMatchesNothing
            | RuleNeedsAcknowledgement { .. }
            | RuleWarningsChanged { .. }
            | ImportLineMerchant { .. }
            | ImportLineProduct { .. }
            | ImportLinePrice { .. }
            | ImportLineStatus { .. }
            | ImportLineDuplicate { .. }
            | ImportLineIncomplete { .. }
            | SegmentFileUnreadable
            | SegmentFileTooLarge { .. }
            | SegmentFileRows { .. }
            | SegmentEntry { .. }
            | SegmentUploadGone
            | SegmentUploadStale => {}
        }
    }
    all
}

fn window_messages() -> Vec<WindowMessage> {
    use WindowMessage::*;
    let all = vec![
        Closed { title: "title".into(), until: "2026-03-01 02:00".into() },
        TitleInvalid { max: 60 },
        NoteTooLong { max: 200 },
        ScopeInvalid,
        EndBeforeStart,
        RecurrenceInvalid,
    ];
    for message in &all {
        match message {
            Closed { .. }
            | TitleInvalid { .. }
            | NoteTooLong { .. }
            | ScopeInvalid
            | EndBeforeStart
            | RecurrenceInvalid => {}
        }
    }
    all
}

fn funding_messages() -> Vec<FundingMessage> {
    use FundingMessage::*;
    let all = vec![
        ReferenceInvalid { max: 64 },
        ReferenceDuplicate,
        PayerNameInvalid { max: 64 },
        NoteTooLong { max: 200 },
        NotPending,
        ReasonRequired { max: 200 },
        MerchantsOnly,
    ];
    for message in &all {
        match message {
            ReferenceInvalid { .. }
            | ReferenceDuplicate
            | PayerNameInvalid { .. }
            | NoteTooLong { .. }
            | NotPending
            | ReasonRequired { .. }
            | MerchantsOnly => {}
        }
    }
    all
}

fn channel_messages() -> Vec<ChannelMessage> {
    use ChannelMessage::*;
    let all = vec![
        CallbackSignatureWrong,
        CallbackMalformed,
        CallbackOrderUnknown,
        CodeInvalid { max: 32 },
        CodeTaken,
        NameRequired { max: 64 },
        AdapterUnknown,
        BaseUrlInvalid,
        BaseUrlPrivate { host: "10.0.0.1".into() },
        TimeoutOutOfRange { min: 100, max: 60000 },
        SecretRequired,
        CostInvalid,
        WeightInvalid,
        ProductUnknown,
        ProvincesInvalid,
        CoverageIncomplete { line: 2 },
        CoverageCost { line: 2 },
        CoverageProvinces { line: 2 },
        CoverageNumbers { line: 2 },
        SandboxFixed,
        ReconcileDateInvalid,
        StatementUnsupported,
        StatementUnreachable,
        StatementStatus { status: 500 },
        StatementTooLarge { max_mib: 32 },
        StatementTooManyLines { max: 200000 },
        StatementSignatureWrong,
        StatementMalformed,
        OrderNotInReview,
        AttemptOpen,
        NoOpenAttempt,
        QueryBusy,
        NoChannel,
        ChannelNotCandidate,
        SupplierSucceeded,
        SupplierFailed,
        SupplierProcessing,
        SupplierNotReceived,
        SupplierNoAnswer,
    ];
    for message in &all {
        match message {
            CallbackSignatureWrong
            | CallbackMalformed
            | CallbackOrderUnknown
            | CodeInvalid { .. }
            | CodeTaken
            | NameRequired { .. }
            | AdapterUnknown
            | BaseUrlInvalid
            | BaseUrlPrivate { .. }
            | TimeoutOutOfRange { .. }
            | SecretRequired
            | CostInvalid
            | WeightInvalid
            | ProductUnknown
            | ProvincesInvalid
            | CoverageIncomplete { .. }
            | CoverageCost { .. }
            | CoverageProvinces { .. }
            | CoverageNumbers { .. }
            | SandboxFixed
            | ReconcileDateInvalid
            | StatementUnsupported
            | StatementUnreachable
            | StatementStatus { .. }
            | StatementTooLarge { .. }
            | StatementTooManyLines { .. }
            | StatementSignatureWrong
            | StatementMalformed
            | OrderNotInReview
            | AttemptOpen
            | NoOpenAttempt
            | QueryBusy
            | NoChannel
            | ChannelNotCandidate
            | SupplierSucceeded
            | SupplierFailed
            | SupplierProcessing
            | SupplierNotReceived
            | SupplierNoAnswer => {}
        }
    }
    all
}

fn view_messages() -> Vec<ViewMessage> {
    use ViewMessage::*;
    let all = vec![
        PageUnknown,
        NameRequired,
        NameTooLong { max: 40 },
        NameTaken,
        StateInvalid,
        StateTooLarge { max_kib: 8 },
        TooMany { max: 50 },
        NotYours,
        NotFound,
    ];
    for message in &all {
        match message {
            PageUnknown
            | NameRequired
            | NameTooLong { .. }
            | NameTaken
            | StateInvalid
            | StateTooLarge { .. }
            | TooMany { .. }
            | NotYours
            | NotFound => {}
        }
    }
    all
}

pub(super) fn messages() -> Vec<Message> {
    use Message::*;
    let mut all = vec![
        Success,
        UsernameRequired,
        PasswordRequired,
        UsernameTooLong { max: 64 },
        PasswordTooLong { max: 128 },
        AccountOrPasswordWrong,
        TooManyAttempts { retry_after_seconds: 90 },
        PermissionDenied,
        NotFound,
        MethodNotAllowed,
        MalformedBody,
        MalformedForm,
        InvalidField { detail: "x".into() },
        NulCharacter,
        TokenUnknown,
        TokenConflict,
        SessionEnded,
        TokenExpired,
        InternalError,
        NotReady,
        DatabaseUnavailable,
        PasswordTooShort { min: 6 },
        PasswordWeak,
        PasswordInvalidCharacter,
        MerchantIdInvalid,
        TwoFactorStatusFailed,
        TwoFactorSetupFailed,
        TwoFactorQrCodeFailed,
        TwoFactorCodeWrong,
        BackupCodesRegenerateFailed,
        TwoFactorAlreadyEnabled,
        TwoFactorNotEnabled,
        TwoFactorSetupExpired,
        PendingLoginInvalid,
        IdempotencyKeyInvalid { max: 255 },
        IdempotencyKeyReused,
    ];
    all.extend(user_centre_messages().into_iter().map(UserCentre));
    all.extend(trade_messages().into_iter().map(Trade));
    all.extend(template_messages().into_iter().map(Template));
    all.extend(open_api_messages().into_iter().map(OpenApi));
    all.extend(notify_messages().into_iter().map(Notify));
    all.extend(admin_messages().into_iter().map(Admin));
    all.extend(catalogue_messages().into_iter().map(Catalogue));
    all.extend(channel_messages().into_iter().map(Channel));
    all.extend(funding_messages().into_iter().map(Funding));
    all.extend(view_messages().into_iter().map(View));
    all.extend(window_messages().into_iter().map(Window));
    for message in &all {
        match message {
            Success
            | UsernameRequired
            | PasswordRequired
            | UsernameTooLong { .. }
            | PasswordTooLong { .. }
            | AccountOrPasswordWrong
            | TooManyAttempts { .. }
            | PermissionDenied
            | NotFound
            | MethodNotAllowed
            | MalformedBody
            | MalformedForm
            | InvalidField { .. }
            | NulCharacter
            | TokenUnknown
            | TokenConflict
            | SessionEnded
            | TokenExpired
            | InternalError
            | NotReady
            | DatabaseUnavailable
            | PasswordTooShort { .. }
            | PasswordWeak
            | PasswordInvalidCharacter
            | MerchantIdInvalid
            | UserCentre(_)
            | TwoFactorStatusFailed
            | TwoFactorSetupFailed
            | TwoFactorQrCodeFailed
            | TwoFactorCodeWrong
            | BackupCodesRegenerateFailed
            | TwoFactorAlreadyEnabled
            | TwoFactorNotEnabled
            | TwoFactorSetupExpired
            | PendingLoginInvalid
            | IdempotencyKeyInvalid { .. }
            | IdempotencyKeyReused
            | Trade(_)
            | Template(_)
            | OpenApi(_)
            | Notify(_)
            | Admin(_)
            | Catalogue(_)
            | Channel(_)
            | Funding(_)
            | View(_)
            | Window(_) => {}
        }
    }
    all
}

fn notices() -> Vec<Notice> {
    use Notice::*;
    let all = vec![
        TwoFactorEnabled,
        TwoFactorDisabled,
        TwoFactorResetByAdministrator,
        TwoFactorResetDetail { administrator: "admin".into() },
        BackupCodesRegenerated,
        AccountSecurity,
        SecurityChangeFrom { address: "127.0.0.1".into() },
        PasswordChanged,
        OtherSessionsSignedOut,
        PasswordChangedAt { time: "2026-11-23 20:00:00".into(), address: "127.0.0.1".into() },
        CertificationPassed,
        CertificationRejected,
        CertificationSubmitted,
        RealNameCertification,
        LowBalance,
        PleaseTopUp,
        LowBalanceDetail { balance: "9.00".into(), line: "1000.00".into() },
        ApiKeyCreated,
        ApiKeyRevoked,
        ApiKeyChange { key_id: "ak_1".into(), by: "merchant".into(), address: "127.0.0.1".into() },
        Integration,
        WebhookSecretRotated,
        WebhookSecretRotatedDetail { until: "2026-11-24 20:00:00".into(), address: "127.0.0.1".into() },
        NotificationExhausted,
        NotificationExhaustedDetail {
            order_no: "N1".into(),
            url: "https://shop.example.com/cb".into(),
            reason: crate::i18n::NotifyMessage::DeliveryTimeout,
        },
        Batches,
        BatchFinished,
        BatchFinishedDetail { batch_id: 7, file_name: "a.xlsx".into(), succeeded: 2, failed: 1, refused: 0 },
        OrderReversed,
        OrderReversedDetail { order_no: "N1".into(), reason: "carrier reversed".into() },
        ChannelSwitchedOff,
        ChannelSwitchedOffDetail { name: "A".into(), by: "admin".into() },
        Funding,
        FundsToppedUp { amount: "10.00".into(), remark: "".into() },
        CreditLimitSet { limit: "10.00".into(), remark: "r".into() },
        RepaymentRecorded { amount: "10.00".into(), remark: "".into() },
        BalanceAdjusted { amount: "-10.00".into(), remark: "r".into() },
        FundingRequestApproved,
        FundingRequestRejected,
        FundingApprovedDetail { id: 3, amount: "10.00".into(), reference: "ABC".into() },
        FundingRejectedDetail { id: 3, amount: "10.00".into(), reference: "ABC".into(), reason: "r".into() },
        PasswordReset,
        ChangeTemporaryPassword,
        MerchantRenamed { name: "Acme".into() },
        MerchantEnabled,
        MerchantDisabled,
        MerchantAccount,
        Channels,
        ChannelPaused,
        ChannelPausedDetail {
            name: "A".into(),
            reason: "low_success_ratio".into(),
            until: "2026-11-24 20:00:00".into(),
        },
        ChannelResumed,
        ChannelResumedDetail { name: "A".into() },
        CardSecretsExported,
        CardSecretsExportedDetail {
            count: 3,
            by: "a".into(),
            time: "2026-01-01 00:00:00".into(),
            address: "1.2.3.4".into(),
        },
        ChannelBalanceLow,
        ChannelBalanceLowDetail { name: "A".into(), balance: "1.00".into(), line: "100.00".into() },
    ];
    for notice in &all {
        match notice {
            TwoFactorEnabled
            | TwoFactorDisabled
            | BackupCodesRegenerated
            | AccountSecurity
            | SecurityChangeFrom { .. }
            | PasswordChanged
            | OtherSessionsSignedOut
            | PasswordChangedAt { .. }
            | CertificationPassed
            | CertificationRejected
            | CertificationSubmitted
            | RealNameCertification
            | LowBalance
            | PleaseTopUp
            | LowBalanceDetail { .. }
            | ApiKeyCreated
            | ApiKeyRevoked
            | ApiKeyChange { .. }
            | Integration
            | WebhookSecretRotated
            | WebhookSecretRotatedDetail { .. }
            | NotificationExhausted
            | NotificationExhaustedDetail { .. }
            | Batches
            | BatchFinished
            | BatchFinishedDetail { .. }
            | OrderReversed
            | OrderReversedDetail { .. }
            | ChannelSwitchedOff
            | ChannelSwitchedOffDetail { .. }
            | Funding
            | FundsToppedUp { .. }
            | CreditLimitSet { .. }
            | RepaymentRecorded { .. }
            | BalanceAdjusted { .. }
            | FundingRequestApproved
            | FundingRequestRejected
            | FundingApprovedDetail { .. }
            | FundingRejectedDetail { .. }
            | PasswordReset
            | ChangeTemporaryPassword
            | MerchantRenamed { .. }
            | MerchantEnabled
            | MerchantDisabled
            | MerchantAccount
            | Channels
            | ChannelPaused
            | ChannelPausedDetail { .. }
            | TwoFactorResetByAdministrator
            | TwoFactorResetDetail { .. }
            | ChannelResumed
            | ChannelResumedDetail { .. }
            | CardSecretsExported
            | CardSecretsExportedDetail { .. }
            | ChannelBalanceLow
            | ChannelBalanceLowDetail { .. } => {}
        }
    }
    all
}

#[test]
fn every_message_has_both_languages_and_a_unique_key() {
    let mut keys = HashSet::new();
    for message in messages() {
        let key = message.key();
        assert!(!key.is_empty(), "{message:?} has no key");
        assert!(keys.insert(key), "two messages share the key {key}");
        check(key, &message.text(Locale::ZhCn), &message.text(Locale::EnUs));
    }
}

#[test]
fn every_notice_has_both_languages_and_stores_chinese_first() {
    for notice in notices() {
        let key = format!("{notice:?}");
        let (zh, en) = (notice.text(Locale::ZhCn), notice.text(Locale::EnUs));
        check(&key, &zh, &en);
        assert_eq!(notice.stored(), format!("{zh} / {en}"));
    }
    assert_eq!(Notice::LowBalance.stored(), "余额不足提醒 / Low balance");
}

#[test]
fn every_file_label_has_both_languages() {
    fn all<const N: usize>(name: &str, labels: &Labels<N>) {
        for (index, (zh, en)) in labels.pairs().iter().enumerate() {
            check(&format!("{name}[{index}]"), zh, en);
        }
    }
    all("ORDER_EXPORT_COLUMNS", &files::ORDER_EXPORT_COLUMNS);
    all("ORDER_STATUS", &files::ORDER_STATUS);
    all("ACCOUNT_LOG_COLUMNS", &files::ACCOUNT_LOG_COLUMNS);
    all("AUDIT_LOG_COLUMNS", &files::AUDIT_LOG_COLUMNS);
    all("STATEMENT_COLUMNS", &files::STATEMENT_COLUMNS);
    all("YES_NO", &files::YES_NO);
    all("PROFIT_REPORT_COLUMNS", &files::PROFIT_REPORT_COLUMNS);
    all("SALES_REPORT_COLUMNS", &files::SALES_REPORT_COLUMNS);
    all("QUOTE_EXPORT_COLUMNS", &files::QUOTE_EXPORT_COLUMNS);
    all("QUOTE_STATUS", &files::QUOTE_STATUS);
    all("BATCH_RESULT_COLUMNS", &files::BATCH_RESULT_COLUMNS);
    all("BATCH_OUTCOME", &files::BATCH_OUTCOME);
    all("BATCH_TEMPLATE_COLUMNS", &files::BATCH_TEMPLATE_COLUMNS);
    all("RECONCILE_COLUMNS", &files::RECONCILE_COLUMNS);
    all("COVERAGE_COLUMNS", &files::COVERAGE_COLUMNS);
    all("NATIONAL", &files::NATIONAL);
    all("RECONCILE_KINDS", &files::RECONCILE_KINDS);
    for (code, zh, en) in super::audit::ACTION_NAMES {
        check(&format!("audit action {code}"), zh, en);
    }
}
