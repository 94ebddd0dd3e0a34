//! Real-name enterprise certification: a merchant submits its enterprise
//! information; an administrator approves or rejects it with a reason; while under audit
//! the merchant may withdraw it. Certificate numbers are encrypted at rest, shown in full
//! only in the detail view to the owner and administrators, and masked in lists.

use super::credit_code::{is_organization_code, is_unified_social_credit_code};
use super::inbox::{MessageKind, Notification, notify};
use super::validation::Errors;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::Message;
use crate::i18n::UserCentreMessage as Text;
use crate::i18n::audit::AuditDetail;
use crate::i18n::notices::Notice;
use crate::identity::session::{AdminUser, CurrentUser, Role};
use crate::platform::audit::{self, action};
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use sqlx::any::AnyRow;
use utoipa::ToSchema;

pub use super::certification_status::{AUDITING, PASSED, REJECTED, WITHDRAWN};

const PERSON_CERTIFICATE_TYPES: &[&str] = &["id_card", "passport", "hk_macao_pass", "taiwan_pass"];
const ENTERPRISE_CERTIFICATE_TYPES: &[&str] = &["unified_social_credit_code", "business_license"];

/// `CertificationSubmitRequest` in the document: the batch's `SubmitRequest` has the name.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = CertificationSubmitRequest)]
#[serde(default)]
pub struct SubmitRequest {
    /// Only `enterprise` for now.
    #[schema(value_type = String, required = true, pattern = r"^\s*enterprise\s*$")]
    pub account_type: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub legal_person: Option<String>,
    /// id_card, passport, hk_macao_pass or taiwan_pass.
    #[schema(value_type = String, required = true, pattern = r"^\s*(id_card|passport|hk_macao_pass|taiwan_pass)\s*$")]
    pub legal_person_certificate_type: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub legal_person_certificate_number: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub enterprise_name: Option<String>,
    /// unified_social_credit_code or business_license.
    #[schema(value_type = String, required = true, pattern = r"^\s*(unified_social_credit_code|business_license)\s*$")]
    pub enterprise_certificate_type: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub enterprise_certificate_number: Option<String>,
    pub organization_code: Option<String>,
}

struct Submission {
    legal_person: String,
    person_type: String,
    person_number: String,
    enterprise_name: String,
    enterprise_type: String,
    enterprise_number: String,
    organization_code: String,
}

/// Mainland resident identity card: 17 digits and a check character (GB 11643-1999).
pub fn is_resident_id(number: &str) -> bool {
    let bytes = number.as_bytes();
    if bytes.len() != 18 || !bytes[..17].iter().all(u8::is_ascii_digit) {
        return false;
    }
    const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    const CHECKS: &[u8; 11] = b"10X98765432";
    let sum: u32 = bytes[..17].iter().zip(WEIGHTS).map(|(digit, weight)| u32::from(digit - b'0') * weight).sum();
    bytes[17].to_ascii_uppercase() == CHECKS[(sum % 11) as usize]
}

fn is_plain_certificate_number(number: &str) -> bool {
    (4..=40).contains(&number.len()) && number.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-')
}

/// Shows the first and last few characters only.
pub fn mask(number: &str) -> String {
    let characters: Vec<char> = number.chars().collect();
    if characters.len() <= 6 {
        return "*".repeat(characters.len());
    }
    let (head, tail) = (3, 4.min(characters.len() - 4));
    let middle = characters.len() - head - tail;
    format!(
        "{}{}{}",
        characters[..head].iter().collect::<String>(),
        "*".repeat(middle),
        characters[characters.len() - tail..].iter().collect::<String>()
    )
}

