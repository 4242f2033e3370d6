package lspseam

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/lspseam/lspseam/internal/precompiled"
)

// TestCompilationCache: the first Core with a cache directory writes the
// compiled module there; the second is served from it — it opens and reads
// every entry (inotify reports the reads, whatever the mount's atime
// options) and writes, replaces or deletes nothing.
func TestCompilationCache(t *testing.T) {
	skipCompileUnderRace(t)
	dir := t.TempDir()
	ctx := context.Background()
	cold := newTestCore(t, WithCompilationCacheDir(dir))
	if _, err := cold.ToolDefinition(ctx); err != nil {
		t.Fatal(err)
	}
	written := cacheEntries(t, dir)
	if len(written) == 0 {
		t.Fatal("the first Core wrote nothing into the compilation cache directory")
	}

	watch := watchCacheDirs(t, written)
	warm := newTestCore(t, WithCompilationCacheDir(dir))
	if _, err := warm.ToolDefinition(ctx); err != nil {
		t.Fatal(err)
	}
	events := watch()
	for path := range written {
		if got := events[path]; got&unix.IN_OPEN == 0 || got&unix.IN_ACCESS == 0 {
			t.Errorf("the second Core did not read the cache entry %s (events %#x)", path, got)
		}
	}
	const writes = unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_MOVED_FROM | unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_DELETE | unix.IN_ATTRIB
	for path, got := range events {
		if got&writes != 0 {
			t.Errorf("the second Core changed the cache: %s (events %#x)", path, got)
		}
	}
	if again := cacheEntries(t, dir); !maps.Equal(again, written) {
		t.Errorf("cache entries changed:\nafter the first Core  %v\nafter the second Core %v", written, again)
	}

	t.Run("precompiled", func(t *testing.T) { testPrecompiledCode(t, dir, written) })
}

// testPrecompiledCode: the code a compilation left in compiled (entries
// written), collected as cmd/precompile collects it, is what a lazy Core
// with WithPrecompiledCode puts into an empty cache before compiling —
// and the compilation loads it: the entries are still the files it wrote
// (a compiled module's entry is written anew), and LoadedPrecompiledCode
// says so. Cores without the option, or whose cache held the module
// already, say they loaded none.
func testPrecompiledCode(t *testing.T, compiled string, written map[string]cacheEntry) {
	ctx := context.Background()
	set := t.TempDir()
	key := moduleKey(coreWasm)
	if err := precompiled.Collect(compiled, key, set); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var installed map[string]cacheEntry
	c := newTestCore(t, WithCompilationCacheDir(dir), WithPrecompiledCode(os.DirFS(set)), WithLazyCompile(),
		withBeforeCompile(func(context.Context) error {
			installed = cacheEntries(t, dir) // after the install, before the compilation
			return nil
		}))
	if _, err := c.ToolDefinition(ctx); err != nil {
		t.Fatal(err)
	}
	if len(installed) != len(written) {
		t.Fatalf("before compiling, the cache held %v; want the %d entries of the precompiled code", installed, len(written))
	}
	for path, e := range installed {
		was, ok := written[filepath.Join(compiled, strings.TrimPrefix(path, dir))]
		if !ok || was.size != e.size {
			t.Errorf("installed %s (%d bytes), not an entry of the compiled code %v", path, e.size, written)
		}
	}
	if after := cacheEntries(t, dir); !maps.Equal(after, installed) {
		t.Errorf("the compilation replaced the precompiled code:\ninstalled %v\nafter     %v", installed, after)
	}
	if !c.LoadedPrecompiledCode() {
		t.Error("LoadedPrecompiledCode() = false after loading the precompiled code")
	}
	again := newTestCore(t, WithCompilationCacheDir(dir), WithPrecompiledCode(os.DirFS(set)))
	if again.LoadedPrecompiledCode() {
		t.Error("a Core whose cache already held the module says it loaded precompiled code")
	}
	none := newTestCore(t, WithCompilationCacheDir(compiled))
	if none.LoadedPrecompiledCode() {
		t.Error("a Core without WithPrecompiledCode says it loaded precompiled code")
	}
}

// cacheEntry identifies one file's version: a rewrite (wazero writes a
// temporary file and renames it) changes the inode.
type cacheEntry struct {
	ino, size uint64
	mtime     int64
}

// cacheEntries returns the regular files under dir that wazero wrote (not
// the Core's warmth marker, warmth.go).
func cacheEntries(t *testing.T, dir string) map[string]cacheEntry {
	t.Helper()
	out := map[string]cacheEntry{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || strings.HasSuffix(path, ".compiled") {
			return err
		}
		var st unix.Stat_t
		if err := unix.Lstat(path, &st); err != nil {
			return err
		}
		out[path] = cacheEntry{ino: st.Ino, size: uint64(st.Size), mtime: st.Mtim.Nano()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// watchCacheDirs watches the directories holding entries and returns a
// function that collects what happened since, per path. inotify queues
// an event during the system call that causes it, so everything done
// before the call is collected.
func watchCacheDirs(t *testing.T, entries map[string]cacheEntry) func() map[string]uint32 {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	dirs := map[int32]string{}
	for path := range entries {
		dir := filepath.Dir(path)
		wd, err := unix.InotifyAddWatch(fd, dir, unix.IN_ALL_EVENTS)
		if err != nil {
			t.Fatal(err)
		}
		dirs[int32(wd)] = dir
	}
	return func() map[string]uint32 {
		t.Helper()
		got := map[string]uint32{}
		buf := make([]byte, 64<<10)
		for {
			n, err := unix.Read(fd, buf)
			if errors.Is(err, unix.EAGAIN) {
				return got
			}
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := string(bytes.TrimRight(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(ev.Len)], "\x00"))
				path := dirs[ev.Wd]
				if name != "" {
					path = filepath.Join(path, name)
				}
				got[path] |= ev.Mask
				off += unix.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
}
