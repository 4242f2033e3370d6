package core

import (
	"path"
	"strings"
)

// Windows paths and their file: URIs.
//
// The core names files by POSIX paths and file: URIs (uri.go). A Windows
// host converts at its edge with these functions (through
// PathRulesFor("windows"), hostpaths.go), which are pure and so tested on
// any machine (golden file testdata/winpath.golden):
//
//	C:\src\a b.go          ↔ file:///C:/src/a%20b.go   (drive letter upper-cased)
//	\\server\share\x.go    ↔ file://server/share/x.go  (UNC: the host is the authority)
//	\\?\C:\src\x.go        → file:///C:/src/x.go       (the long-path prefix dropped)
//	\\?\UNC\server\share\x → file://server/share/x
//
// Read back, a URI's drive may come in any case and with its colon
// percent-encoded (VS Code sends file:///c%3A/src/x.go): WindowsURIPath
// gives C:\src\x.go for each spelling, so one file has one path.
// Separators may be / or \ on the way in and are \ on the way out; dot
// segments are resolved (above a drive's or share's root they stop there
// going in; a URI that climbs above its root names no file). NTFS
// and the default macOS volumes compare names without regard to case:
// FoldedPathKey is the key under which such spellings are one file (the
// host still asks the file system for the name as stored; the key only
// decides "same file" without a system call).

// WindowsFileURI is the file: URI of an absolute Windows path (drive or
// UNC), encoded as FileURI encodes (the drive's colon kept). ok is false
// for a relative path, a drive-relative path (C:x) or an empty UNC
// server or share.
func WindowsFileURI(p string) (uri string, ok bool) {
	p = strings.ReplaceAll(p, `/`, `\`)
	switch {
	case strings.HasPrefix(p, `\\?\UNC\`):
		p = `\\` + p[len(`\\?\UNC\`):]
	case strings.HasPrefix(p, `\\?\`), strings.HasPrefix(p, `\\.\`):
		p = p[len(`\\?\`):]
	}
	if drive, rest, ok := splitDrive(p); ok {
		if rest != "" && rest[0] != '\\' {
			return "", false // C:x is relative to C:'s current directory
		}
		return "file:///" + drive + FileURI(path.Clean("/" + strings.ReplaceAll(rest, `\`, "/")))[len("file://"):], true
	}
	if !strings.HasPrefix(p, `\\`) {
		return "", false
	}
	server, rest, _ := strings.Cut(p[2:], `\`)
	share, _, _ := strings.Cut(rest, `\`)
	if server == "" || share == "" || !validHost(server) {
		return "", false
	}
	return "file://" + strings.ToLower(server) + FileURI(path.Clean("/" + strings.ReplaceAll(rest, `\`, "/")))[len("file://"):], true
}

// WindowsURIPath is the Windows path a file: URI names: a drive path
// (file:///C:/x, file:///c%3A/x, file://localhost/C:/x, file:/C:/x) or a
// UNC path (file://server/share/x). ok is false for anything else,
// including a URI with no drive and no server: it names no Windows file.
func WindowsURIPath(uri string) (p string, ok bool) {
	if len(uri) < 5 || !strings.EqualFold(uri[:5], "file:") {
		return "", false
	}
	rest := uri[5:]
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	host := ""
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		slash := strings.IndexByte(rest, '/')
		if slash < 0 {
			return "", false
		}
		host, rest = rest[:slash], rest[slash:]
		if strings.EqualFold(host, "localhost") {
			host = ""
		}
	}
	decoded, ok := FileURIPath("file://" + rest)
	if !ok {
		return "", false
	}
	if host != "" {
		if !validHost(host) || decoded == "/" {
			return "", false
		}
		return `\\` + strings.ToLower(host) + strings.ReplaceAll(decoded, "/", `\`), true
	}
	drive, after, ok := splitDrive(decoded[1:])
	if !ok || (after != "" && after[0] != '/') {
		return "", false
	}
	if after == "" {
		after = "/"
	}
	return drive + strings.ReplaceAll(after, "/", `\`), true
}

// splitDrive splits "c:rest" into "C:" and rest.
func splitDrive(p string) (drive, rest string, ok bool) {
	if len(p) < 2 || p[1] != ':' {
		return "", "", false
	}
	c := p[0]
	if 'a' <= c && c <= 'z' {
		c -= 'a' - 'A'
	}
	if c < 'A' || c > 'Z' {
		return "", "", false
	}
	return string(c) + ":", p[2:], true
}

// validHost accepts a UNC server name: letters, digits, '-', '.', '_'
// (names, IPv4 addresses), no percent-escapes or other URI syntax, and not
// "." or "?" alone (\\.\ and \\?\ are device and long-path prefixes).
func validHost(h string) bool {
	if strings.Trim(h, ".") == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return h != ""
}

// FoldedPathKey is the key under which spellings of one path on a file
// system that ignores case (NTFS, APFS and HFS+ by default) are equal:
// separators as /, the drive letter and every letter folded to lower
// case (strings.ToLower; those file systems fold by their own tables,
// which agree on the letters names use). It is a
// comparison key, never a path to open.
func FoldedPathKey(p string) string {
	return strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
}

// ReservedWindowsName reports whether a path element names a device on
// Windows — CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9 (also ¹²³ forms), with
// any extension and in any case, trailing dots and spaces ignored — or
// ends in a dot or a space, which Windows strips: a file by such a name
// cannot be created or is another file. The write tools refuse to create
// them on a Windows host (bindings/go's reservedElement).
func ReservedWindowsName(elem string) bool {
	if elem == "" || elem == "." || elem == ".." {
		return false
	}
	if last := elem[len(elem)-1]; last == '.' || last == ' ' {
		return true
	}
	base, _, _ := strings.Cut(elem, ".")
	base = strings.TrimRight(base, " ")
	switch strings.ToUpper(base) {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) >= 4 {
		prefix := strings.ToUpper(base[:3])
		digit := base[3:]
		if (prefix == "COM" || prefix == "LPT") && (len(digit) == 1 && '0' <= digit[0] && digit[0] <= '9' || digit == "¹" || digit == "²" || digit == "³") {
			return true
		}
	}
	return false
}
