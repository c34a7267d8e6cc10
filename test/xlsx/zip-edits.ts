/** Zips edited by hand where fflate writes no such thing: a comment after the end record, a zip64 end record. */

/** `zip` with `comment` after its end record, its comment length set to match. */
export function withComment(zip: Uint8Array, comment: Uint8Array): Buffer {
  const copy = Buffer.from(zip);
  copy.writeUInt16LE(comment.length, copy.length - 2);
  return Buffer.concat([copy, comment]);
}

/** `zip` with a zip64 end record and its locator before the end record, whose count and offset then say "see zip64". */
export function withZip64End(zip: Uint8Array): Buffer {
  const bytes = Buffer.from(zip);
  const end = bytes.length - 22;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(45, 12);
  record.writeBigUInt64LE(BigInt(bytes.readUInt16LE(end + 8)), 24);
  record.writeBigUInt64LE(BigInt(bytes.readUInt16LE(end + 10)), 32);
  record.writeBigUInt64LE(BigInt(bytes.readUInt32LE(end + 12)), 40);
  record.writeBigUInt64LE(BigInt(bytes.readUInt32LE(end + 16)), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(end), 8);
  locator.writeUInt32LE(1, 16);
  const saturated = Buffer.from(bytes.subarray(end));
  saturated.writeUInt16LE(0xffff, 8);
  saturated.writeUInt16LE(0xffff, 10);
  saturated.writeUInt32LE(0xffffffff, 12);
  saturated.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([bytes.subarray(0, end), record, locator, saturated]);
}
