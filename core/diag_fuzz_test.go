package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// Fuzz targets of the diagnostics snapshot (diagnostics) and the post-edit
// delta (diagnosticsDelta), seeded with their golden cases. Besides
// checkEnvelope's rules, each checks that the counts match the lists, the
// limit, the one-based coordinates, and that a file no server covers is
// never reported clean.

// diagLimitOf is the limit an input asks for, as the methods read it.
func diagLimitOf(input []byte, def int) int {
	if l := gjson.GetBytes(input, "limit"); l.Type == gjson.Number && l.Int() != 0 {
		return int(l.Int())
	}
	return def
}

// diagPathBytes bounds what repeating each listed problem's path adds to
// an envelope (a path appears once in the input, once per problem in the
// answer).
func diagPathBytes(problems []gjson.Result) int {
	n := 0
	for _, p := range problems {
		n += 2*len(p.Get("path").Str) + 64
	}
	return n
}

func checkDiagProblem(t *testing.T, p gjson.Result) {
	t.Helper()
	if p.Get("line").Int() < 1 || p.Get("column").Int() < 1 || p.Get("endLine").Int() < p.Get("line").Int() ||
		(p.Get("endLine").Int() == p.Get("line").Int() && p.Get("endColumn").Int() < p.Get("column").Int()) {
		t.Fatalf("bad coordinates %s", p.Raw)
	}
	if _, ok := severityArg(p.Get("severity")); !ok || p.Get("severity").Str == "info" {
		t.Fatalf("bad severity %s", p.Raw)
	}
	if m := p.Get("message").Str; m != strings.TrimSpace(m) {
		t.Fatalf("message not trimmed %s", p.Raw)
	}
}

func FuzzDiagnostics(f *testing.F) {
	seed(f, "diagnostics")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("diagnostics", input)
		var problems []gjson.Result
		if v := gjson.GetBytes(env, "ok.problems"); v.IsArray() {
			problems = v.Array()
		}
		ok := checkEnvelope(t, input, env, 8*len(input)+16384+diagPathBytes(problems))
		if !ok.Exists() {
			return
		}
		limit := diagLimitOf(input, DefaultDiagnosticsLimit)
		total := int(ok.Get("totalFound").Int())
		// A page (offset) is truncated when problems follow it.
		offset := int(ok.Get("offset").Int())
		if len(problems) > limit || offset+len(problems) > total || ok.Get("truncated").Bool() != (offset+len(problems) < total) || (total-offset > limit) != ok.Get("truncated").Bool() {
			t.Fatalf("%d problems from %d of %d, limit %d: %s", len(problems), offset, total, limit, ok.Raw)
		}
		counts, all := ok.Get("counts"), ok.Get("countsAll")
		sum := 0
		var shown [5]int
		for i, p := range problems {
			checkDiagProblem(t, p)
			s, _ := severityArg(p.Get("severity"))
			shown[s]++
			if i > 0 {
				prev, _ := severityArg(problems[i-1].Get("severity"))
				if prev > s {
					t.Fatalf("problems not sorted by severity: %s", ok.Raw)
				}
			}
		}
		for s := 1; s <= 4; s++ {
			c := int(counts.Get(severityNames[s]).Int())
			if c > int(all.Get(severityNames[s]).Int()) || shown[s] > c {
				t.Fatalf("counts %s, countsAll %s, shown %v", counts.Raw, all.Raw, shown)
			}
			sum += c
		}
		if sum != total {
			t.Fatalf("counts %s add up to %d, totalFound %d", counts.Raw, sum, total)
		}
		none, stale := false, false
		for _, c := range ok.Get("coverage").Array() {
			switch c.Get("how").Str {
			case "none":
				none = true
				if c.Get("fresh").Bool() {
					t.Fatalf("an uncovered file is fresh: %s", ok.Raw)
				}
			case "pull", "push":
				stale = stale || !c.Get("fresh").Bool()
			default:
				t.Fatalf("bad how: %s", c.Raw)
			}
		}
		status := ok.Get("status").Str
		switch {
		case stale && status != "stale", !stale && (none || gjson.GetBytes(input, "partial").Str != "") && status != "partial",
			!stale && !none && status == "stale":
			t.Fatalf("status %s (stale %v, none %v): %s", status, stale, none, ok.Raw)
		}
		r := ok.Get("rendered")
		text := r.Get("text").Str
		if text == "" || int(r.Get("shown").Int()) != len(problems) || int(r.Get("omitted").Int()) != total-offset-len(problems) {
			t.Fatalf("rendered counts: %s (%d of %d)", r.Raw, len(problems), total)
		}
		if (total == 0) != ok.Get("notice").Exists() {
			t.Fatalf("notice iff no problems: %s", ok.Raw)
		}
		if none && strings.HasPrefix(text, "No problems") && !strings.Contains(text, "not checked") {
			t.Fatalf("an uncovered file claimed clean: %s", text)
		}
	})
}

