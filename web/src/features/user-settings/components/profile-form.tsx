import { Button, Form, Input, Select, Space, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { formatTime } from '@/lib/platform-time';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangeInfoRequest } from '../api/change-info';
import type { Profile } from '../api/get-profile';
import { AreaCascader } from './area-field';
import { areaCodes, COUNTRY_REGIONS, MAINLAND_CHINA } from './area-options';
import { AvatarField } from './avatar-field';
import { reportSaved, reportSaveFailed } from './form-feedback';
import {
  characterCount,
  checkIpWhitelist,
  isEmail,
  isHttpUrl,
  isPhone,
  NICKNAME_MAX,
  PROFILE_TEXT_MAX,
} from './profile-validation';

export const PROFILE_FIELDS = [
  'nickname',
  'email',
  'country_region',
  'area',
  'address',
  'contact_phone',
  'introduction',
  'personal_website',
  'office_location',
] as const;

export interface ProfileFormValues {
  nickname?: string;
  email?: string;
  country_region?: string;
  /** Codes from the cascader (Chinese mainland) or free text (elsewhere). */
  area?: string[] | string;
  address?: string;
  contact_phone?: string;
  introduction?: string;
  personal_website?: string;
  office_location?: string;
}

/** Chinese mainland (or not chosen yet, the usual case): pick from the cascader; elsewhere type it. */
export function usesAreaCascader(country: string | undefined): boolean {
  return !country || country === MAINLAND_CHINA;
}

export function toFormValues(profile: Profile): ProfileFormValues {
  const mainland = usesAreaCascader(profile.country_region);
  return {
    nickname: profile.nickname,
    email: profile.email,
    country_region: profile.country_region || undefined,
    area: mainland ? (areaCodes(profile.area) ?? undefined) : profile.area,
    address: profile.address,
    contact_phone: profile.contact_phone,
    introduction: profile.introduction,
    personal_website: profile.personal_website,
    office_location: profile.office_location,
  };
}

export function toChangeInfoRequest(values: ProfileFormValues): ChangeInfoRequest {
  const text = (value: string | undefined) => (value ?? '').trim();
  return {
    nickname: text(values.nickname),
    email: text(values.email),
    country_region: text(values.country_region),
    area: Array.isArray(values.area) ? values.area.join('/') : text(values.area),
    address: text(values.address),
    contact_phone: text(values.contact_phone),
    introduction: text(values.introduction),
    personal_website: text(values.personal_website),
    office_location: text(values.office_location),
  };
}

/** antd rules of the profile form with its validation messages in the console language. */
export function useProfileRules() {
  const { t, i18n } = useTranslation();
  return useMemo(() => {
    const { maxLength, check } = ruleMakers(t);
    const rules: Record<(typeof PROFILE_FIELDS)[number], Rule[]> = {
      nickname: [
        { required: true, whitespace: true, message: t('userSetting.rule.nickname.required') },
        maxLength(NICKNAME_MAX),
      ],
      email: [
        { required: true, whitespace: true, message: t('userSetting.rule.email.required') },
        check(isEmail, 'userSetting.rule.email.invalid'),
      ],
      country_region: [{ required: true, message: t('userSetting.rule.countryRegion.required') }],
      // Codes (an array) from the cascader, or text: a plain `required` rule would also
      // demand a string and refuse the cascader's path.
      area: [
        {
          validator: (_, value?: string[] | string) =>
            (Array.isArray(value) ? value.length > 0 : Boolean(value?.trim()))
              ? Promise.resolve()
              : Promise.reject(new Error(t('userSetting.rule.area.required'))),
        },
      ],
      address: [maxLength(PROFILE_TEXT_MAX)],
      contact_phone: [check(isPhone, 'userSetting.rule.phone.invalid')],
      introduction: [maxLength(PROFILE_TEXT_MAX)],
      personal_website: [maxLength(PROFILE_TEXT_MAX), check(isHttpUrl, 'userSetting.rule.website.invalid')],
      office_location: [maxLength(PROFILE_TEXT_MAX)],
    };
    return rules;
    // i18n.language: the messages follow the console language.
  }, [t, i18n.language]);
}

type Translate = ReturnType<typeof useTranslation>['t'];

function ruleMakers(t: Translate) {
  const maxLength = (max: number): Rule => ({
    validator: (_, value?: string) =>
      value && characterCount(value.trim()) > max
        ? Promise.reject(new Error(t('userSetting.rule.tooLong', { max })))
        : Promise.resolve(),
  });
  const check = (test: (value: string) => boolean, messageKey: string): Rule => ({
    validator: (_, value?: string) =>
      value && value.trim() && !test(value.trim()) ? Promise.reject(new Error(t(messageKey))) : Promise.resolve(),
  });
  return { maxLength, check };
}

export const INTEGRATION_FIELDS = ['notify_url', 'ip_whitelist'] as const;

/** antd rules of the integration form (notify URL, IP whitelist), the server's rules. */
export function useIntegrationRules() {
  const { t, i18n } = useTranslation();
  return useMemo(() => {
    const { maxLength, check } = ruleMakers(t);
    const rules: Record<(typeof INTEGRATION_FIELDS)[number], Rule[]> = {
      notify_url: [maxLength(500), check(isHttpUrl, 'userSetting.rule.notifyUrl.invalid')],
      ip_whitelist: [
        {
          validator: (_, value?: string) => {
            const problem = checkIpWhitelist(value);
            if (!problem) return Promise.resolve();
            const message =
              problem.reason === 'chinese_comma'
                ? t('userSetting.rule.ipWhitelist.chineseComma')
                : problem.reason === 'invalid'
                  ? t('userSetting.rule.ipWhitelist.invalid', { entry: problem.entry })
                  : t('userSetting.rule.ipWhitelist.tooMany', { max: problem.max });
            return Promise.reject(new Error(message));
          },
        },
      ],
    };
    return rules;
    // i18n.language: the messages follow the console language.
  }, [t, i18n.language]);
}