fn parse_submission(request: SubmitRequest) -> Result<Submission, AppError> {
    let mut errors = Errors::default();
    let required = Some(Text::CertificationFieldRequired);
    let account_type = errors.text("account_type", request.account_type, required.clone(), 20);
    if !account_type.is_empty() && account_type != "enterprise" {
        errors.add("account_type", Text::AccountTypeInvalid);
    }
    let legal_person = errors.text("legal_person", request.legal_person, required.clone(), 50);
    let person_type =
        errors.text("legal_person_certificate_type", request.legal_person_certificate_type, required.clone(), 40);
    if !person_type.is_empty() && !PERSON_CERTIFICATE_TYPES.contains(&person_type.as_str()) {
        errors.add("legal_person_certificate_type", Text::CertificateTypeInvalid);
    }
    let person_number = errors
        .text("legal_person_certificate_number", request.legal_person_certificate_number, required.clone(), 40)
        .to_ascii_uppercase();
    let person_number_valid = if person_type == "id_card" {
        is_resident_id(&person_number)
    } else {
        is_plain_certificate_number(&person_number)
    };
    if !person_number.is_empty() && !person_number_valid {
        errors.add("legal_person_certificate_number", Text::CertificateTypeInvalid);
    }
    let enterprise_name = errors.text("enterprise_name", request.enterprise_name, required.clone(), 100);
    let enterprise_type =
        errors.text("enterprise_certificate_type", request.enterprise_certificate_type, required.clone(), 40);
    if !enterprise_type.is_empty() && !ENTERPRISE_CERTIFICATE_TYPES.contains(&enterprise_type.as_str()) {
        errors.add("enterprise_certificate_type", Text::CertificateTypeInvalid);
    }
    let enterprise_number = errors
        .text("enterprise_certificate_number", request.enterprise_certificate_number, required.clone(), 40)
        .to_ascii_uppercase();
    // Since 2015 the credit code carries the organisation code inside it (characters 9 to
    // 17), so the organisation code is asked for only with an old business licence.
    let credit_code = enterprise_type == "unified_social_credit_code";
    if credit_code && !enterprise_number.is_empty() && !is_unified_social_credit_code(&enterprise_number) {
        errors.add("enterprise_certificate_number", Text::CreditCodeInvalid);
    } else if !enterprise_number.is_empty() && !is_plain_certificate_number(&enterprise_number) {
        errors.add("enterprise_certificate_number", Text::CertificateTypeInvalid);
    }
    let organization_code = errors
        .text("organization_code", request.organization_code, if credit_code { None } else { required }, 40)
        .to_ascii_uppercase();
    if !organization_code.is_empty() && !is_organization_code(&organization_code) {
        errors.add("organization_code", Text::OrganizationCodeInvalid);
    }
    errors.into_result(Submission {
        legal_person,
        person_type,
        person_number,
        enterprise_name,
        enterprise_type,
        enterprise_number,
        organization_code,
    })
}

/// A certification record (type, content, status, time, operations).
#[derive(Debug, Serialize, ToSchema)]
pub struct CertificationRecord {
    pub id: i64,
    pub mid: Option<i64>,
    pub username: String,
    pub certification_type: String,
    /// What was certified, for the list: the enterprise name.
    pub certification_content: String,
    /// 0 auditing, 1 passed, 2 rejected, 3 withdrawn.
    pub status: i64,
    pub reject_reason: String,
    pub time: String,
    pub decided_at: Option<String>,
    pub legal_person: String,
    pub legal_person_certificate_type: String,
    pub legal_person_certificate_number: String,
    pub enterprise_name: String,
    pub enterprise_certificate_type: String,
    pub enterprise_certificate_number: String,
    pub organization_code: String,
    /// Whether the certificate numbers above are shown in full.
    pub numbers_masked: bool,
    /// Whether a business licence image is attached (administrators read it from
    /// `GET /adminapi/certification/licence?id=`).
    pub has_licence: bool,
}

fn context(record_id: i64, field: &str) -> String {
    format!("certification:{record_id}:{field}")
}

