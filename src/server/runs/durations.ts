/** How long a run took, as the API shows it: ISO 8601 (`PT64.250S`) and for people (`1m 04s`). */

export function isoDuration(milliseconds: number): string {
  const seconds = Math.max(0, milliseconds) / 1000;
  return `PT${Number(seconds.toFixed(3))}S`;
}

export function formatDuration(milliseconds: number): string {
  const total = Math.max(0, Math.round(milliseconds / 1000));
  if (milliseconds < 1000) return '<1s';
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  if (hours > 0) return `${hours}h ${pad(minutes)}m ${pad(seconds)}s`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}
