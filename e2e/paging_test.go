package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReferencesPaging: 301 references of one function on gopls (its
// declaration and 300 calls in 10 files), asked with limit 100, come in
// four pages through cursors whose union is the unpaged answer (limit
// 500), each location once; and a file edited between two pages makes the
// cursor LSP_CONFLICT, answered with the changed answer's first page.
func TestReferencesPaging(t *testing.T) {
	requireServers(t, "gopls")
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/pages\n\ngo 1.22\n")
	write("f.go", "package pages\n\n// F is called 300 times.\nfunc F() {}\n")
	for i := 0; i < 10; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package pages\n\nfunc caller%d() {\n", i)
		for j := 0; j < 30; j++ {
			b.WriteString("\tF()\n")
		}
		b.WriteString("}\n")
		write(fmt.Sprintf("c%d.go", i), b.String())
	}
	srv := catalogServe(t)
	type page struct {
		Locations []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
		} `json:"locations"`
		TotalFound int    `json:"totalFound"`
		Cursor     string `json:"cursor"`
		Error      *struct {
			Code string `json:"code"`
		} `json:"error"`
		Page *struct {
			TotalFound int    `json:"totalFound"`
			Cursor     string `json:"cursor"`
		} `json:"page"`
	}
	ask := func(args string) (page, string) {
		t.Helper()
		a := srv.toolCall(t, "code_navigate", json.RawMessage(args), dir)
		var p page
		if err := json.Unmarshal(a.StructuredContent, &p); err != nil {
			t.Fatalf("%s: %v", a.StructuredContent, err)
		}
		return p, a.Content[0].Text
	}
	question := `{"target":{"path":"f.go","symbol":"F"},"kind":"references"`
	all, text := ask(question + `,"limit":500}`)
	if all.TotalFound != 301 || len(all.Locations) != 301 || all.Cursor != "" {
		t.Fatalf("unpaged: %d of %d, cursor %q\n%.600s", len(all.Locations), all.TotalFound, all.Cursor, text)
	}
	key := func(path string, line int) string { return fmt.Sprintf("%s:%d", path, line) }
	var want, got []string
	for _, l := range all.Locations {
		want = append(want, key(l.Path, l.Line))
	}
	p, text := ask(question + `,"limit":100}`)
	pages := 1
	for {
		if p.Error != nil || p.TotalFound != 301 {
			t.Fatalf("page %d: %s", pages, text)
		}
		for _, l := range p.Locations {
			got = append(got, key(l.Path, l.Line))
		}
		if p.Cursor == "" {
			break
		}
		if pages == 1 && !strings.Contains(text, `{"cursor":"`+p.Cursor+`"}`) {
			t.Errorf("the first page's text does not say how to get the next:\n%.300s", text[max(0, len(text)-300):])
		}
		p, text = ask(`{"cursor":"` + p.Cursor + `"}`)
		pages++
	}
	slices.Sort(want)
	slices.Sort(got)
	if pages != 4 || !slices.Equal(got, want) {
		t.Errorf("%d pages; their %d locations equal the unpaged %d: %v", pages, len(got), len(want), slices.Equal(got, want))
	}

	// An edit between pages: the cursor's answer is gone.
	first, _ := ask(question + `,"limit":100}`)
	write("c0.go", strings.Replace(string(readFile(t, filepath.Join(dir, "c0.go"))), "\tF()\n", "\tF()\n\tF()\n", 1))
	p, text = ask(`{"cursor":"` + first.Cursor + `"}`)
	if p.Error == nil || p.Error.Code != "LSP_CONFLICT" || p.Page == nil || p.Page.TotalFound != 302 || p.Page.Cursor == "" {
		t.Errorf("a cursor after an edit: %s", text)
	}
	// A cursor is used once.
	p, text = ask(`{"cursor":"` + first.Cursor + `"}`)
	if p.Error == nil || p.Error.Code != "LSP_INVALID_ARGUMENT" || !strings.Contains(text, "unknown or expired") {
		t.Errorf("a used cursor: %s", text)
	}
	srv.shutdown(t)
}
