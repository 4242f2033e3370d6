package core

import "slices"

// Problems a server does not report for a file while that file does not
// parse, in the diagnostics delta.
//
// gopls type-checks a package whose file has a syntax error, but drops
// every type error of that file (its cache/check.go: "If there is a
// parse error _in the current file_, suppress type errors in that
// file"); the package's other files keep theirs. Compared as they are, an
// edit that leaves a `return 1 +` "resolved" a type error three lines up
// that is still there (go vet shows it throughout), and the edit that
// completes the expression "introduced" it again.
//
// The server table says which servers do this (ServerBehaviour.
// ParseErrorSources: the sources of its parse errors; HiddenWhileUnparsed:
// the sources of the problems it then leaves out). For a file of such a
// server's language:
//
//   - a problem of a hidden source that vanished while the file's report
//     after the change has a parse error is unchecked, not resolved: the
//     server no longer says anything either way;
//   - a problem of a hidden source that appeared when the file's report
//     before the change had a parse error and the one after has none is
//     rechecked, not introduced: the server said nothing about it before,
//     so whether the change made it is not known.
//
// tsserver (its syntactic diagnostics, codes 1000–1999) and pyright keep
// reporting a file's type errors beside its syntax errors, so their
// entries have no such rule and their problems are compared as any other.

// parsePause is a server's rule: its name, the sources of its parse
// errors and those of the problems it hides while a file has one.
type parsePause struct {
	server              string
	parseErrors, hidden []string
}

// parsePauseOf is the rule for a file, by its extension: the rule of the
// table's server for that extension, if it has one.
func parsePauseOf(file string) (parsePause, bool) {
	e, ok := serverWithBehaviour(file, func(b ServerBehaviour) bool {
		return len(b.ParseErrorSources) > 0 && len(b.HiddenWhileUnparsed) > 0
	})
	if !ok {
		return parsePause{}, false
	}
	return parsePause{server: e.Name, parseErrors: e.Behaviour.ParseErrorSources, hidden: e.Behaviour.HiddenWhileUnparsed}, true
}

// unparsed says whether a report holds a parse error (an error of one of
// the rule's parse-error sources).
func (r parsePause) unparsed(report []Problem) bool {
	for _, p := range report {
		if p.Severity == 1 && slices.Contains(r.parseErrors, p.Source) {
			return true
		}
	}
	return false
}

// splitUnparsed takes from a file's resolved problems the unchecked ones
// and from its introduced problems the rechecked ones, by the file's own
// reports before and after the change.
func splitUnparsed(file string, before, after, resolved, introduced []Problem) (res, intro, unchecked, rechecked []Problem) {
	rule, ok := parsePauseOf(file)
	if !ok {
		return resolved, introduced, nil, nil
	}
	unparsedBefore, unparsedAfter := rule.unparsed(before), rule.unparsed(after)
	if !unparsedBefore && !unparsedAfter {
		return resolved, introduced, nil, nil
	}
	for _, p := range resolved {
		if unparsedAfter && slices.Contains(rule.hidden, p.Source) {
			unchecked = append(unchecked, p)
		} else {
			res = append(res, p)
		}
	}
	for _, p := range introduced {
		if unparsedBefore && !unparsedAfter && slices.Contains(rule.hidden, p.Source) {
			rechecked = append(rechecked, p)
		} else {
			intro = append(intro, p)
		}
	}
	return res, intro, unchecked, rechecked
}

// parseServer names the server whose parse rule a problem's file follows,
// for the text ("the server" when none).
func parseServer(p Problem) string {
	if rule, ok := parsePauseOf(p.Path); ok && rule.server != "" {
		return rule.server
	}
	return "the server"
}