fn record_from_row(state: &AppState, row: &AnyRow, full_numbers: bool) -> Result<CertificationRecord, AppError> {
    let id: i64 = row.try_get("id")?;
    let number = |field: &str| -> Result<String, AppError> {
        let sealed: String = row.try_get(field)?;
        let plain =
            String::from_utf8(state.secrets.decrypt(&sealed, &context(id, field))?).map_err(anyhow::Error::from)?;
        Ok(if full_numbers { plain } else { mask(&plain) })
    };
    let decided_at: Option<i64> = row.try_get("decided_at")?;
    Ok(CertificationRecord {
        id,
        mid: row.try_get("merchant_id")?,
        username: row.try_get("username")?,
        certification_type: row.try_get("account_type")?,
        certification_content: row.try_get("enterprise_name")?,
        status: row.try_get("status")?,
        reject_reason: row.try_get("reject_reason")?,
        time: millis_to_rfc3339(row.try_get("created_at")?),
        decided_at: decided_at.map(millis_to_rfc3339),
        legal_person: row.try_get("legal_person")?,
        legal_person_certificate_type: row.try_get("legal_person_certificate_type")?,
        legal_person_certificate_number: number("legal_person_certificate_number")?,
        enterprise_name: row.try_get("enterprise_name")?,
        enterprise_certificate_type: row.try_get("enterprise_certificate_type")?,
        enterprise_certificate_number: number("enterprise_certificate_number")?,
        organization_code: row.try_get("organization_code")?,
        numbers_masked: !full_numbers,
        has_licence: row.try_get::<i64, _>("licence_count")? > 0,
    })
}

const RECORD_QUERY: &str = "SELECT c.*, u.username, u.merchant_id,
       (SELECT COUNT(*) FROM certification_licences l WHERE l.certification_id = c.id) AS licence_count
     FROM certifications c JOIN users u ON u.id = c.user_id";

/// Loads a record the caller may see: its own, or any for an administrator. Others'
/// records are "not found", so ids cannot be probed.
async fn visible_record(state: &AppState, caller: &CurrentUser, id: i64) -> Result<AnyRow, AppError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!("{RECORD_QUERY} WHERE c.id = $1")))
        .bind(id)
        .fetch_optional(&state.db.pool)
        .await?
        .ok_or(AppError::NotFound)?;
    let owner: i64 = row.try_get("user_id")?;
    if caller.role != Role::Admin && owner != caller.user_id {
        return Err(AppError::NotFound);
    }
    Ok(row)
}

/// Submits enterprise information for certification (status auditing).
#[utoipa::path(post, path = "/adminapi/certification/submit", tag = "certification", request_body = SubmitRequest,
    responses((status = 200, description = "`data` is the new CertificationRecord", body = CertificationRecord), (status = 400, description = "40000: a field is missing or blank"),
        (status = 409, description = "40900: a record is already under audit"), (status = 422, description = "40000: a certificate number fails its format or check digit")),
    security(("token" = [])))]