func FuzzDiagnosticsDelta(f *testing.F) {
	seed(f, "diagnosticsDelta")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("diagnosticsDelta", input)
		var listed []gjson.Result
		for _, fl := range gjson.GetBytes(env, "ok.files").Array() {
			listed = append(listed, fl.Get("introduced").Array()...)
			listed = append(listed, fl.Get("resolved").Array()...)
		}
		ok := checkEnvelope(t, input, env, 8*len(input)+16384+2*diagPathBytes(listed))
		if !ok.Exists() {
			return
		}
		limit := diagLimitOf(input, DefaultDeltaLimit)
		in := gjson.ParseBytes(input).Get("files").Array()
		files := ok.Get("files").Array()
		if len(files) != len(in) {
			t.Fatalf("%d files answered for %d", len(files), len(in))
		}
		var introduced, resolved, persisting, errors, listedIntro, listedRes int
		var paused pausedTotals
		var uncovered, unreported, stale []string
		for i, fl := range files {
			nIntro, nRes := len(fl.Get("introduced").Array()), len(fl.Get("resolved").Array())
			iTotal, rTotal, p := int(fl.Get("introducedTotal").Int()), int(fl.Get("resolvedTotal").Int()), int(fl.Get("persisting").Int())
			if nIntro > iTotal || nRes > rTotal {
				t.Fatalf("more listed than found: %s", fl.Raw)
			}
			if fl.Get("how").Str == "none" && fl.Get("unreported").Str != "" {
				unreported = append(unreported, fl.Get("path").Str)
			} else if fl.Get("how").Str == "none" {
				uncovered = append(uncovered, fl.Get("path").Str)
			}
			if fl.Get("how").Str == "none" {
				if iTotal+rTotal+p != 0 || fl.Get("fresh").Bool() {
					t.Fatalf("an uncovered file with diagnostics: %s", fl.Raw)
				}
				continue
			}
			if !fl.Get("fresh").Bool() {
				stale = append(stale, fl.Get("path").Str)
			}
			// The multiset rules: every after-problem is introduced,
			// persisting, reappeared or rechecked, every before-problem
			// resolved, persisting, withheld or unchecked.
			fp := checkPausedLists(t, fl, limit)
			paused = paused.plus(fp)
			if nb, na := len(in[i].Get("before").Array()), len(in[i].Get("after").Array()); iTotal+p+fp.back() != na || rTotal+p+fp.gone() != nb {
				t.Fatalf("file %d: introduced %d + persisting %d + back %d ≠ after %d, or resolved %d + persisting %d + gone %d ≠ before %d", i, iTotal, p, fp.back(), na, rTotal, p, fp.gone(), nb)
			}
			for _, pr := range fl.Get("introduced").Array() {
				checkDiagProblem(t, pr)
				if pr.Get("severity").Str == "error" {
					errors++
				}
				if pr.Get("path").Str != fl.Get("path").Str {
					t.Fatalf("a problem listed under another file: %s", fl.Raw)
				}
			}
			for _, pr := range fl.Get("resolved").Array() {
				checkDiagProblem(t, pr)
			}
			introduced, resolved, persisting = introduced+iTotal, resolved+rTotal, persisting+p
			listedIntro, listedRes = listedIntro+nIntro, listedRes+nRes
		}
		c := ok.Get("counts")
		if int(c.Get("introduced").Int()) != introduced || int(c.Get("resolved").Int()) != resolved || int(c.Get("persisting").Int()) != persisting ||
			int(c.Get("introducedErrors").Int()) < errors || int(c.Get("introducedErrors").Int()) > introduced ||
			!paused.match(c) {
			t.Fatalf("counts %s do not match the files: %s", c.Raw, ok.Raw)
		}
		if listedIntro != min(introduced, limit) || listedRes != min(resolved, limit) || ok.Get("truncated").Bool() != (introduced > limit || resolved > limit) {
			t.Fatalf("listed %d/%d introduced, %d/%d resolved, limit %d, truncated %v", listedIntro, introduced, listedRes, resolved, limit, ok.Get("truncated").Bool())
		}
		if strings.Join(diagStrings(ok.Get("uncovered")), "\x00") != strings.Join(uncovered, "\x00") || strings.Join(diagStrings(ok.Get("stale")), "\x00") != strings.Join(stale, "\x00") ||
			strings.Join(diagStrings(ok.Get("unreported")), "\x00") != strings.Join(unreported, "\x00") {
			t.Fatalf("uncovered/unreported/stale lists: %s", ok.Raw)
		}
		// The other files (dependents): the same rules, each file's text
		// unchanged; the rendering names how many were checked.
		oShown, oTotal, oPaused := checkOthers(t, gjson.ParseBytes(input).Get("dependents"), ok.Get("others"), limit)
		// The text lists the withheld, reappeared, unchecked and rechecked
		// problems of all files, the first limit of each.
		paused = paused.plus(oPaused)
		pShown, pTotal := paused.shown(limit), paused.gone()+paused.back()
		r := ok.Get("rendered")
		text := r.Get("text").Str
		if text == "" || int(r.Get("shown").Int()) != listedIntro+listedRes+oShown+pShown || int(r.Get("omitted").Int()) != introduced+resolved+oTotal+pTotal-listedIntro-listedRes-oShown-pShown {
			t.Fatalf("rendered counts: %s", r.Raw)
		}
		if len(uncovered)+len(unreported) > 0 && !strings.Contains(text, "not checked") && !strings.Contains(text, "Not checked") {
			t.Fatalf("uncovered files not named: %s", text)
		}
		if len(stale) > 0 && !strings.Contains(text, "Stale: ") {
			t.Fatalf("stale files not named: %s", text)
		}
		if strings.Contains(strings.ToLower(text), "no problems") && len(uncovered)+len(unreported) == 0 {
			t.Fatalf("a delta that claims no problems: %s", text)
		}
	})
}

