package core

import (
	"sort"
	"strings"
	"sync"
)

// The table's languages, one per LSP language id, with every server that
// serves it: what `lspseam doctor` counts a workspace's files by, and what
// `lspseam servers install LANG` and `servers list` name.

// TableLanguage is one language of the server table.
type TableLanguage struct {
	// Name is the language's name for people ("C++"), from the first
	// entry that serves it.
	Name       string
	LanguageID string
	// Extensions and FileNames are the union of what its servers claim,
	// sorted.
	Extensions []string
	FileNames  []string
	// Servers are the ids of the entries that serve it: the preset first
	// (the one used without a config), then the others in table order.
	Servers []string
}

var (
	languagesOnce sync.Once
	languages     []TableLanguage
)

// Languages returns the table's languages sorted by name. Callers must not
// modify them.
func Languages() []TableLanguage {
	languagesOnce.Do(func() { languages = tableLanguages(Servers()) })
	return languages
}

func tableLanguages(t ServerTable) []TableLanguage {
	byID := map[string]*TableLanguage{}
	var order []string
	// Presets first, so each language's first server is the one the
	// presets run.
	entries := append([]ServerEntry(nil), t.Servers...)
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Preset && !entries[j].Preset })
	for _, e := range entries {
		for _, l := range e.Languages {
			tl := byID[l.LanguageID]
			if tl == nil {
				tl = &TableLanguage{Name: l.Name, LanguageID: l.LanguageID}
				byID[l.LanguageID] = tl
				order = append(order, l.LanguageID)
			}
			tl.Extensions = appendNew(tl.Extensions, l.Extensions...)
			tl.FileNames = appendNew(tl.FileNames, l.FileNames...)
			tl.Servers = appendNew(tl.Servers, e.ID)
		}
	}
	out := make([]TableLanguage, 0, len(order))
	for _, id := range order {
		tl := byID[id]
		sort.Strings(tl.Extensions)
		sort.Strings(tl.FileNames)
		out = append(out, *tl)
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

func appendNew(list []string, items ...string) []string {
	for _, s := range items {
		found := false
		for _, have := range list {
			if have == s {
				found = true
				break
			}
		}
		if !found {
			list = append(list, s)
		}
	}
	return list
}

// LanguageOfName finds a language of the table by its name, its LSP
// language id or one of its extensions (".py" or "py"), any case:
// what a person types after `lspseam servers install`.
func LanguageOfName(name string) (TableLanguage, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return TableLanguage{}, false
	}
	for _, l := range Languages() {
		if strings.ToLower(l.Name) == n || strings.ToLower(l.LanguageID) == n {
			return l, true
		}
	}
	ext := n
	if !strings.HasPrefix(ext, ".") {
		ext = "." + ext
	}
	for _, l := range Languages() {
		for _, x := range l.Extensions {
			if x == ext {
				return l, true
			}
		}
	}
	return TableLanguage{}, false
}

// ServerByID returns the table entry with the given id.
func ServerByID(id string) (ServerEntry, bool) {
	for _, e := range Servers().Servers {
		if e.ID == id {
			return e, true
		}
	}
	return ServerEntry{}, false
}
