import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/**
 * One figure per day as a small uPlot chart, its total in the caption (the figures themselves go
 * in a table beside it, for those who cannot see the chart). Amounts sum to two decimals.
 */
export function MetricChart<Day extends { date: string }>({ label, colour, days, value, amount = label.startsWith("Spend") }: { label: string; colour: string; days: readonly Day[]; value(day: Day): number; amount?: boolean }) {
  const container = useRef<HTMLDivElement>(null);
  const total = days.reduce((sum, day) => sum + value(day), 0);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const data: uPlot.AlignedData = [days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000), days.map(value)];
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: 140,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_chart, _min, max) => [0, Math.max(1, max)] } },
        axes: [{ stroke: "#555", grid: { show: false } }, { stroke: "#555", size: 56, grid: { stroke: "#e3e6ea" } }],
        series: [{}, { label, stroke: colour, width: 2, fill: `${colour}22`, points: { show: days.length <= 31 } }],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: 140 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, value, label, colour]);
  const rounded = amount ? total.toFixed(2) : String(total);
  return (
    <figure className="chart">
      <figcaption>
        {label}: <strong>{rounded}</strong> over {days.length} days
      </figcaption>
      <div ref={container} role="img" aria-label={`${label} per day: ${rounded} over ${days.length} days; the figures are in the table below.`} />
    </figure>
  );
}
