package core

import (
	"path"
	"strings"
	"unicode/utf8"
)

// file: URIs.
//
// Servers name documents by URI. Rendering turns a file: URI into a path a
// model can pass back to read tools: relative when it is inside the
// workspace, absolute when it is outside. The parser follows what Node's
// fileURLToPath accepts on POSIX hosts, so every host renders the same
// text: "file:" (any case), an empty or "localhost" authority (or none,
// "file:/x"), percent-decoding, no encoded "/" or NUL, the query and
// fragment dropped, dot segments resolved. Anything else is not a local
// path and is rendered verbatim rather than guessed at.

// FileURIPath returns the absolute POSIX path a file: URI names. ok is false
// when uri is not a file: URI or not one that names a local path.
func FileURIPath(uri string) (string, bool) {
	if len(uri) < 5 || !strings.EqualFold(uri[:5], "file:") {
		return "", false
	}
	rest := uri[5:]
	for i := 0; i < len(rest); i++ { // strings.IndexAny builds a set per call
		if rest[i] == '?' || rest[i] == '#' {
			rest = rest[:i]
			break
		}
	}
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		slash := strings.IndexByte(rest, '/')
		if slash < 0 {
			return "", false
		}
		if host := rest[:slash]; host != "" && !strings.EqualFold(host, "localhost") {
			return "", false
		}
		rest = rest[slash:]
	}
	if !strings.HasPrefix(rest, "/") {
		return "", false
	}
	p, ok := percentDecodePath(rest)
	if !ok {
		return "", false
	}
	if isClean(p) {
		return p, true
	}
	return path.Clean(p), true
}

// isClean reports that path.Clean would return the rooted path p as it
// is: no empty element (//), no "." or ".." element (it has no "/." at
// all), no trailing slash. Most URIs a server sends are such, and Clean's
// own pass costs more than this check.
func isClean(p string) bool {
	for i := 1; i < len(p); i++ {
		if p[i-1] == '/' && (p[i] == '/' || p[i] == '.') {
			return false
		}
	}
	return len(p) == 1 || p[len(p)-1] != '/'
}

// FileURI is the file: URI of an absolute path: "file://" and the path with
// every byte outside RFC 3986's unreserved characters and '/'
// percent-encoded (uppercase hex). Encoding that much means no byte of a
// POSIX file name (' ', '%', '#', '?', ':', non-ASCII) can be misread by a
// server's URI parser; FileURIPath reads the result back.
func FileURI(path string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len("file://")+len(path)+16)
	b = append(b, "file://"...)
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&0xF])
		}
	}
	return string(b)
}

// percentDecodePath decodes %XX escapes. It refuses what a path cannot
// hold: a malformed escape, an encoded "/" (it would change the path's
// structure), NUL, and bytes that are not UTF-8.
func percentDecodePath(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			out = append(out, c)
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b := hi<<4 | lo
		if b == '/' || b == 0 {
			return "", false
		}
		out = append(out, b)
		i += 2
	}
	if !utf8.Valid(out) || strings.IndexByte(string(out), 0) >= 0 {
		return "", false
	}
	return string(out), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// displayPath renders a location URI for the model: relative to the
// workspace directory workspacePath (itself ".") when inside it, absolute
// when outside, verbatim when it is not a local file: URI.
func displayPath(uri, workspacePath string) string {
	if windowsDir(workspacePath) {
		p, ok := uriPathIn(uri, workspacePath)
		switch {
		case !ok:
			return uri
		case sameDir(p, workspacePath):
			return "."
		}
		if rel, inside := relativeIn(p, workspacePath); inside {
			return rel
		}
		return p
	}
	p, ok := FileURIPath(uri)
	if !ok {
		return uri
	}
	switch {
	case p == workspacePath:
		return "."
	case workspacePath == "/":
		return p[1:]
	case strings.HasPrefix(p, workspacePath) && p[len(workspacePath)] == '/':
		return p[len(workspacePath)+1:]
	}
	return p
}
