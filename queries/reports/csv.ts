// CSV for spreadsheets (RFC 4180 §2): a field holding a comma, a double quote, a carriage return or a line feed is
// written in double quotes with its quotes doubled; any other field as it is. Records end with `\n` (what the reports
// have always written; spreadsheets and csv readers accept it). Every report's CSV goes through here.

/** One field as it goes into a record. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Records (the header first, when there is one) as CSV text, one line per record, ending in a line break. */
export function csvText(records: readonly (readonly string[])[]): string {
  return records.map((r) => `${r.map(csvField).join(',')}\n`).join('');
}
