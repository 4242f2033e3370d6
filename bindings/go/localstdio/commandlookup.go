package localstdio

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// How a server's command is found: an absolute or relative path is taken
// as it is; a bare name is looked up on the server's PATH, then in the
// search directories (searchdirs.go). The rules differ by platform, and
// both sets are plain functions of their inputs, so the Windows rules are
// tested on Linux too:
//
//   - Unix: a candidate is the name itself; it must be a regular file with
//     an execute bit.
//   - Windows: a file runs only with an executable extension, so a bare
//     name is tried with each PATHEXT extension in PATHEXT's order (default
//     .COM;.EXE;.BAT;.CMD) unless it already ends in one; a path contains
//     / or \ or a volume (C:); PATH is split at ';'; variable names are
//     case-insensitive (Path is PATH). npm installs a server as NAME (a
//     script for Unix shells), NAME.cmd and NAME.ps1: only NAME.cmd is one
//     Windows can start, and it is the one found.

// commandRules are one platform's rules.
type commandRules struct {
	windows bool
}

// hostCommandRules are this platform's.
var hostCommandRules = commandRules{windows: runtime.GOOS == "windows"}

// defaultPathext is Windows' PATHEXT when the environment has none.
const defaultPathext = ".COM;.EXE;.BAT;.CMD"

// isPath reports whether command names a file rather than a command to
// look up.
func (r commandRules) isPath(command string) bool {
	if r.windows {
		return strings.ContainsAny(command, `/\`) || (len(command) >= 2 && command[1] == ':')
	}
	return strings.Contains(command, "/")
}

// pathext is the executable extensions of env, upper-cased (Windows).
func (r commandRules) pathext(env []string) []string {
	value := lookupEnvFold(env, "PATHEXT", r.windows)
	if strings.TrimSpace(value) == "" {
		value = defaultPathext
	}
	var exts []string
	for _, e := range strings.Split(value, ";") {
		if e = strings.ToUpper(strings.TrimSpace(e)); strings.HasPrefix(e, ".") && len(e) > 1 {
			exts = append(exts, e)
		}
	}
	return exts
}

// names are the file names command may have in a directory.
func (r commandRules) names(command string, exts []string) []string {
	if !r.windows || slices.Contains(exts, strings.ToUpper(filepath.Ext(command))) {
		return []string{command}
	}
	names := make([]string, len(exts))
	for i, e := range exts {
		names[i] = command + strings.ToLower(e)
	}
	return names
}

// pathDirs splits env's PATH into directories.
func (r commandRules) pathDirs(env []string) []string {
	sep := ":"
	if r.windows {
		sep = ";"
	}
	return strings.Split(lookupEnvFold(env, "PATH", r.windows), sep)
}

// isExecutable reports whether path is a file these rules would run, exts
// being the executable extensions (Windows).
func (r commandRules) isExecutable(path string, exts []string) bool {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	if r.windows {
		return slices.Contains(exts, strings.ToUpper(filepath.Ext(path)))
	}
	return info.Mode().Perm()&0o111 != 0
}

// resolve finds command (ResolveExecutable), searching dirs after env's
// PATH; notFound says where it looked.
func (r commandRules) resolve(command string, env []string, dirs []string) (path string, notFound string) {
	exts := r.pathext(env)
	if r.isPath(command) {
		abs, err := filepath.Abs(command)
		if err != nil {
			return "", err.Error()
		}
		if !r.isExecutable(abs, exts) {
			return "", command + " is not an executable file"
		}
		return abs, ""
	}
	names := r.names(command, exts)
	for _, dir := range r.pathDirs(env) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // relative PATH entries depend on the cwd; never use them
		}
		for _, name := range names {
			if candidate := filepath.Join(dir, name); r.isExecutable(candidate, exts) {
				return candidate, ""
			}
		}
	}
	var searched []string
	for _, dir := range dirs {
		if dir == "" || !filepath.IsAbs(dir) || contains(searched, dir) {
			continue
		}
		searched = append(searched, dir)
		for _, name := range names {
			candidate := filepath.Join(dir, name)
			if !r.isExecutable(candidate, exts) {
				continue
			}
			if problem := unsafeDir(dir); problem != "" {
				searched[len(searched)-1] += " (not used: " + problem + ")"
				break
			}
			return candidate, ""
		}
	}
	where := "the server's PATH"
	if len(searched) > 0 {
		where += " or in " + strings.Join(searched, ", ")
	}
	return "", command + " was not found on " + where
}
