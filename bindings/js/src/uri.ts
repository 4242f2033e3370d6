// file: URIs for workspace roots, in a form the core parses back.

/** The file: URI of an absolute path (POSIX, or a Windows drive path). */
export function fileUri(path: string): string {
  if (/^file:/i.test(path)) return path;
  let p = path.replace(/\\/g, '/');
  if (/^[A-Za-z]:\//.test(p)) p = '/' + p;
  return 'file://' + p.split('/').map((s) => encodeURIComponent(s).replace(/%3A/gi, ':')).join('/');
}