pub async fn submit(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SubmitRequest>,
) -> ApiResult<CertificationRecord> {
    let submission = parse_submission(request)?;
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    // Insert with placeholders first: the ciphertexts are bound to the row id.
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO certifications (user_id, account_type, legal_person, legal_person_certificate_type,
           legal_person_certificate_number, enterprise_name, enterprise_certificate_type, enterprise_certificate_number,
           organization_code, status, created_at)
         VALUES ($1, 'enterprise', $2, $3, '', $4, $5, '', $6, 0, $7) RETURNING id",
    )
    .bind(caller.user_id)
    .bind(&submission.legal_person)
    .bind(&submission.person_type)
    .bind(&submission.enterprise_name)
    .bind(&submission.enterprise_type)
    .bind(&submission.organization_code)
    .bind(now)
    .fetch_one(&mut *transaction)
    .await
    .map_err(|error| match &error {
        sqlx::Error::Database(database_error) if database_error.is_unique_violation() => {
            AppError::conflict_on("account_type", Message::UserCentre(Text::CertificationPending))
        }
        _ => error.into(),
    })?;
    let person =
        state.secrets.encrypt(submission.person_number.as_bytes(), &context(id, "legal_person_certificate_number"))?;
    let enterprise = state
        .secrets
        .encrypt(submission.enterprise_number.as_bytes(), &context(id, "enterprise_certificate_number"))?;
    sqlx::query(
        "UPDATE certifications SET legal_person_certificate_number = $1, enterprise_certificate_number = $2 WHERE id = $3",
    )
    .bind(person)
    .bind(enterprise)
    .bind(id)
    .execute(&mut *transaction)
    .await?;
    // The audit record and the administrators' to-do commit with the submission.
    let (detail, event) = (AuditDetail::Certification { record_id: id }, action::CERTIFICATION_SUBMITTED);
    let target = audit::target::user(caller.user_id);
    audit::record_detail(&mut *transaction, Some(caller.user_id), event, &target, &detail, &address.to_string())
        .await?;
    let queue = &submission.enterprise_name;
    super::certification_queue::announce_submission(&mut transaction, &caller.username, queue).await?;
    transaction.commit().await?;
    let row = visible_record(&state, &caller, id).await?;
    Ok(ApiOk(record_from_row(&state, &row, true)?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ListRequest {
    /// Administrators: only this merchant. Ignored for merchants (always their own).
    pub mid: Option<i64>,
    pub status: Option<i64>,
}

/// Certification records, newest first: the caller's own, or (administrators) everyone's.
#[utoipa::path(post, path = "/adminapi/certification/list", tag = "certification", request_body = ListRequest,
    responses((status = 200, description = "`data` is a list of CertificationRecord, numbers masked", body = [CertificationRecord])),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<ListRequest>,
) -> ApiResult<Vec<CertificationRecord>> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "{RECORD_QUERY} WHERE ($1 = 0 OR c.user_id = $2) AND ($3 = 0 OR u.merchant_id = $4)
         AND ($5 = 0 OR c.status = $6) ORDER BY c.id DESC LIMIT 200"
    )))
    .bind(i64::from(caller.role != Role::Admin))
    .bind(caller.user_id)
    .bind(i64::from(caller.role == Role::Admin && request.mid.is_some()))
    .bind(request.mid.unwrap_or(0))
    .bind(i64::from(request.status.is_some()))
    .bind(request.status.unwrap_or(0))
    .fetch_all(&state.db.pool)
    .await?;
    let records = rows.iter().map(|row| record_from_row(&state, row, false)).collect::<Result<Vec<_>, _>>()?;
    Ok(ApiOk(records))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RecordIdRequest {
    pub id: i64,
}

/// One record with full certificate numbers (the "view" operation), for its owner or an administrator.
#[utoipa::path(post, path = "/adminapi/certification/detail", tag = "certification", request_body = RecordIdRequest,
    responses((status = 200, description = "`data` is a CertificationRecord", body = CertificationRecord), (status = 404, description = "40400")),
    security(("token" = [])))]
pub async fn detail(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<RecordIdRequest>,
) -> ApiResult<CertificationRecord> {
    let row = visible_record(&state, &caller, request.id).await?;
    Ok(ApiOk(record_from_row(&state, &row, true)?))
}

/// Withdraws the caller's own record while it is under audit.
#[utoipa::path(post, path = "/adminapi/certification/withdraw", tag = "certification", request_body = RecordIdRequest,
    responses((status = 200, description = "`data` is the CertificationRecord", body = CertificationRecord), (status = 404, description = "40400: no such record"), (status = 409, description = "40900: not under audit")),
    security(("token" = [])))]
