package core

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWindowsPathsGolden converts Windows paths to URIs and back, and
// names to the reserved test, and compares every result with
// testdata/winpath.golden (rewritten with -update after review). The
// round trip must also hold: a path's URI reads back as the path in its
// normal form.
func TestWindowsPathsGolden(t *testing.T) {
	paths := []string{
		`C:\src\a.go`, `c:\src\a.go`, `C:/src/a.go`, `C:\`, `C:`, `C:x.go`, `D:\a b(1)\é!#%?.go`,
		`C:\src\..\a.go`, `\\server\share\x.go`, `\\Server\Share`, `\\server\`, `\\server`, `\\?\C:\long\x.go`,
		`\\?\UNC\server\share\x.go`, `\\.\C:\x.go`, `src\a.go`, `\src\a.go`, `1:\x`, `\\bad%host\s\x`, ``,
	}
	uris := []string{
		"file:///C:/src/a.go", "file:///c:/src/a.go", "file:///c%3A/src/a.go", "file:///C%3a/x", "file://localhost/C:/x",
		"file:/C:/x", "FILE:///C:/x?q#f", "file:///C:", "file:///C:/../x", "file:///C:/a%2Fb", "file:///src/a.go",
		"file://server/share/x.go", "file://SERVER/share/x%20y.go", "file://server/", "file://server", "file://se%20rver/s/x",
		"http://x/C:/y", "file:///C:/%00", "file:///C:x",
	}
	names := []string{"con", "CON.txt", "Con .go", "nul", "aux.h", "com1", "COM9.log", "com¹", "lpt0", "LPT10", "console.go",
		"conin$", "x.", "x ", "a.go", ".", "..", "com", "prn.tar.gz"}
	var out bytes.Buffer
	for _, p := range paths {
		uri, ok := WindowsFileURI(p)
		fmt.Fprintf(&out, "WindowsFileURI\t%q\t%q\t%v\n", p, uri, ok)
		if !ok {
			continue
		}
		back, ok := WindowsURIPath(uri)
		again, ok2 := WindowsFileURI(back)
		if !ok || !ok2 || again != uri {
			t.Errorf("round trip of %q: %q → %q (%v) → %q (%v)", p, uri, back, ok, again, ok2)
		}
	}
	for _, u := range uris {
		p, ok := WindowsURIPath(u)
		fmt.Fprintf(&out, "WindowsURIPath\t%q\t%q\t%v\n", u, p, ok)
	}
	for _, n := range names {
		fmt.Fprintf(&out, "ReservedWindowsName\t%q\t%v\n", n, ReservedWindowsName(n))
	}
	for _, p := range []string{`C:\Src\A.go`, `c:/src/a.GO`, "/Users/a/Ä.go"} {
		fmt.Fprintf(&out, "FoldedPathKey\t%q\t%q\n", p, FoldedPathKey(p))
	}
	golden := filepath.Join("testdata", "winpath.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./core -run TestWindowsPathsGolden -update to create it)", err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("results differ from %s (review, then -update):\n%s", golden, out.String())
	}
}

// FuzzWindowsURIPath: a URI that names a Windows path gives the path whose
// URI names it again, and converting never panics.
func FuzzWindowsURIPath(f *testing.F) {
	for _, u := range []string{"file:///C:/src/a.go", "file:///c%3A/x", "file://server/share/x", "file:///C:/../x", "file://localhost/d:/a%20b", "file:/C:"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		p, ok := WindowsURIPath(uri)
		if !ok {
			return
		}
		again, ok := WindowsFileURI(p)
		if !ok {
			t.Fatalf("%q → %q, which has no URI", uri, p)
		}
		if back, ok := WindowsURIPath(again); !ok || back != p {
			t.Fatalf("%q → %q → %q → %q (%v)", uri, p, again, back, ok)
		}
	})
}
