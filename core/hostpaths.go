package core

import "strings"

// Host path rules: how one host OS spells file paths and their URIs.
//
// The core compares and renders paths it reads from file: URIs (uri.go).
// A host turns its own paths into URIs and back at its edge, and which
// rules apply is the host's OS: POSIX paths everywhere but Windows, drive
// and UNC paths there (winpath.go); names compared without regard to case
// on the usual macOS and Windows volumes. PathRulesFor picks the rules
// from a GOOS, so a host selects them once (runtime.GOOS) and a test on
// any machine exercises another OS's route by naming it.

// PathRules are one OS's rules for host paths.
type PathRules struct {
	// Windows: paths are drive (C:\x) or UNC (\\server\share\x) paths,
	// their URIs file:///C:/x and file://server/share/x.
	Windows bool
	// FoldCase: the usual volumes compare names without regard to case,
	// so Key folds them (macOS, Windows).
	FoldCase bool
}

// PathRulesFor returns the rules of the OS named by goos (runtime.GOOS's
// values): Windows rules for "windows", POSIX paths with case folded for
// "darwin" and "ios", plain POSIX paths for any other.
func PathRulesFor(goos string) PathRules {
	switch goos {
	case "windows":
		return PathRules{Windows: true, FoldCase: true}
	case "darwin", "ios":
		return PathRules{FoldCase: true}
	}
	return PathRules{}
}

