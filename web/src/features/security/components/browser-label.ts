const BROWSERS: [RegExp, string][] = [
  [/Edg\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[^ ]* .*Safari/, 'Safari'],
];

// Android and iOS before Linux and macOS: their agents name those too.
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];

/**
 * A `User-Agent` read as a person says it ("Chrome 120 · Windows"); an agent no rule
 * knows (a script, curl) is shown as sent, cut at 40 characters; none is "-".
 */
export function browserLabel(agent: string): string {
  if (!agent) return '-';
  const browser = BROWSERS.map(([pattern, name]) => {
    const found = pattern.exec(agent);
    return found ? `${name} ${found[1]}` : undefined;
  }).find(Boolean);
  if (!browser) return agent.length > 40 ? `${agent.slice(0, 40)}…` : agent;
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  return system ? `${browser} · ${system}` : browser;
}