// pausedTotals are a delta's (or a file's) totals of problems neither
// resolved nor introduced (core/diaganalysis.go, core/diagparse.go).
type pausedTotals struct{ withheld, reappeared, unchecked, rechecked int }

func (a pausedTotals) plus(b pausedTotals) pausedTotals {
	return pausedTotals{a.withheld + b.withheld, a.reappeared + b.reappeared, a.unchecked + b.unchecked, a.rechecked + b.rechecked}
}

// gone are the before-problems neither resolved nor persisting, back the
// after-problems neither introduced nor persisting.
func (a pausedTotals) gone() int { return a.withheld + a.unchecked }
func (a pausedTotals) back() int { return a.reappeared + a.rechecked }

// shown is how many the text lists: the first limit of each.
func (a pausedTotals) shown(limit int) int {
	return min(a.withheld, limit) + min(a.reappeared, limit) + min(a.unchecked, limit) + min(a.rechecked, limit)
}

// match says whether a delta's counts carry these totals.
func (a pausedTotals) match(counts gjson.Result) bool {
	return int(counts.Get("withheld").Int()) == a.withheld && int(counts.Get("reappeared").Int()) == a.reappeared &&
		int(counts.Get("unchecked").Int()) == a.unchecked && int(counts.Get("rechecked").Int()) == a.rechecked
}

