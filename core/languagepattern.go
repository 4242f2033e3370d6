package core

import (
	"strings"
	"sync"
)

// A file a server serves by its extension may be in another of the
// server's languages by its name or place: tsconfig.json and
// .vscode/settings.json are JSON with comments, and a JSON server told
// "json" reports every comment in them as an error. The table's
// pathPatterns (ServerLanguage) say which; they refine only the language
// id a file is opened with, never which server serves it, so selection and
// file events stay by extension and file name.

var compiledPathPatterns sync.Map // pattern → *Glob (nil: does not compile)

// refineLanguage is the language id the known server's table entry gives
// filePath through its pathPatterns when served is one of that entry's
// own languages; served otherwise.
func refineLanguage(known, filePath, served string) string {
	if known == "" {
		return served
	}
	e, ok := ServerByID(known)
	if !ok {
		return served
	}
	own := false
	for _, l := range e.Languages {
		if l.LanguageID == served {
			own = true
			break
		}
	}
	if !own {
		return served
	}
	path := strings.ReplaceAll(filePath, `\`, "/")
	base := BaseName(path)
	for _, l := range e.Languages {
		for _, p := range l.PathPatterns {
			subject := base
			if strings.Contains(p, "/") {
				subject = path
			}
			if g := pathPatternGlob(p); g != nil && g.Match(subject) {
				return l.LanguageID
			}
		}
	}
	return served
}

func pathPatternGlob(p string) *Glob {
	if g, ok := compiledPathPatterns.Load(p); ok {
		return g.(*Glob)
	}
	g, err := CompileGlob(p)
	if err != nil {
		g = nil
	}
	compiledPathPatterns.Store(p, g)
	return g
}
