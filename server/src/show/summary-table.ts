/**
 * A small two-column table for a terminal: each label padded to the longest, then its value.
 * Labels and values are the tool's own words and numbers; paths do not go in here.
 */
export function summaryTable(title: string, rows: [label: string, value: string][]): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return [title, ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join('\n');
}
