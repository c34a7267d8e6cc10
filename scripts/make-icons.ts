/**
 * Draws the add-in's icons (assets/icon-16/32/64/80.png and logo-filled.png) as real PNGs: a teal
 * tile with three white bars (low, mid, high). Run: npx tsx scripts/make-icons.ts
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** RGBA pixels (row-major) to a PNG file. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

const TEAL = [0x0f, 0x6e, 0x6e, 0xff] as const;
const WHITE = [0xff, 0xff, 0xff, 0xff] as const;

/** The tile with rounded corners and three bars of rising height. */
export function drawIcon(size: number): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  const radius = size * 0.18;
  const bars = [0.45, 0.62, 0.8];
  const barWidth = size * 0.16;
  const gap = (size - bars.length * barWidth) / (bars.length + 1);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cx = Math.min(Math.max(x + 0.5, radius), size - radius);
      const cy = Math.min(Math.max(y + 0.5, radius), size - radius);
      const inside = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= radius;
      if (!inside) continue;
      let colour: readonly number[] = TEAL;
      bars.forEach((height, index) => {
        const left = gap + index * (barWidth + gap);
        const top = size * (0.88 - height * 0.8);
        if (x >= left && x < left + barWidth && y >= top && y < size * 0.86) colour = WHITE;
      });
      pixels.set(colour, (y * size + x) * 4);
    }
  }
  return pixels;
}

function main(): void {
  const dir = join(__dirname, "..", "assets");
  mkdirSync(dir, { recursive: true });
  for (const size of [16, 32, 64, 80]) writeFileSync(join(dir, `icon-${size}.png`), encodePng(size, size, drawIcon(size)));
  writeFileSync(join(dir, "logo-filled.png"), encodePng(300, 300, drawIcon(300)));
  console.log(`icons written to ${dir}`);
}

if (require.main === module) main();
