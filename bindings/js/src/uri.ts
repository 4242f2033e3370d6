// file: URIs of absolute paths, spelled exactly as the core spells them
// (core/uri.go FileURI, core/winpath.go WindowsFileURI): every byte of the
// UTF-8 path is percent-encoded except A–Z a–z 0–9 - . _ ~ and /, so a URI
// from this package and one from a server or the Go host compare equal
// for the same file. It is a twin of the core's rule rather than a call
// into the module because it must work before init(); the shared table
// testdata/uri/fileuri.json, which the core's own test writes, holds the
// two to the same answers (test/uri.test.mjs). Paths are not normalized to
// NFC or NFD: on Linux the two spellings are two files.

const hex = '0123456789ABCDEF';
const utf8 = new TextEncoder();

/** The path's bytes percent-encoded as the core encodes them. */
function encodePath(path: string): string {
  let out = '';
  for (const b of utf8.encode(path)) {
    const keep =
      (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) ||
      b === 0x2d || b === 0x2e || b === 0x5f || b === 0x7e || b === 0x2f;
    out += keep ? String.fromCharCode(b) : '%' + hex[b >> 4] + hex[b & 15];
  }
  return out;
}

/** Go's path.Clean of an absolute slash path. */
function cleanSlashPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

/** A UNC server name the core accepts (letters, digits, - . _; not only dots). */
function validHost(h: string): boolean {
  return /^[A-Za-z0-9._-]+$/.test(h) && h.replace(/\./g, '') !== '';
}

/** The URI of a Windows drive or UNC path, or undefined for any other path. */
function windowsFileUri(path: string): string | undefined {
  let p = path.replace(/\//g, '\\');
  if (p.startsWith('\\\\?\\UNC\\')) p = '\\\\' + p.slice('\\\\?\\UNC\\'.length);
  else if (p.startsWith('\\\\?\\') || p.startsWith('\\\\.\\')) p = p.slice(4);
  const drive = /^([A-Za-z]):(.*)$/s.exec(p);
  if (drive) {
    const rest = drive[2];
    if (rest !== '' && rest[0] !== '\\') return undefined; // C:x: relative to C:'s current directory
    return 'file:///' + drive[1].toUpperCase() + ':' + encodePath(cleanSlashPath('/' + rest.replace(/\\/g, '/')));
  }
  if (!p.startsWith('\\\\')) return undefined;
  const [server = '', share = ''] = p.slice(2).split('\\');
  if (server === '' || share === '' || !validHost(server)) return undefined;
  const rest = p.slice(2 + server.length);
  return 'file://' + server.toLowerCase() + encodePath(cleanSlashPath(rest.replace(/\\/g, '/')));
}

/**
 * The file: URI of an absolute path: a POSIX path, or a Windows drive
 * (`C:\work`) or UNC (`\\server\share`) path. A string that already is a
 * file: URI is returned as it is.
 */
export function fileUri(path: string): string {
  if (/^file:/i.test(path)) return path;
  if (/^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\')) {
    const uri = windowsFileUri(path);
    if (uri !== undefined) return uri;
  }
  return 'file://' + encodePath(path);
}
