package localstdio

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// What a workspace may span. lspseam watches every directory of a
// workspace (one inotify watch each, from a per-user budget shared with
// editors and other tools; see watcher.go), reads each at start, and runs
// language servers with the workspace as their root, which then index
// what is below it. A session started without --workspace in the home
// directory or in / (an MCP client's default working directory is often
// one of them) would do all that to everything the user has, and answer
// slowly or not at all. So:
//
//   - / and exactly the home directory are refused as workspaces with
//     LSP_WORKSPACE_INVALID, before anything is watched or started; the
//     message names --workspace DIR as the fix. A directory below the home
//     directory is a project like any other.
//   - a workspace of more than largeWorkspaceDirs directories is served,
//     with a warning that says what lspseam does with it (WatchWarning
//     before, the watcher's log when it gets there).

// largeWorkspaceDirs is the number of directories above which a workspace
// is called large: more than most source trees have (the Linux kernel has
// about 5,000), though a JavaScript project's node_modules can pass it.
const largeWorkspaceDirs = 5_000

// WatchWarning says, before anything is watched, whether the workspace is
// large: more than largeWorkspaceDirs directories (.git excepted, as the
// watcher skips it), each of which would take one inotify watch. It
// returns the warning to show the user, or "". It reads at most
// largeWorkspaceDirs+1 directories.
func WatchWarning(ws Workspace) string {
	dirs := 0
	_ = filepath.WalkDir(ws.Path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" && p != ws.Path {
			return filepath.SkipDir
		}
		dirs++
		if dirs > largeWorkspaceDirs {
			return filepath.SkipAll
		}
		return nil
	})
	if dirs <= largeWorkspaceDirs {
		return ""
	}
	return largeWorkspaceWarning(ws.Path)
}

// largeWorkspaceWarning says what a large workspace costs, what lspseam
// does with it, and how to name a smaller one.
func largeWorkspaceWarning(root string) string {
	limit := ""
	if n, ok := inotifyWatchLimit(); ok {
		limit = " (this user has " + strconv.Itoa(n) + " in all, shared with editors and other tools: fs.inotify.max_user_watches)"
	}
	return fmt.Sprintf("the workspace %s has more than %d directories; lspseam reads every one at start and watches each for changes with one inotify watch%s. If the project is smaller, restart lspseam with --workspace DIR naming it. lspseam keeps going: it watches them all, and if the watch limit is reached it gives its watches back and rescans the workspace at every query instead (slower, nothing missed)", root, largeWorkspaceDirs, limit)
}

// inotifyWatchLimit reads the per-user inotify watch limit.
func inotifyWatchLimit() (int, bool) {
	data, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches")
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	return n, err == nil
}
