/**
 * A chart drawn by ECharts, with only the parts the console uses registered (bar, line and pie
 * charts, grid, tooltip, legend, canvas): `echarts/core` keeps the rest of the library out
 * of the bundle. Imported only by the pages that chart (monitor, workplace, the template
 * dashboards), never by the
 * login page or the layout.
 */
import {
  BarChart,
  LineChart,
  PieChart,
  type BarSeriesOption,
  type LineSeriesOption,
  type PieSeriesOption,
} from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { init, use as registerParts, type ComposeOption, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

registerParts([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type EChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

export interface EChartProps {
  option: EChartOption;
  height?: number;
  /** What the chart shows, for screen readers (the canvas itself says nothing). */
  label: string;
  testId?: string;
}

export function EChart({ option, height = 260, label, testId }: EChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);

  useEffect(() => {
    const node = element.current;
    if (!node) return undefined;
    const instance = init(node);
    chart.current = instance;
    // Set once the first drawing and its animation are done: what a screenshot waits for.
    instance.on('finished', () => node.setAttribute('data-drawn', 'true'));
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(node);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // Merged into what is drawn: a live update moves the lines instead of redrawing them.
    chart.current?.setOption(option);
  }, [option]);

  return <div ref={element} style={{ width: '100%', height }} role="img" aria-label={label} data-testid={testId} />;
}
