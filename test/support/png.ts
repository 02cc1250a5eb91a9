// Decodes the PNGs Chromium writes (8-bit RGB or RGBA, not interlaced) into RGBA pixels, enough for a test to
// look at what a page drew. Written from the PNG spec (RFC 2083 §6 filters), with node:zlib for the inflate.
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

export interface Pixels { width: number; height: number; rgba: Uint8Array }

export function readPng(file: string): Pixels {
  const buf = readFileSync(file);
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error(`${file} is not a PNG`);
  let width = 0; let height = 0; let colorType = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      const depth = data[8]; colorType = data[9] as number;
      if (depth !== 8 || (colorType !== 2 && colorType !== 6) || data[12] !== 0) throw new Error(`${file}: only 8-bit RGB/RGBA, not interlaced, is read here`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = colorType === 6 ? 4 : 3;
  const stride = width * bpp;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? (cur[i - bpp] as number) : 0;
      const b = prev[i] as number;
      const c = i >= bpp ? (prev[i - bpp] as number) : 0;
      const x = line[i] as number;
      let v: number;
      switch (filter) {
        case 0: v = x; break;
        case 1: v = x + a; break;
        case 2: v = x + b; break;
        case 3: v = x + ((a + b) >> 1); break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a); const pb = Math.abs(p - b); const pc = Math.abs(p - c);
          v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default: throw new Error(`${file}: bad filter ${filter} on row ${y}`);
      }
      cur[i] = v & 0xff;
    }
    for (let px = 0; px < width; px++) {
      const o = (y * width + px) * 4;
      out[o] = cur[px * bpp] as number; out[o + 1] = cur[px * bpp + 1] as number; out[o + 2] = cur[px * bpp + 2] as number;
      out[o + 3] = bpp === 4 ? (cur[px * bpp + 3] as number) : 255;
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/** Pixels inside the rectangle whose colour is within `tolerance` per channel of `hex` (`#4e79a7`). */
export function countColor(p: Pixels, rect: { x: number; y: number; width: number; height: number }, hex: string, tolerance = 10): number {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let y = Math.max(0, Math.floor(rect.y)); y < Math.min(p.height, Math.ceil(rect.y + rect.height)); y++) {
    for (let x = Math.max(0, Math.floor(rect.x)); x < Math.min(p.width, Math.ceil(rect.x + rect.width)); x++) {
      const o = (y * p.width + x) * 4;
      if (Math.abs((p.rgba[o] as number) - (want[0] as number)) <= tolerance && Math.abs((p.rgba[o + 1] as number) - (want[1] as number)) <= tolerance
        && Math.abs((p.rgba[o + 2] as number) - (want[2] as number)) <= tolerance) n++;
    }
  }
  return n;
}
