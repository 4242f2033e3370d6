package localstdio

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// The language census of a workspace: how many files of each language it
// has, and which server of a config each would be routed to. `lspseam
// doctor` reports it with each server's state, `lspseam servers install
// --detected` installs what it finds missing, and `lspseam mcp` tells the
// model in its handshake which languages it can ask about.
//
// A file's language is the one the config routes it to (by its whole base
// name, then its final extension: core.SelectProvider's rule), else the
// one the server table gives it (the same rule), else it has none and is
// not counted. The walk is bounded: it skips directories no one edits by
// hand (below), never follows a symbolic link, and stops after
// CensusOptions.MaxFiles files or Timeout, saying so in Incomplete.

// CensusOptions bound a census.
type CensusOptions struct {
	// MaxFiles stops the walk after this many files (0: DefaultCensusFiles).
	MaxFiles int
	// Timeout stops the walk after this long (0: no time bound).
	Timeout time.Duration
}

// DefaultCensusFiles is the census's file bound without another: a large
// monorepo's sources, a few seconds of walking at most.
const DefaultCensusFiles = 200_000

// censusSkippedDirs are directory names the census does not enter,
// besides hidden ones (.git, .venv, .idea, …): dependencies and build
// output, whose files are not the workspace's own sources and can
// outnumber them a hundred times.
var censusSkippedDirs = map[string]bool{
	"node_modules": true, "vendor": true, "build": true, "dist": true, "out": true,
	"target": true, "_build": true, "__pycache__": true, "venv": true,
}

// CensusSkipsDir reports whether the census skips a directory of this name
// below the workspace root.
func CensusSkipsDir(name string) bool {
	return strings.HasPrefix(name, ".") || censusSkippedDirs[name] || strings.HasPrefix(name, "bazel-")
}

// LanguageCensus is what a census found.
type LanguageCensus struct {
	// Root is the directory walked.
	Root string
	// Files is how many regular files were looked at; Counted how many of
	// them have a language.
	Files, Counted int
	// SkippedDirs is how many directories were not entered
	// (CensusSkipsDir).
	SkippedDirs int
	// Languages are the languages present, most files first.
	Languages []LanguageFiles
	// Incomplete says why the walk stopped before the end ("" when it saw
	// every file): the counts are then a lower bound.
	Incomplete string
	// Elapsed is how long the walk took.
	Elapsed time.Duration
}

// LanguageFiles is one language present in a workspace.
type LanguageFiles struct {
	// Name is the language's name for people (the table's; for a language
	// only the config knows, its id).
	Name       string
	LanguageID string
	Files      int
	// Kinds are the extensions and whole file names its files were
	// recognized by, sorted (".go", "Dockerfile").
	Kinds []string
	// Servers count its files by the config server they are routed to;
	// the key "" counts files no server of the config claims.
	Servers map[string]int
	// Example is one of its files, relative to the root.
	Example string
}

// Unclaimed is how many of the language's files no server of the config
// claims.
func (l LanguageFiles) Unclaimed() int { return l.Servers[""] }

