import type { CompanyStatus } from '@tumble/contracts/operators';

export const statusColours: Record<CompanyStatus, string> = {
  pending: 'yellow',
  active: 'teal',
  suspended: 'red',
  declined: 'gray',
};

/** 1234567 → '1.2 MB'; null (the file store cannot tell) → '—'. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
