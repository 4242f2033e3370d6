package localstdio

import (
	"strings"

	"github.com/lspseam/lspseam/core"
)

// Which languages of a workspace a loaded table serves: the census joined
// with the servers that were found and those that were not, and for each
// language that is not served, what installs its server.

// Serving states (LanguageServing.State).
const (
	// ServingFound: every file of the language goes to a server that was
	// found.
	ServingFound = "served"
	// ServingMissing: a server the config routes its files to is not
	// installed.
	ServingMissing = "missing"
	// ServingUnconfigured: no server of the config claims some of its
	// files.
	ServingUnconfigured = "unconfigured"
)

// LanguageServing is one language present in a workspace and the state
// of its servers.
type LanguageServing struct {
	LanguageFiles
	// State is ServingFound, ServingMissing or ServingUnconfigured.
	State string
	// Servers are the config's servers its files are routed to.
	Servers []ServingServer
	// Entry is the server table entry to install when the language is not
	// served ("" when the table knows no server for it); Install is the
	// lspseam command that installs it, or "" when it installs by hand;
	// Manual is the table's instructions then.
	Entry, Install, Manual string
}

// ServingServer is one config server and whether it was found.
type ServingServer struct {
	ID, Command string
	// Known is the table entry the command was recognized as ("" for a
	// server the table does not know).
	Known string
	// Path is the executable found ("" when missing); NotFound says where
	// it was looked for when it is missing.
	Path, NotFound string
}

// Serving joins a census with the table: one entry per language present,
// in the census's order.
func (t *Table) Serving(c LanguageCensus) []LanguageServing {
	found := map[string]Server{}
	for _, s := range t.Servers {
		found[s.ID] = s
	}
	missing := map[string]MissingServer{}
	for _, m := range t.Missing {
		missing[m.ID] = m
	}
	out := make([]LanguageServing, 0, len(c.Languages))
	for _, l := range c.Languages {
		ls := LanguageServing{LanguageFiles: l, State: ServingFound}
		for _, id := range l.ServerIDs() {
			sc := t.Config.Servers[id]
			ss := ServingServer{ID: id, Command: sc.Command, Known: sc.Known}
			if s, ok := found[id]; ok {
				ss.Path = s.Path
			} else if m, ok := missing[id]; ok {
				ss.NotFound = m.NotFound
				ls.State = ServingMissing
				if ls.Entry == "" {
					ls.Entry = knownEntry(sc.Known, sc.Command)
				}
			}
			ls.Servers = append(ls.Servers, ss)
		}
		if l.Unclaimed() > 0 && ls.State == ServingFound {
			ls.State = ServingUnconfigured
		}
		if ls.State != ServingFound && ls.Entry == "" {
			if tl, ok := tableLanguage(l.LanguageID); ok {
				ls.Entry = tl.Servers[0]
			}
		}
		if e, ok := core.ServerByID(ls.Entry); ok && ls.State != ServingFound {
			if e.Install.Installable() {
				ls.Install = "lspseam servers install " + InstallArgument(l.LanguageID, e.ID)
			} else {
				ls.Manual = e.Install.Manual
			}
		}
		out = append(out, ls)
	}
	return out
}

// knownEntry is the table entry of a config server: the one validation
// recognized, else the one its command names.
func knownEntry(known, command string) string {
	if known != "" {
		return known
	}
	if e, ok := core.KnownServer("", command); ok {
		return e.ID
	}
	return ""
}

func tableLanguage(languageID string) (core.TableLanguage, bool) {
	for _, l := range core.Languages() {
		if l.LanguageID == languageID {
			return l, true
		}
	}
	return core.TableLanguage{}, false
}

// InstallArgument is what to pass to `lspseam servers install` for entry
// as the server of a language: the language's name when that names entry
// ("python" for pyright), else the entry's id ("basedpyright").
func InstallArgument(languageID, entry string) string {
	tl, ok := tableLanguage(languageID)
	if !ok || tl.Servers[0] != entry {
		return entry
	}
	for _, arg := range []string{strings.ToLower(tl.Name), tl.LanguageID} {
		if strings.ContainsAny(arg, " \t'\"#") {
			continue
		}
		if l, ok := core.LanguageOfName(arg); ok && l.LanguageID == languageID {
			return arg
		}
	}
	return entry
}

// Served reports whether every language of the list is served.
func Served(langs []LanguageServing) bool {
	for _, l := range langs {
		if l.State != ServingFound {
			return false
		}
	}
	return true
}