// ServerIDs are the config servers its files are routed to, sorted.
func (l LanguageFiles) ServerIDs() []string {
	var ids []string
	for id := range l.Servers {
		if id != "" {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// languageRoute is where a file goes: its language, and the config server
// that serves it ("" for none).
type languageRoute struct{ languageID, server string }

// censusIndex maps base names and extensions to routes: the config's
// first, then the table's.
type censusIndex struct {
	configNames, configExts map[string]languageRoute
	tableNames, tableExts   map[string]string
	names                   map[string]string // language id → name
}

func newCensusIndex(cfg lspseam.Config) censusIndex {
	ix := censusIndex{
		configNames: map[string]languageRoute{}, configExts: map[string]languageRoute{},
		tableNames: map[string]string{}, tableExts: map[string]string{}, names: map[string]string{},
	}
	for id, s := range cfg.Servers {
		for name, lang := range s.FileNameToLanguage {
			ix.configNames[name] = languageRoute{lang, id}
		}
		for ext, lang := range s.ExtensionToLanguage {
			ix.configExts[strings.ToLower(ext)] = languageRoute{lang, id}
		}
	}
	for _, l := range core.Languages() {
		ix.names[l.LanguageID] = l.Name
		for _, name := range l.FileNames {
			if _, taken := ix.tableNames[name]; !taken {
				ix.tableNames[name] = l.LanguageID
			}
		}
		for _, ext := range l.Extensions {
			if _, taken := ix.tableExts[ext]; !taken {
				ix.tableExts[ext] = l.LanguageID
			}
		}
	}
	return ix
}

// route finds a file's language and server, and the kind (extension or
// base name) it was recognized by.
func (ix censusIndex) route(base string) (r languageRoute, kind string, ok bool) {
	if r, ok := ix.configNames[base]; ok {
		return r, base, true
	}
	ext := core.FinalExtension(base)
	if r, ok := ix.configExts[ext]; ok && ext != "" {
		return r, ext, true
	}
	if lang, ok := ix.tableNames[base]; ok {
		return languageRoute{languageID: lang}, base, true
	}
	if lang, ok := ix.tableExts[ext]; ok && ext != "" {
		return languageRoute{languageID: lang}, ext, true
	}
	return languageRoute{}, "", false
}

// errCensusBound ends the walk at a bound.
var errCensusBound = errors.New("census bound")

// CountLanguages walks root and counts its files per language, routed
// through cfg (a validated config; the presets' when no config is given).
// An unreadable directory below the root is skipped; only an unreadable
// root is an error.
func CountLanguages(ctx context.Context, root string, cfg lspseam.Config, opts CensusOptions) (LanguageCensus, error) {
	began := time.Now()
	maxFiles := opts.MaxFiles
	if maxFiles <= 0 {
		maxFiles = DefaultCensusFiles
	}
	var deadline time.Time
	if opts.Timeout > 0 {
		deadline = began.Add(opts.Timeout)
	}
	ix := newCensusIndex(cfg)
	c := LanguageCensus{Root: root}
	byID := map[string]*LanguageFiles{}
	kinds := map[string]map[string]bool{}
	entries := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable directory below the root: skip it
		}
		if entries++; entries%256 == 0 {
			if ctx.Err() != nil {
				c.Incomplete = "stopped: " + ctx.Err().Error()
				return errCensusBound
			}
			if !deadline.IsZero() && time.Now().After(deadline) {
				c.Incomplete = fmt.Sprintf("stopped after %s (%d files looked at)", opts.Timeout, c.Files)
				return errCensusBound
			}
		}
		if d.IsDir() {
			if p != root && CensusSkipsDir(d.Name()) {
				c.SkippedDirs++
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symbolic links, sockets, devices
		}
		if c.Files == maxFiles {
			c.Incomplete = fmt.Sprintf("stopped after %d files", maxFiles)
			return errCensusBound
		}
		c.Files++
		r, kind, ok := ix.route(d.Name())
		if !ok {
			return nil
		}
		c.Counted++
		l := byID[r.languageID]
		if l == nil {
			name := ix.names[r.languageID]
			if name == "" {
				name = r.languageID
			}
			rel, _ := filepath.Rel(root, p)
			l = &LanguageFiles{Name: name, LanguageID: r.languageID, Servers: map[string]int{}, Example: filepath.ToSlash(rel)}
			byID[r.languageID] = l
			kinds[r.languageID] = map[string]bool{}
		}
		l.Files++
		l.Servers[r.server]++
		kinds[r.languageID][kind] = true
		return nil
	})
	c.Elapsed = time.Since(began)
	if err != nil && !errors.Is(err, errCensusBound) {
		return c, err
	}
	for id, l := range byID {
		for k := range kinds[id] {
			l.Kinds = append(l.Kinds, k)
		}
		sort.Strings(l.Kinds)
		c.Languages = append(c.Languages, *l)
	}
	sort.Slice(c.Languages, func(i, j int) bool {
		a, b := c.Languages[i], c.Languages[j]
		if a.Files != b.Files {
			return a.Files > b.Files
		}
		return a.Name < b.Name
	})
	return c, nil
}