export interface ProfileFormProps {
  profile: Profile;
  onSave: (request: ChangeInfoRequest) => Promise<Profile>;
  saving?: boolean;
}

const textCount = { show: true, strategy: characterCount };

/** Basic info: the profile form. */
export function ProfileForm({ profile, onSave, saving = false }: ProfileFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProfileFormValues>();
  const rules = useProfileRules();
  const country = Form.useWatch('country_region', form);

  // Refill only when the stored profile changes (not when e.g. the security settings are saved).
  const stored = JSON.stringify(toFormValues(profile));
  useEffect(() => {
    form.setFieldsValue(toFormValues(profile));
    // profile: read when `stored` says it changed.
  }, [form, stored]); // eslint-disable-line react-hooks/exhaustive-deps

  const submit = async (values: ProfileFormValues) => {
    try {
      const saved = await onSave(toChangeInfoRequest(values));
      // Show what the server stored (e.g. the normalised whitelist).
      form.setFieldsValue(toFormValues(saved));
      reportSaved();
    } catch (error) {
      reportSaveFailed(form, error, { knownFields: PROFILE_FIELDS });
    }
  };

  const readOnly = (testId: string, value: string) => (
    <Typography.Text data-testid={testId}>{value || '-'}</Typography.Text>
  );

  return (
    <Form<ProfileFormValues>
      form={form}
      layout="horizontal"
      labelCol={{ xs: { span: 24 }, md: { span: 6 } }}
      wrapperCol={{ xs: { span: 24 }, md: { span: 16 } }}
      initialValues={toFormValues(profile)}
      onFinish={submit}
      style={{ maxWidth: 760 }}
      data-testid="profile-form"
      scrollToFirstError
    >
      <Form.Item label={t('userSetting.basic.avatar')}>
        <AvatarField />
      </Form.Item>
      <Form.Item label={t('userSetting.basic.username')}>{readOnly('profile-username', profile.username)}</Form.Item>
      <Form.Item name="nickname" label={t('userSetting.basic.nickname')} rules={rules.nickname}>
        <Input data-testid="profile-nickname" placeholder={t('userSetting.basic.nickname.placeholder')} />
      </Form.Item>
      <Form.Item name="email" label={t('userSetting.basic.email')} rules={rules.email}>
        <Input data-testid="profile-email" placeholder="name@example.com" />
      </Form.Item>
      <Form.Item name="country_region" label={t('userSetting.basic.countryRegion')} rules={rules.country_region}>
        <Select
          data-testid="profile-country-region"
          placeholder={t('userSetting.basic.countryRegion.placeholder')}
          options={COUNTRY_REGIONS.map((code) => ({ value: code, label: t(`userSetting.country.${code}`) }))}
          onChange={(next: string) => {
            // The area's kind follows the country (codes for the mainland, text elsewhere).
            if (usesAreaCascader(next) !== usesAreaCascader(country)) form.setFieldValue('area', undefined);
          }}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item name="area" label={t('userSetting.basic.area')} rules={rules.area} required>
        {usesAreaCascader(country) ? (
          <AreaCascader />
        ) : (
          <Input data-testid="profile-area-text" placeholder={t('userSetting.basic.area.textPlaceholder')} />
        )}
      </Form.Item>
      <Form.Item name="address" label={t('userSetting.basic.address')} rules={rules.address}>
        <Input data-testid="profile-address" />
      </Form.Item>
      <Form.Item name="contact_phone" label={t('userSetting.basic.contactPhone')} rules={rules.contact_phone}>
        <Input data-testid="profile-contact-phone" />
      </Form.Item>
      <Form.Item name="introduction" label={t('userSetting.basic.introduction')} rules={rules.introduction}>
        <Input.TextArea
          data-testid="profile-introduction"
          rows={3}
          count={{ ...textCount, max: PROFILE_TEXT_MAX }}
          placeholder={t('userSetting.basic.introduction.placeholder')}
        />
      </Form.Item>
      <Form.Item name="personal_website" label={t('userSetting.basic.personalWebsite')} rules={rules.personal_website}>
        <Input data-testid="profile-personal-website" placeholder="https://" />
      </Form.Item>
      <Form.Item name="office_location" label={t('userSetting.basic.officeLocation')} rules={rules.office_location}>
        <Input data-testid="profile-office-location" />
      </Form.Item>
      <Form.Item label={t('userSetting.basic.accountId')}>
        {readOnly('profile-account-id', profile.account_id)}
      </Form.Item>
      <Form.Item label={t('userSetting.basic.registrationDate')}>
        {readOnly('profile-registration-date', profile.registration_date ? formatTime(profile.registration_date) : '')}
      </Form.Item>
      <Form.Item wrapperCol={{ xs: { span: 24 }, md: { offset: 6, span: 16 } }}>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
            {t('userSetting.basic.save')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              form.setFieldsValue(toFormValues(profile));
            }}
            data-testid="profile-reset"
          >
            {t('userSetting.basic.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
