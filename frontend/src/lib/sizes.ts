/**
 * Byte counts as people type and read them: "67108864", "64 MiB", "64MB", "64m", "1.5 GiB". Every
 * unit is binary (KB = KiB = 1024 bytes), as in rclone's and most servers' configuration files; the
 * server reads sizes with the same grammar (NzbDav.Server.Configuration.ByteSize), so what the
 * field accepts the server accepts.
 */

const units = ["B", "KiB", "MiB", "GiB", "TiB"] as const;
const pattern = /^(\d{1,3}(?:[,_]\d{3})+|\d+(?:\.\d+)?|\.\d+)\s*([kmgt](?:i?b)?|b|bytes?)?$/i;

export type SizeReading = { bytes: number; error?: undefined } | { bytes?: undefined; error: string };

/** Reads a size; the error says what is accepted. */
export function parseSize(text: string): SizeReading {
  const trimmed = text.trim();
  const match = pattern.exec(trimmed);
  if (!match) return { error: `'${trimmed}' is not a size; write bytes or a number with a unit, e.g. 64 MiB, 64MB or 1.5 GiB.` };
  const number = Number(match[1]!.replace(/[,_]/g, ""));
  const unit = (match[2] ?? "").toUpperCase();
  const power = { K: 1, M: 2, G: 3, T: 4 }[unit.charAt(0)] ?? 0;
  const bytes = Math.round(number * 1024 ** power);
  if (!Number.isSafeInteger(bytes)) return { error: `'${trimmed}' is too large.` };
  return { bytes };
}

/**
 * The count in the largest unit that states it exactly with at most two decimals ("64 MiB",
 * "1.5 GiB"), else in bytes with thousands separators ("1,000,000,000 B"): reading it back gives the same count.
 */
export function formatSize(bytes: number): string {
  for (let power = units.length - 1; power >= 1; power--) {
    // Dividing by a power of two is exact in floating point, so the test for two decimals is too.
    const value = bytes / 1024 ** power;
    if (value >= 1 && value < 10_000 && Number.isInteger((bytes * 100) / 1024 ** power)) return `${value} ${units[power]}`;
  }
  return `${bytes.toLocaleString("en-US")} B`;
}

/** The problem with a size typed for a field with these bounds, in units, or null when it is fine. */
export function sizeProblem(label: string, text: string, min: number | null | undefined, max: number | null | undefined): string | null {
  const reading = parseSize(text);
  if (reading.error !== undefined) return `${label}: ${reading.error}`;
  const low = min ?? 0;
  if (reading.bytes < low || (max != null && reading.bytes > max))
    return max != null
      ? `${label} must be between ${formatSize(low)} and ${formatSize(max)}; ${formatSize(reading.bytes)} is not.`
      : `${label} must be at least ${formatSize(low)}; ${formatSize(reading.bytes)} is not.`;
  return null;
}
