// Stable event identity from (host, file_key, offset), so a replayed byte range yields the same ids (docs/architecture.md §1).

/**
 * Returns offset → id for one file: 16 hex digits of a 64-bit FNV-1a style hash of (host, file_key), computed once
 * per file, then the offset as 12 hex digits. Distinct offsets in one file can never collide, and it costs one
 * toString per event: hashing the whole triple per event was 8% of the parser's time.
 */
export function eventIdHasher(host: string, fileKey: string): (offset: number) => string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  const head = `${host}\u0000${fileKey}`;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  const base = h2.toString(16).padStart(8, '0') + h1.toString(16).padStart(8, '0');
  return (offset) => base + offset.toString(16).padStart(12, '0');
}

export function eventId(host: string, fileKey: string, offset: number): string {
  return eventIdHasher(host, fileKey)(offset);
}
