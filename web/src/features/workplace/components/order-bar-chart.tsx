import { useTranslation } from 'react-i18next';
import type { OverviewDay } from '../api/overview';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 16, right: 12, bottom: 28, left: 40 };

/** A round "nice" top for the axis: 1, 2, 5 × 10^n at or above `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/**
 * The last days' orders as stacked bars (success, failure, other) drawn as plain SVG: no chart
 * library, so the workplace stays light.
 */
export function OrderBarChart({ days }: { days: OverviewDay[] }) {
  const { t } = useTranslation();
  const top = niceMax(Math.max(0, ...days.map((day) => day.total)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = days.length ? innerW / days.length : innerW;
  const barW = Math.min(36, slot * 0.6);
  const y = (value: number) => PAD.top + innerH - (value / top) * innerH;
  const ticks = [0, top / 2, top];

  return (
    <div className="workplace__chart" data-testid="workplace-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t('workplace.chart.title')} width="100%">
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="workplace__chart-grid" />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" className="workplace__chart-label">
              {tick}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const x = PAD.left + slot * index + (slot - barW) / 2;
          const other = Math.max(0, day.total - day.success - day.failure);
          const parts = [
            { key: 'success', value: day.success, className: 'workplace__bar--success' },
            { key: 'failure', value: day.failure, className: 'workplace__bar--failure' },
            { key: 'other', value: other, className: 'workplace__bar--other' },
          ];
          let base = 0;
          return (
            <g key={day.date} data-testid="workplace-chart-day">
              <title>
                {`${day.date}: ${t('workplace.chart.success')} ${day.success}, ${t('workplace.chart.failure')} ${day.failure}, ${t('workplace.chart.total')} ${day.total}`}
              </title>
              {parts.map((part) => {
                const y0 = y(base);
                base += part.value;
                const y1 = y(base);
                return part.value > 0 ? (
                  <rect key={part.key} x={x} y={y1} width={barW} height={y0 - y1} className={part.className} />
                ) : null;
              })}
              <text x={x + barW / 2} y={HEIGHT - 8} textAnchor="middle" className="workplace__chart-label">
                {day.date.slice(5)}
              </text>
            </g>
          );
        })}
      </svg>
      <div className="workplace__legend">
        <span><i className="workplace__bar--success" />{t('workplace.chart.success')}</span>
        <span><i className="workplace__bar--failure" />{t('workplace.chart.failure')}</span>
        <span><i className="workplace__bar--other" />{t('workplace.chart.other')}</span>
      </div>
    </div>
  );
}
