import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';

export interface ChartAxis {
  label: string;
  /** How a value reads (money, a date); the table below the chart carries the exact figures. */
  format: (value: string | number) => string;
}

/** Long category names stay on one line beside their bar, cut with an ellipsis (the table has them whole). */
const short = (text: string) => (text.length > 16 ? `${text.slice(0, 15)}…` : text);

/**
 * A report table's bar chart (@mantine/charts): one horizontal bar per row, its category on the
 * left so names stay readable on a 390px phone. It is a picture of the table that follows it (the
 * table is the source for screen readers and the exact figures): it has a visible title, and the
 * same title as its accessible name.
 */
export function ReportChart({
  title,
  points,
  x,
  y,
}: {
  title: string;
  points: { category: string | number; value: number }[];
  x: ChartAxis;
  y: ChartAxis;
}) {
  if (points.length === 0 || points.every((p) => p.value === 0)) return null;
  const data = points.map((p) => ({ category: x.format(p.category), value: p.value }));
  return (
    <Stack gap={4} data-testid="report-chart">
      <Text size="sm" fw={600} aria-hidden>
        {title}
      </Text>
      <div role="img" aria-label={title}>
        <BarChart
          h={Math.max(140, data.length * 34 + 40)}
          data={data}
          dataKey="category"
          orientation="vertical"
          series={[{ name: 'value', label: y.label, color: 'blue.6' }]}
          valueFormatter={(value) => y.format(value)}
          yAxisProps={{ width: 120, tickFormatter: (value: string) => short(String(value)) }}
          xAxisProps={{ allowDecimals: false }}
          gridAxis="x"
          tickLine="none"
          withBarValueLabel
          maxBarWidth={24}
          // Room on the right for the longest bar's value label.
          barChartProps={{ accessibilityLayer: false, margin: { right: 40 } }}
        />
      </div>
    </Stack>
  );
}
