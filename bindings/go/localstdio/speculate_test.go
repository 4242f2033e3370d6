package localstdio

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Session.Speculate with the scripted fake server: the changed text is
// shown as an edit of the open document and checked, and the document is
// given the disk's bytes again before Speculate returns.

// didChangeTexts are the texts of the didChange notifications the fake
// received for file, in order.
func (f *fake) didChangeTexts(file string) []string {
	var out []string
	for _, l := range f.logLines() {
		if l.Event != "recv" || l.Method != "textDocument/didChange" || !strings.Contains(string(l.Params), "/"+file) {
			continue
		}
		var p struct {
			ContentChanges []struct {
				Text string `json:"text"`
			} `json:"contentChanges"`
		}
		json.Unmarshal(l.Params, &p)
		if len(p.ContentChanges) > 0 {
			out = append(out, p.ContentChanges[0].Text)
		}
	}
	return out
}

func TestSpeculateShowsThenRestoresTheDisk(t *testing.T) {
	f := newFake(t, nil, nil)
	// b.go's version 1 is the disk's text; 2 the speculative one; 3 the
	// disk's again. Each change is reported on (unversioned, as
	// typescript-language-server does): the report after the first is what
	// the speculative text gave, the one after the second what Speculate
	// waits for before it returns. a.go, checked beside b.go, is reported
	// on when opened.
	f.setScript(map[string]any{"methods": map[string]any{
		"textDocument/didOpen":   map[string]any{"action": "none", "after": []any{f.publish("a.go", 1, "a")}},
		"textDocument/didChange": map[string]any{"action": "none", "after": []any{f.publish("b.go", 0, "speculative problem")}},
	}})
	disk, err := os.ReadFile(filepath.Join(f.ws, "b.go"))
	if err != nil {
		t.Fatal(err)
	}
	changed := "package a\n\nfunc B() { A(1) }\n"
	ctx := context.Background()
	var checks []lspseam.FileCheck
	err = f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		var err error
		checks, err = s.Speculate(ctx, []lspseam.SpeculativeText{{Path: "b.go", Text: changed}}, []string{"a.go"}, lspseam.DiagnosticsOptions{Wait: checkWait(t)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 2 || checks[0].Err != nil || checks[0].File.Text != changed || checks[1].Err != nil || checks[1].File.Text == changed {
		t.Fatalf("checks: %+v", checks)
	}
	wantReport(t, checks[0].Report, "push", true, 2, "speculative problem") // an unversioned report is for the version it followed
	wantReport(t, checks[1].Report, "push", true, 1, "a")
	// The fake logs what it reads in its own time: wait for the second
	// didChange (the test's time at most), then compare.
	var texts []string
	waitFor(checkWait(t), func() bool { texts = f.didChangeTexts("b.go"); return len(texts) >= 2 })
	if len(texts) != 2 || texts[0] != changed || texts[1] != string(disk) {
		t.Fatalf("b.go's didChange texts: %q; want the speculative text, then the disk's", texts)
	}
	// The server holds the disk's bytes: the next session opens b.go
	// without telling it anything new. (A request after the Open is
	// answered only once the fake has read, and logged, what came before.)
	err = f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		if _, err := s.Open(ctx, "b.go"); err != nil {
			return err
		}
		s.Request(ctx, "lspseam/roundTrip", json.RawMessage(`{}`)) // method not found: only the round trip counts
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.didChangeTexts("b.go"); len(got) != 2 {
		t.Fatalf("the next query sent b.go again (%d didChanges): the server did not hold the disk's text", len(got))
	}
}

func TestSpeculateRefusesMoreFilesThanItKeepsOpen(t *testing.T) {
	f := newFake(t, nil, nil)
	var changed []lspseam.SpeculativeText
	for i := 0; i <= 200; i++ {
		changed = append(changed, lspseam.SpeculativeText{Path: "b.go", Text: "x"})
	}
	err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
		_, err := s.Speculate(ctx, changed, nil, lspseam.DiagnosticsOptions{})
		return err
	})
	if codeOf(err) != lspseam.CodeInvalidArgument || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("err %v", err)
	}
	if got := f.didChangeTexts("b.go"); len(got) != 0 {
		t.Fatalf("a refused check changed b.go: %q", got)
	}
}

// TestSpeculateLanding: a change being written (DiagnosticsOptions.Landing)
// is checked while the write lands. Landing is called after the check and
// before the restore: once the write landed the document already holds
// the disk's bytes, so nothing more is sent; a write that failed leaves
// the old bytes on disk, and they are given back.
func TestSpeculateLanding(t *testing.T) {
	for _, c := range []struct {
		name  string
		lands bool
	}{{"the write lands", true}, {"the write fails", false}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, nil, nil)
			f.setScript(map[string]any{"methods": map[string]any{
				"textDocument/didChange": map[string]any{"action": "none", "after": []any{f.publish("b.go", 0, "checked")}},
			}})
			path := filepath.Join(f.ws, "b.go")
			disk, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			changed := "package a\n\nfunc B() { A(2) }\n"
			landed := false
			err = f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
				checks, err := s.Speculate(ctx, []lspseam.SpeculativeText{{Path: "b.go", Text: changed}}, nil, lspseam.DiagnosticsOptions{Wait: checkWait(t),
					Landing: func() {
						landed = true
						if c.lands {
							os.WriteFile(path, []byte(changed), 0o644)
						}
					}})
				if err == nil && (len(checks) != 1 || checks[0].Err != nil || checks[0].File.Text != changed) {
					t.Errorf("checks: %+v", checks)
				}
				return err
			})
			if err != nil || !landed {
				t.Fatalf("err %v, Landing called: %v", err, landed)
			}
			want := []string{changed}
			if !c.lands {
				want = append(want, string(disk))
			}
			var texts []string
			waitFor(checkWait(t), func() bool { texts = f.didChangeTexts("b.go"); return len(texts) >= len(want) })
			// The next session's round trip: everything sent before it
			// has been read and logged.
			f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
				s.Request(ctx, "lspseam/roundTrip", json.RawMessage(`{}`))
				return nil
			})
			if texts = f.didChangeTexts("b.go"); !slices.Equal(texts, want) {
				t.Fatalf("b.go's didChange texts: %q; want %q", texts, want)
			}
		})
	}
}
