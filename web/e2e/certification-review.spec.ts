/**
 * The administrators' certification review page (issue 15 point 12): a menu entry with a
 * badge of pending submissions, a to-do in the message center when a merchant submits, the
 * evidence in full before deciding, and a confirmation for approval. On a server of its own:
 * an approval changes the demo merchant's certification for good.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { expect, loginAs, openOverlay, test, USERS, useLocale } from './support/console';
import { useOwnServer } from './support/spec-server';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

useOwnServer();
test.use({ viewport: { width: 1440, height: 900 } });

async function submitAsMerchant(request: APIRequestContext, enterprise: string): Promise<number> {
  const login = await request.post('/adminapi/login/login', { data: USERS.merchant });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const response = await request.post('/adminapi/certification/submit', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      account_type: 'enterprise',
      legal_person: '张三',
      legal_person_certificate_type: 'id_card',
      legal_person_certificate_number: '11010519491231002X',
      enterprise_name: enterprise,
      enterprise_certificate_type: 'unified_social_credit_code',
      enterprise_certificate_number: '91350100M000100Y43',
    },
  });
  const body = (await response.json()) as { code: number; msg: string; data: { id: number } };
  expect(body.code, body.msg).toBe(20000);
  // The licence image (a 1×1 PNG), sent under a misleading name: the server decides by content.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const licence = await request.post('/adminapi/certification/licence', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { id: String(body.data.id), file: { name: 'licence.txt', mimeType: 'text/plain', buffer: png } },
  });
  const saved = (await licence.json()) as { code: number; msg: string; data: { content_type: string } };
  expect(saved.code, saved.msg).toBe(20000);
  expect(saved.data.content_type).toBe('image/png');
  return body.data.id;
}

for (const [locale, texts] of [
  [
    'zh-CN',
    {
      todo: '新的企业认证待审核',
      menu: '认证审核',
      check: '校验码正确',
      confirm: '确认通过「审核页测试有限公司 zh-CN」的企业认证？',
      done: '审核已完成',
    },
  ],
  [
    'en-US',
    {
      todo: 'New enterprise certification to review',
      menu: 'Certification review',
      check: 'Check character correct',
      confirm: 'Approve the enterprise certification of “审核页测试有限公司 en-US”?',
      done: 'Review saved',
    },
  ],
] as const) {
  test(`an administrator is told of a submission, sees the evidence and confirms the approval (${locale})`, async ({
    page,
    request,
  }) => {
    const enterprise = `审核页测试有限公司 ${locale}`;
    const id = await submitAsMerchant(request, enterprise);
    await useLocale(page, locale);
    await loginAs(page, 'admin');

    // The closed finance group shows that something waits; the entry carries the number.
    await expect(page.getByTestId('menu-badge-finance')).toBeVisible();
    await page.getByTestId('menu-item-finance').click();
    const entry = page.getByTestId('menu-item-Certifications');
    await expect(entry).toHaveText(new RegExp(texts.menu));
    await expect(page.getByTestId('menu-badge-Certifications')).toHaveText('1');
    // A to-do in the message center.
    await page.goto('#/user/message?tab=todo');
    await expect(page.getByTestId('messages-todo')).toContainText(texts.todo);
    await expect(page.getByTestId('messages-todo')).toContainText(enterprise);

    await entry.click();
    await expect(page).toHaveURL(/#\/finance\/certifications$/);
    await expect(page.getByTestId('certification-review')).toContainText(enterprise);
    // The evidence in full, checked, before any decision.
    await openOverlay(page, page.getByTestId(`certification-open-${id}`), page.getByTestId('evidence-person-number'));
    await expect(page.getByTestId('evidence-person-number')).toHaveText('11010519491231002X');
    await expect(page.getByTestId('evidence-enterprise-number')).toHaveText('91350100M000100Y43');
    for (const tag of await page.getByTestId('certification-check').all()) await expect(tag).toHaveText(texts.check);
    // The licence image, read with the administrator's session.
    await expect(page.getByTestId('evidence-licence')).toBeVisible();
    // antd's Image puts the test id on its wrapper: the picture is the img inside.
    await expect(page.getByTestId('evidence-licence').locator('img')).toHaveAttribute('src', /^blob:/);
    await page.screenshot({ path: `${screenshots}${locale}-certification-evidence.png` });

    await openOverlay(page, page.getByTestId(`certification-approve-${id}`), page.getByText(texts.confirm));
    await page.getByTestId('certification-approve-confirm').click();
    await expect(page.locator('.ant-message-notice').filter({ hasText: texts.done }).first()).toBeVisible();
    await expect(page.getByTestId('menu-badge-Certifications')).toHaveCount(0);
    await expect(page.getByTestId('evidence-person-number')).toHaveCount(0);
    await page.screenshot({ path: `${screenshots}${locale}-certification-review.png`, fullPage: true });
  });
}
