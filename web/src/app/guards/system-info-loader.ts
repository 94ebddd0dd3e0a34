/**
 * Loaded on demand by the guard (not part of the login page): stores the system
 * information and, when the template pages are on, their texts before any of them renders.
 */
import { ensureSystemInfo, templatePagesOn } from '@/lib/system-info';

export async function loadSystemInfo(): Promise<{ templatePages: boolean }> {
  await ensureSystemInfo();
  const templatePages = templatePagesOn();
  if (templatePages) (await import('@/locales/template-bundle')).loadTemplateTexts();
  return { templatePages };
}
