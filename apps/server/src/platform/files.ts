import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where uploaded files live. The API stays stateless: files go through this interface, so a cloud
 * object store can replace the local disk without touching features.
 */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** null when there is no such file. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** Bytes stored for one company (the operator's Customers list); optional for other stores. */
  usedBytes?(companyId: number): Promise<number>;
}

/** Keys are `<visibility>/<companyId>/<random>.<ext>`; only what `newFileKey` makes is accepted. */
const KEY_PATTERN = /^(public|private)\/\d+\/[A-Za-z0-9_-]{16,64}\.[a-z0-9]{1,8}$/;

export function newFileKey(visibility: 'public' | 'private', companyId: number, extension: string): string {
  return `${visibility}/${companyId}/${randomBytes(16).toString('base64url')}.${extension}`;
}

export function isFileKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Files on local disk under DATA_DIR/files. */
export class LocalDiskStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!isFileKey(key)) throw new Error(`invalid file key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async usedBytes(companyId: number): Promise<number> {
    let total = 0;
    for (const visibility of ['public', 'private']) {
      const dir = path.join(this.root, visibility, String(companyId));
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) total += (await stat(path.join(dir, name)).catch(() => null))?.size ?? 0;
    }
    return total;
  }
}

/** Images we accept, by their first bytes (never by the name or the browser's claimed type). SVG is refused: it can carry script. */
const IMAGE_SIGNATURES: { extension: string; type: string; test: (b: Buffer) => boolean }[] = [
  {
    extension: 'png',
    type: 'image/png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { extension: 'jpg', type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { extension: 'gif', type: 'image/gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    extension: 'webp',
    type: 'image/webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

export function sniffImage(data: Buffer): { extension: string; type: string } | null {
  const found = IMAGE_SIGNATURES.find((s) => s.test(data));
  return found ? { extension: found.extension, type: found.type } : null;
}

export function contentTypeOf(key: string): string {
  const extension = key.split('.').pop();
  return IMAGE_SIGNATURES.find((s) => s.extension === extension)?.type ?? 'application/octet-stream';
}