pub async fn withdraw(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<RecordIdRequest>,
) -> ApiResult<CertificationRecord> {
    let row = visible_record(&state, &caller, request.id).await?;
    if row.try_get::<i64, _>("user_id")? != caller.user_id {
        return Err(AppError::NotFound);
    }
    let mut transaction = state.db.begin_write().await?;
    let changed = sqlx::query("UPDATE certifications SET status = $1, decided_at = $2 WHERE id = $3 AND status = $4")
        .bind(WITHDRAWN)
        .bind(now_millis())
        .bind(request.id)
        .bind(AUDITING)
        .execute(&mut *transaction)
        .await?;
    if changed.rows_affected() == 0 {
        return Err(AppError::conflict_on("id", Message::UserCentre(Text::CertificationNotWithdrawable)));
    }
    // The audit record commits with the withdrawal.
    let (detail, event) = (AuditDetail::Certification { record_id: request.id }, action::CERTIFICATION_WITHDRAWN);
    let target = audit::target::user(caller.user_id);
    audit::record_detail(&mut *transaction, Some(caller.user_id), event, &target, &detail, &address.to_string())
        .await?;
    transaction.commit().await?;
    let row = visible_record(&state, &caller, request.id).await?;
    Ok(ApiOk(record_from_row(&state, &row, true)?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReviewRequest {
    pub id: i64,
    /// `approve` or `reject`.
    #[schema(pattern = "^(approve|reject)$")]
    pub decision: String,
    /// Required when rejecting.
    #[serde(default)]
    pub reason: Option<String>,
}

/// An administrator approves or rejects a record under audit; the merchant is notified.
#[utoipa::path(post, path = "/adminapi/certification/review", tag = "certification", request_body = ReviewRequest,
    responses((status = 200, description = "`data` is the CertificationRecord", body = CertificationRecord), (status = 403, description = "40300: administrators only"),
        (status = 404, description = "40400: no such record"), (status = 409, description = "40900: not under audit"),
        (status = 422, description = "40000: the reason is too long")),
    security(("token" = [])))]
pub async fn review(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ReviewRequest>,
) -> ApiResult<CertificationRecord> {
    let mut errors = Errors::default();
    let reason = errors.text("reason", request.reason, None, 200);
    let (status, event) = match request.decision.as_str() {
        "approve" => (PASSED, action::CERTIFICATION_APPROVED),
        "reject" => (REJECTED, action::CERTIFICATION_REJECTED),
        _ => {
            errors.add("decision", Text::DecisionInvalid);
            (REJECTED, action::CERTIFICATION_REJECTED)
        }
    };
    if request.decision == "reject" && reason.is_empty() {
        errors.add("reason", Text::RejectReasonRequired);
    }
    errors.into_result(())?;
    let row = visible_record(&state, &admin, request.id).await?;
    let owner: i64 = row.try_get("user_id")?;
    let enterprise: String = row.try_get("enterprise_name")?;
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    let changed = sqlx::query(
        "UPDATE certifications SET status = $1, reject_reason = $2, decided_at = $3, decided_by = $4
         WHERE id = $5 AND status = $6",
    )
    .bind(status)
    .bind(if status == REJECTED { reason.as_str() } else { "" })
    .bind(now)
    .bind(admin.user_id)
    .bind(request.id)
    .bind(AUDITING)
    .execute(&mut *transaction)
    .await?;
    if changed.rows_affected() == 0 {
        return Err(AppError::conflict_on("id", Message::UserCentre(Text::CertificationNotReviewable)));
    }
    if status == PASSED {
        sqlx::query("UPDATE users SET certification = 1 WHERE id = $1").bind(owner).execute(&mut *transaction).await?;
    }
    // The audit record and the owner's notice commit with the decision: neither is lost to a
    // failure in between, nor written for a decision that did not commit.
    let detail = AuditDetail::Certification { record_id: request.id };
    let target = audit::target::user(owner);
    audit::record_detail(&mut *transaction, Some(admin.user_id), event, &target, &detail, &address.to_string()).await?;
    let (title, content) = if status == PASSED {
        (Notice::CertificationPassed.stored(), enterprise.clone())
    } else {
        (Notice::CertificationRejected.stored(), format!("{enterprise}：{reason}"))
    };
    notify(
        &mut *transaction,
        owner,
        Notification {
            kind: MessageKind::Notice,
            title: &title,
            sub_title: &Notice::RealNameCertification.stored(),
            content: &content,
            message_type: if status == PASSED { 1 } else { 2 },
        },
    )
    .await?;
    transaction.commit().await?;
    // userInfo's cached answers show the certification.
    state.sessions.forget_all();
    let row = visible_record(&state, &admin, request.id).await?;
    Ok(ApiOk(record_from_row(&state, &row, true)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resident_identity_numbers_carry_a_check_character() {
        assert!(is_resident_id("11010519491231002X"));
        assert!(is_resident_id("11010519491231002x"));
        assert!(is_resident_id("440524188001010014"));
        assert!(!is_resident_id("110105194912310021"));
        assert!(!is_resident_id("11010519491231002"));
        assert!(!is_resident_id("1101051949123100２X"));
    }

    #[test]
    fn numbers_are_masked_in_the_middle() {
        assert_eq!(mask("11010519491231002X"), "110***********002X");
        assert_eq!(mask("91350100M000100Y43"), "913***********0Y43");
        assert_eq!(mask("12345"), "*****");
    }
}