// checkPausedLists checks a file's withheld, reappeared, unchecked and
// rechecked lists against their totals and returns the totals.
func checkPausedLists(t *testing.T, fl gjson.Result, limit int) pausedTotals {
	t.Helper()
	for _, k := range []string{"withheld", "reappeared", "unchecked", "rechecked"} {
		list, total := fl.Get(k).Array(), int(fl.Get(k+"Total").Int())
		if len(list) != min(total, limit) || fl.Get(k).Exists() != (total > 0) {
			t.Fatalf("%s: %d listed of %d, limit %d: %s", k, len(list), total, limit, fl.Raw)
		}
		for _, pr := range list {
			checkDiagProblem(t, pr)
		}
	}
	total := func(k string) int { return int(fl.Get(k + "Total").Int()) }
	return pausedTotals{total("withheld"), total("reappeared"), total("unchecked"), total("rechecked")}
}

// checkOthers checks a delta's others against its dependents input, and
// returns how many of their problems are listed and how many there are,
// and their totals of problems neither resolved nor introduced.
func checkOthers(t *testing.T, in, others gjson.Result, limit int) (shown, total int, paused pausedTotals) {
	t.Helper()
	if !in.Exists() || in.Type == gjson.Null {
		if others.Exists() {
			t.Fatalf("others without dependents: %s", others.Raw)
		}
		return 0, 0, pausedTotals{}
	}
	files := others.Get("files").Array()
	if len(files) != len(in.Get("files").Array()) || int(others.Get("checked").Int()) != len(files) ||
		len(others.Get("notChecked").Array()) != len(in.Get("notChecked").Array()) {
		t.Fatalf("others %s for dependents %s", others.Raw, in.Raw)
	}
	var introduced, resolved, listedIntro, listedRes, withIntro, withRes int
	for i, fl := range files {
		iTotal, rTotal, p := int(fl.Get("introducedTotal").Int()), int(fl.Get("resolvedTotal").Int()), int(fl.Get("persisting").Int())
		fp := checkPausedLists(t, fl, limit)
		paused = paused.plus(fp)
		if nb, na := len(in.Get("files").Array()[i].Get("before").Array()), len(in.Get("files").Array()[i].Get("after").Array()); iTotal+p+fp.back() != na || rTotal+p+fp.gone() != nb {
			t.Fatalf("other file %d: counts do not add up: %s", i, fl.Raw)
		}
		if iTotal > 0 {
			withIntro++
		}
		if rTotal > 0 {
			withRes++
		}
		for _, pr := range append(fl.Get("introduced").Array(), fl.Get("resolved").Array()...) {
			checkDiagProblem(t, pr)
		}
		introduced, resolved = introduced+iTotal, resolved+rTotal
		listedIntro, listedRes = listedIntro+len(fl.Get("introduced").Array()), listedRes+len(fl.Get("resolved").Array())
	}
	c := others.Get("counts")
	if int(c.Get("introduced").Int()) != introduced || int(c.Get("resolved").Int()) != resolved ||
		len(others.Get("withIntroduced").Array()) != withIntro || len(others.Get("withResolved").Array()) != withRes ||
		listedIntro != min(introduced, limit) || listedRes != min(resolved, limit) || others.Get("truncated").Bool() != (introduced > limit || resolved > limit) ||
		!paused.match(c) {
		t.Fatalf("others' counts: %s", others.Raw)
	}
	return listedIntro + listedRes, introduced + resolved, paused
}

func diagStrings(v gjson.Result) []string {
	var out []string
	for _, s := range v.Array() {
		out = append(out, s.Str)
	}
	return out
}
