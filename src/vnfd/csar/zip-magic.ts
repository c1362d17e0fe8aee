/**
 * How a zip archive starts: a local file header (an archive with entries) or, for an empty
 * archive, the end of central directory record. Enough to tell a zip from anything else by its
 * first bytes.
 */
export const ZIP_MAGIC_LENGTH = 4;

const LOCAL_FILE_HEADER = 0x04034b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;

export function isZipMagic(head: Buffer): boolean {
  if (head.length < ZIP_MAGIC_LENGTH) return false;
  const signature = head.readUInt32LE(0);
  return signature === LOCAL_FILE_HEADER || signature === END_OF_CENTRAL_DIRECTORY;
}
