/**
 * The seed's progress display (stderr). On a terminal: one line rewritten in
 * place, with the file's percentage (bytes read of its size, a .zip's
 * uncompressed size), rows read and rows per second, and the whole load's
 * percentage. Elsewhere (CI, a log file): plain lines, no control characters:
 * one when a file starts, one every 5 seconds while it is read, one when it
 * is done (rows, seconds, rows per second), one per other phase.
 */
import type { BuildProgress } from "./build-store";

export type ProgressOutput = { write(text: string): void; isTTY?: boolean };

function formatBytes(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(2)} GB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MB`;
  return `${(n / 1024).toFixed(0)} KB`;
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.min(100, Math.floor((100 * part) / whole)) : 100);
const count = (n: number) => Math.round(n).toLocaleString("en-US");

export function progressPrinter(out: ProgressOutput, now: () => number = Date.now): (p: BuildProgress) => void {
  const tty = Boolean(out.isTTY);
  let lastLine = 0;
  let file = "";
  let fileStarted = 0;
  let fileDone = false;
  return (p) => {
    const t = now();
    if (p.phase !== "read") {
      const text =
        p.phase === "index"
          ? p.done < p.total
            ? `indexing ${p.index} (${p.done + 1}/${p.total})`
            : "indexes built"
          : p.message;
      out.write(tty ? `\r\x1b[K${text}${p.phase === "finish" ? "\n" : ""}` : `${text}\n`);
      lastLine = t;
      return;
    }
    const started = p.file !== file;
    if (started) {
      file = p.file;
      fileStarted = t;
      fileDone = false;
    }
    const seconds = Math.max((t - fileStarted) / 1000, 0.001);
    const rate = p.rowsRead / seconds;
    const filePct = pct(p.bytesRead, p.totalBytes);
    const overall = pct(p.overallBytesRead, p.overallTotalBytes);
    const done = p.bytesRead >= p.totalBytes;
    if (tty) {
      out.write(
        `\r\x1b[K[${String(overall).padStart(3)}%] ${p.file}: ${String(filePct).padStart(3)}% of ${formatBytes(p.totalBytes)}, ${count(p.rowsRead)} rows, ${count(rate)} rows/s`,
      );
      return;
    }
    if (started) {
      out.write(`[${String(overall).padStart(3)}%] ${p.file}: reading ${formatBytes(p.totalBytes)}\n`);
      lastLine = t;
    }
    if (done && !fileDone) {
      fileDone = true;
      out.write(
        `[${String(overall).padStart(3)}%] ${p.file}: done, ${count(p.rowsRead)} rows in ${seconds.toFixed(1)} s (${count(rate)} rows/s)\n`,
      );
      lastLine = t;
    } else if (!done && t - lastLine >= 5000) {
      out.write(
        `[${String(overall).padStart(3)}%] ${p.file}: ${filePct}%, ${count(p.rowsRead)} rows, ${count(rate)} rows/s\n`,
      );
      lastLine = t;
    }
  };
}
