package localstdio

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Which files outside a tsserver project may import the searched file
// (outsideProjectNotice).
//
// Every file of the workspace outside the searched file's project made a
// search "possibly incomplete": in a monorepo of independent packages
// (pa and pb, each with its tsconfig.json) every search in pa was marked
// for pb's files, and code_delete refused every deletion. A file outside
// the project can hold a use only if it imports the searched file, a
// directory above it, or its package; so each outside file's import
// specifiers are read (the file's first maxImportScanBytes, remembered by
// size and modification time) and the file counts when one of them may
// lead to the searched file:
//
//   - a relative specifier resolving to the file (any extension, or the
//     directory of an index file) or to a directory above it (a barrel);
//   - a bare specifier naming the package holding the file (its nearest
//     package.json's name) or a path inside it;
//   - any other non-relative specifier whose last segment is the file's
//     base name (an alias of tsconfig paths or baseUrl: "@/lib/greet").
//
// Anything not read this way (a file too large, unreadable) counts, as
// before.

// maxImportScanBytes bounds what is read of a file for its imports.
const maxImportScanBytes = 256 << 10

// maxImportScans bounds the files whose specifiers are remembered.
const maxImportScans = 20000

var importSpecifier = regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"'\n]+)["']`)

// importScans remembers each file's import specifiers by its path, size
// and modification time. Safe for concurrent use.
type importScans struct {
	mu    sync.Mutex
	specs map[importScanKey][]string
}

type importScanKey struct {
	path     string
	size     int64
	modified time.Time
}

// of is path's import specifiers; ok is false when it cannot be read.
func (s *importScans) of(path string) ([]string, bool) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	key := importScanKey{path, info.Size(), info.ModTime()}
	s.mu.Lock()
	specs, ok := s.specs[key]
	s.mu.Unlock()
	if ok {
		return specs, true
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	buf := make([]byte, min(info.Size(), maxImportScanBytes))
	n, _ := f.Read(buf)
	f.Close()
	for _, m := range importSpecifier.FindAllSubmatch(buf[:n], -1) {
		specs = append(specs, string(m[1]))
	}
	if time.Since(info.ModTime()) > 2*time.Second { // a file written just now may change within its stamp
		s.mu.Lock()
		if s.specs == nil || len(s.specs) >= maxImportScans {
			s.specs = map[importScanKey][]string{}
		}
		s.specs[key] = specs
		s.mu.Unlock()
	}
	return specs, true
}

// mayImport says whether the file importer may import target (both
// absolute), given target's package name ("" when it has none).
func (s *importScans) mayImport(importer, target, pkgName string) bool {
	specs, ok := s.of(importer)
	if !ok {
		return true
	}
	stem := strings.TrimSuffix(target, filepath.Ext(target))
	base := filepath.Base(stem)
	for _, spec := range specs {
		if strings.HasPrefix(spec, ".") {
			resolved := filepath.Join(filepath.Dir(importer), filepath.FromSlash(spec))
			resolved = strings.TrimSuffix(resolved, filepath.Ext(resolved))
			if resolved == stem || (base == "index" && resolved == filepath.Dir(stem)) || strings.HasPrefix(target, resolved+string(filepath.Separator)) {
				return true
			}
			continue
		}
		if pkgName != "" && (spec == pkgName || strings.HasPrefix(spec, pkgName+"/")) {
			return true
		}
		if !isPackageSpecifier(spec) && (spec == base || strings.HasSuffix(spec, "/"+base)) {
			return true
		}
	}
	return false
}

// isPackageSpecifier says whether spec plainly names an installed package
// rather than a path alias: "react", "@scope/pkg", "node:fs"; an alias
// such as "@/lib/x" or "~/x" is not.
func isPackageSpecifier(spec string) bool {
	return !strings.HasPrefix(spec, "@/") && !strings.HasPrefix(spec, "~") && !strings.HasPrefix(spec, "#") && !strings.HasPrefix(spec, "/")
}

// packageName is the name in the nearest package.json at or above file's
// directory, up to root ("" when there is none or it has no name).
func packageName(file, root string) string {
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
			var pkg struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(data, &pkg) == nil {
				return pkg.Name
			}
			return ""
		}
		if dir == root || filepath.Dir(dir) == dir || !strings.HasPrefix(dir, root) {
			return ""
		}
	}
}
