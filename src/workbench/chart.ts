/** A line chart of a HISTORY spill as inline SVG: dates across, one line per price column. No chart library. */
import { isCellError, type CellValue } from "../host/values";
import { serialText } from "./format";
import { escapeMarkup } from "../xlsx/escape";

export interface ChartSeries {
  readonly name: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface ChartData {
  readonly title: string;
  readonly series: readonly ChartSeries[];
}

/** The price columns a chart draws: on one scale, unlike dates, revisions or changes. */
const PRICE_COLUMNS = new Set(["low", "mid", "high"]);

/**
 * Reads a history table (the spill's values): header rows are the leading rows without numbers (the last one
 * names the columns), the date column is the one named `date` (else the first). With named columns only the price
 * columns (low, mid, high) are series, so an `assessmentDate` or `revision` column does not flatten the prices;
 * without names, every other column with numbers is. Undefined when there is nothing to draw.
 */
export function historyChartData(grid: readonly (readonly CellValue[])[], title: string): ChartData | undefined {
  let headerRow = -1;
  while (headerRow + 1 < grid.length && !(grid[headerRow + 1] ?? []).some((cell) => typeof cell === "number")) headerRow += 1;
  const names = headerRow >= 0 ? (grid[headerRow] ?? []) : [];
  const width = grid[0]?.length ?? 0;
  const named = names.findIndex((name) => typeof name === "string" && name.toLowerCase() === "date");
  const dateColumn = named >= 0 ? named : 0;
  const rows = grid.slice(headerRow + 1);
  const series: ChartSeries[] = [];
  const isPrice = (col: number): boolean => {
    const name = names[col];
    return headerRow < 0 || (typeof name === "string" && PRICE_COLUMNS.has(name.toLowerCase()));
  };
  for (let col = 0; col < width; col += 1) {
    if (col === dateColumn || !isPrice(col)) continue;
    const points: { x: number; y: number }[] = [];
    for (const row of rows) {
      const x = row[dateColumn];
      const y = row[col];
      if (typeof x === "number" && typeof y === "number" && !isCellError(y)) points.push({ x, y });
    }
    if (points.length < 2) continue;
    points.sort((a, b) => a.x - b.x);
    const name = names[col];
    series.push({ name: typeof name === "string" && name !== "" ? name : `column ${col + 1}`, points });
  }
  return series.length === 0 ? undefined : { title, series };
}

const COLORS = ["#2b88d8", "#107c10", "#d83b01", "#8764b8", "#008272", "#c239b3"];

/** Round tick steps (1, 2, 5 x 10^n) covering [min, max] with about `count` ticks. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw);
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

export function lineChartSvg(data: ChartData, width = 640, height = 300): string {
  const margin = { top: 28, right: 16, bottom: 44, left: 64 };
  const xs = data.series.flatMap((s) => s.points.map((p) => p.x));
  const ys = data.series.flatMap((s) => s.points.map((p) => p.y));
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const yTicks = niceTicks(Math.min(...ys), Math.max(...ys));
  const yMin = Math.min(Math.min(...ys), yTicks[0] ?? 0);
  const yMax = Math.max(Math.max(...ys), yTicks[yTicks.length - 1] ?? 1);
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const sx = (x: number): number => margin.left + (xMax === xMin ? plotW / 2 : ((x - xMin) / (xMax - xMin)) * plotW);
  const sy = (y: number): number => margin.top + (yMax === yMin ? plotH / 2 : (1 - (y - yMin) / (yMax - yMin)) * plotH);
  const f = (n: number): string => n.toFixed(1);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeMarkup(data.title)}">`);
  parts.push(`<text x="${margin.left}" y="18" class="chart-title">${escapeMarkup(data.title)}</text>`);
  for (const tick of yTicks) {
    parts.push(`<line class="grid" x1="${margin.left}" x2="${width - margin.right}" y1="${f(sy(tick))}" y2="${f(sy(tick))}"/>`);
    parts.push(`<text class="tick" x="${margin.left - 6}" y="${f(sy(tick) + 4)}" text-anchor="end">${escapeMarkup(String(tick))}</text>`);
  }
  const xTickCount = 6;
  for (let i = 0; i <= xTickCount; i += 1) {
    const x = xMin + ((xMax - xMin) * i) / xTickCount;
    const label = serialText(Math.round(x)) ?? String(Math.round(x));
    const anchor = i === 0 ? "start" : i === xTickCount ? "end" : "middle";
    parts.push(`<text class="tick" x="${f(sx(x))}" y="${height - margin.bottom + 18}" text-anchor="${anchor}">${escapeMarkup(label)}</text>`);
  }
  parts.push(`<line class="axis" x1="${margin.left}" x2="${width - margin.right}" y1="${margin.top + plotH}" y2="${margin.top + plotH}"/>`);
  parts.push(`<line class="axis" x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${margin.top + plotH}"/>`);
  data.series.forEach((series, index) => {
    const color = COLORS[index % COLORS.length] ?? "#2b88d8";
    const path = series.points.map((p, i) => `${i === 0 ? "M" : "L"}${f(sx(p.x))},${f(sy(p.y))}`).join("");
    parts.push(`<path class="series" data-series="${escapeMarkup(series.name)}" d="${path}" fill="none" stroke="${color}" stroke-width="1.6"/>`);
    const lx = margin.left + index * 90;
    parts.push(`<rect x="${lx}" y="${height - 16}" width="12" height="3" fill="${color}"/>`);
    parts.push(`<text class="legend" x="${lx + 16}" y="${height - 11}">${escapeMarkup(series.name)}</text>`);
  });
  parts.push("</svg>");
  return parts.join("");
}
