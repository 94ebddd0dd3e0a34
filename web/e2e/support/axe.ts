/**
 * Accessibility checks with axe-core in the browser tests: the WCAG 2.1 A and AA rules over
 * what a page shows now. A violation is reported with its rule, impact, the elements (CSS
 * selectors) and axe's help text and link, so that a failure says what to fix and where.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

/** The rule sets checked: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  /** Each element found: its selector path (frames and shadow roots joined by ` >> `) and axe's summary. */
  nodes: { target: string; html: string; summary: string }[];
}

export interface AxeOptions {
  /**
   * Selectors left out of the check. Only for a third-party widget's internals that the
   * console cannot change; each use says why where it is passed.
   */
  exclude?: string[];
  /** Report and carry on (expect.soft): a tour of many pages lists all their violations at once. */
  soft?: boolean;
}

/**
 * Load axe into the page once per document. Through the DevTools protocol (page.evaluate)
 * rather than a <script> tag: the console's Content-Security-Policy (script-src 'self')
 * refuses an inline script, and that refusal is itself a console error the tests fail on.
 */
async function injectAxe(page: Page) {
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(`${AXE_SOURCE}\n;void 0`);
}

/** What axe finds on the page as it is now (every frame of the document). */
export async function axeFindings(page: Page, options: AxeOptions = {}): Promise<AxeFinding[]> {
  // The page at rest: a button the test has just clicked would otherwise be read in its
  // hover colour, a state that depends on where the pointer was left, not on the page.
  const size = page.viewportSize();
  if (size) await page.mouse.move(size.width - 1, size.height - 1);
  await injectAxe(page);
  return page.evaluate(
    async ({ tags, exclude }) => {
      type Node = { target: unknown[]; html: string; failureSummary?: string };
      type Result = { id: string; impact?: string | null; help: string; helpUrl: string; nodes: Node[] };
      const axe = (
        window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Result[] }> } }
      ).axe;
      const context = exclude.length
        ? { include: [document], exclude: exclude.map((selector) => [selector]) }
        : document;
      const { violations } = await axe.run(context, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return violations.map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? 'unknown',
        help: violation.help,
        helpUrl: violation.helpUrl,
        nodes: violation.nodes.map((node) => ({
          target: node.target.map((part) => (Array.isArray(part) ? part.join(' >> ') : String(part))).join(' >> '),
          html: node.html.length > 160 ? `${node.html.slice(0, 160)}…` : node.html,
          summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
        })),
      }));
    },
    { tags: WCAG_TAGS, exclude: options.exclude ?? [] },
  );
}

/** A finding as readable lines: `where`, the rule, its impact and help, then each element. */
export function describeFindings(where: string, findings: AxeFinding[]): string[] {
  return findings.map(
    (finding) =>
      `[${where}] ${finding.rule} (${finding.impact}): ${finding.help} <${finding.helpUrl}>\n` +
      finding.nodes.map((node) => `    ${node.target}\n      ${node.html}\n      ${node.summary}`).join('\n'),
  );
}

/** Fails, listing every violation, if axe finds any on the page as it is now. */
export async function expectNoAxeViolations(page: Page, where: string, options: AxeOptions = {}) {
  const found = describeFindings(where, await axeFindings(page, options));
  (options.soft ? expect.soft : expect)(
    found,
    `accessibility violations (axe-core, ${WCAG_TAGS.join(', ')})\n${found.join('\n')}`,
  ).toEqual([]);
}
