// Package workspacefs is the one owner of what a workspace path may reach,
// for reads and writes alike:
//
//   - the canonical workspace (CanonicalWorkspace: symlinks resolved,
//     never / or the home directory, broad.go);
//   - the one source file a query reads (ReadSource, CheckSource:
//     openat2 RESOLVE_BENEATH on Linux, os.Root elsewhere, hostfs*.go);
//   - the fs tools' and the applier's file access (Open, Root: every path
//     opened beneath the workspace through os.Root, fsroot.go);
//   - every write to a workspace (Root.Update, Root.WriteSet: under the
//     files' cross-process locks, journaled all or nothing across a crash
//     through internal/writeset, metadata kept, fswrite.go and
//     fsmeta_*.go);
//   - this host's path and file-URI rules (HostPaths, paths.go).
//
// It decides what may be read or written, never what a change is: the
// tools plan changes and the core computes them. It starts no process and
// holds no state between calls beyond the cache of canonical roots.
package workspacefs