// FileURI is the file: URI of the absolute host path p: FileURI's, or
// under Windows rules WindowsFileURI's (a path it refuses, not a drive or
// UNC path, gets FileURI's encoding of its slash form: a URI that names
// no Windows file, which servers then report as such).
func (r PathRules) FileURI(p string) string {
	if r.Windows {
		if uri, ok := WindowsFileURI(p); ok {
			return uri
		}
		return FileURI(strings.ReplaceAll(p, `\`, "/"))
	}
	return FileURI(p)
}

// URIPath is the host path a file: URI names (FileURIPath, or under
// Windows rules WindowsURIPath); ok is false when it names none.
func (r PathRules) URIPath(uri string) (string, bool) {
	if r.Windows {
		return WindowsURIPath(uri)
	}
	return FileURIPath(uri)
}

// Key is the key under which spellings of the host path p that name one
// file are equal: p itself, or FoldedPathKey(p) where case is folded;
// under Windows rules p is first spelled as WindowsURIPath reads its URI
// back (the \\?\ prefix dropped, dot segments resolved). It is for
// comparing and map keys, never a path to open.
func (r PathRules) Key(p string) string {
	if r.Windows {
		if uri, ok := WindowsFileURI(p); ok {
			if q, ok := WindowsURIPath(uri); ok {
				p = q
			}
		}
	}
	if r.FoldCase {
		return FoldedPathKey(p)
	}
	return p
}

// URIKey identifies the file a URI names whatever escaping, drive-letter
// case or (where case is folded) name case it is spelled with: the URI of
// its path's Key; a URI that names no host path is its own key.
func (r PathRules) URIKey(uri string) string {
	p, ok := r.URIPath(uri)
	if !ok {
		return uri
	}
	return r.FileURI(r.Key(p))
}

// WatchPath is the host path p as the core's fileChanges reads paths: p
// itself, or under Windows rules a drive path with / for \ after a /
// (C:\src\a.go is /C:/src/a.go, FileChangesInput.Windows). A UNC path
// has no such form: it is //server/share/x, which fileChanges refuses.
func (r PathRules) WatchPath(p string) string {
	if !r.Windows {
		return p
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if drive, rest, ok := splitDrive(s); ok {
		return strings.TrimSuffix("/"+drive+rest, "/")
	}
	return s
}

// HostPath is the host path of a path fileChanges answers with (its
// reverify and open lists): WatchPath's inverse.
func (r PathRules) HostPath(p string) string {
	if !r.Windows {
		return p
	}
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		if drive, rest, ok := splitDrive(p[1:]); ok {
			if rest == "" {
				rest = "/"
			}
			return drive + strings.ReplaceAll(rest, "/", `\`)
		}
	}
	return strings.ReplaceAll(p, "/", `\`)
}

// The core's own paths. A workspace URI says which rules its paths follow:
// a Windows host spells its drive with a literal colon (file:///C:/x,
// WindowsFileURI) or names a UNC server (file://server/share), while a
// POSIX host percent-encodes every colon (FileURI: file:///C%3A/x is the
// POSIX directory "/C:/x"), so no URI a POSIX host builds is read as a
// Windows one. Under a Windows workspace the core's paths are the Windows
// paths with / for \ (C:/work/a.go, //server/share/a.go; a POSIX path
// always starts with exactly one /), drive letters in upper case, and a
// location is inside the workspace when its path starts with the
// workspace's without regard to case (NTFS compares names so), the
// relative part spelled as the location's URI spells it.

// WorkspacePath is the path of a workspace URI in the core's form: the
// POSIX path FileURIPath reads, or for a Windows URI the slash form of
// WindowsURIPath's path. ok is false when the URI names no local directory.
func WorkspacePath(uri string) (string, bool) {
	if windowsURI(uri) {
		p, ok := WindowsURIPath(uri)
		return strings.ReplaceAll(p, `\`, "/"), ok
	}
	return FileURIPath(uri)
}

// windowsURI reports whether a file: URI is spelled as a Windows host
// spells it: a drive letter followed by a literal colon as its first path
// segment, or a server other than localhost as its authority.
func windowsURI(uri string) bool {
	if len(uri) < 5 || !strings.EqualFold(uri[:5], "file:") {
		return false
	}
	rest := uri[5:]
	if strings.HasPrefix(rest, "//") {
		host, after, _ := strings.Cut(rest[2:], "/")
		if host != "" && !strings.EqualFold(host, "localhost") {
			return true
		}
		rest = "/" + after
	}
	if len(rest) < 3 || rest[0] != '/' || rest[2] != ':' {
		return false
	}
	c := rest[1] | 0x20
	return 'a' <= c && c <= 'z' && (len(rest) == 3 || strings.IndexByte("/?#", rest[3]) >= 0)
}

// windowsDir reports whether a workspace path is in the Windows form.
func windowsDir(wsPath string) bool {
	return wsPath != "" && (wsPath[0] != '/' || strings.HasPrefix(wsPath, "//"))
}

// uriPathIn is the path a location URI names, in the form of the
// workspace path wsPath (see WorkspacePath).
func uriPathIn(uri, wsPath string) (string, bool) {
	if windowsDir(wsPath) {
		p, ok := WindowsURIPath(uri)
		return strings.ReplaceAll(p, `\`, "/"), ok
	}
	return FileURIPath(uri)
}

// relativeIn is p relative to the workspace directory wsPath (both in the
// core's form) when p is strictly inside it.
func relativeIn(p, wsPath string) (string, bool) {
	if !windowsDir(wsPath) {
		switch {
		case wsPath == "/":
			return p[1:], p != "/"
		case len(p) > len(wsPath) && p[len(wsPath)] == '/' && strings.HasPrefix(p, wsPath):
			return p[len(wsPath)+1:], true
		}
		return "", false
	}
	prefix := wsPath
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if len(p) > len(prefix) && strings.EqualFold(p[:len(prefix)], prefix) {
		return p[len(prefix):], true
	}
	return "", false
}

// sameDir reports whether p is the workspace directory wsPath itself.
func sameDir(p, wsPath string) bool {
	if windowsDir(wsPath) {
		return strings.EqualFold(strings.TrimSuffix(p, "/"), strings.TrimSuffix(wsPath, "/"))
	}
	return p == wsPath
}

// DisplayPath renders a location URI for the model as the core's answers
// do: relative to the workspace path wsPath (WorkspacePath; itself ".")
// when inside it, absolute when outside, verbatim when it is not a local
// file: URI.
func DisplayPath(uri, wsPath string) string { return displayPath(uri, wsPath) }
