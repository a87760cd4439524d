/**
 * A small CSV reader for the upstream fake: quoted fields (with "" escapes and
 * line breaks inside quotes), CRLF or LF, a UTF-8 byte-order mark, and any
 * one-character delimiter (the Census county list is pipe-delimited).
 * The fake stands in for an external system, so it reads the source files
 * itself instead of going through the service's seed pipeline.
 */
export function parseCsvRecords(text: string, delimiter = ","): string[][] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let inQuotes = false;
  let fieldStarted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        field += ch;
      }
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      inQuotes = true;
      fieldStarted = true;
    } else if (ch === delimiter) {
      record.push(field);
      field = "";
      fieldStarted = false;
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      if (!(record.length === 1 && record[0] === "")) records.push(record);
      record = [];
      field = "";
      fieldStarted = false;
    } else {
      field += ch;
      fieldStarted = true;
    }
  }
  if (fieldStarted || field !== "" || record.length > 0) {
    record.push(field);
    if (!(record.length === 1 && record[0] === "")) records.push(record);
  }
  return records;
}

/**
 * Rows keyed by lower-cased header name (headers are matched by name,
 * case-insensitively, never by position: columns move between plan years).
 */
export function parseCsv(text: string, delimiter = ","): Array<Record<string, string>> {
  const [header, ...rows] = parseCsvRecords(text, delimiter);
  if (!header) return [];
  const names = header.map((h) => h.trim().toLowerCase());
  return rows.map((cells) => {
    const row: Record<string, string> = {};
    names.forEach((name, i) => {
      row[name] = (cells[i] ?? "").trim();
    });
    return row;
  });
}
