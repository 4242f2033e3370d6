package textline

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lspseam/lspseam/core"
)

// coreLines is text's lines as the core numbers them, read back from its
// readView method (each line as `%6d\t` and the line).
func coreLines(t *testing.T, text string) []string {
	t.Helper()
	in, _ := json.Marshal(map[string]any{"text": text, "path": "f"})
	var env struct {
		OK struct {
			Text       string `json:"text"`
			TotalLines int    `json:"totalLines"`
		} `json:"ok"`
	}
	if err := json.Unmarshal(core.Call("readView", in), &env); err != nil {
		t.Fatal(err)
	}
	lines := []string{}
	for i, l := range strings.Split(env.OK.Text, "\n") {
		if i == env.OK.TotalLines {
			break
		}
		_, after, _ := strings.Cut(l, "\t")
		lines = append(lines, after)
	}
	return lines
}

// TestAgreesWithTheCore: the host finds the lines the core numbers, or a
// position would be checked against the wrong line.
func TestAgreesWithTheCore(t *testing.T) {
	for _, text := range []string{"a", "a\n", "a\nb\nc", "a\r\nb\r\n", "a\rb\r", "a\r\n\rb\n\r\nc", "\n\n", "ab\rc\nd", "a\r", "x\r\r\n\ny"} {
		if got, want := Split(text), coreLines(t, text); !slices.Equal(got, want) {
			t.Errorf("Split(%q) = %q, the core numbers %q", text, got, want)
		}
	}
}

func FuzzAgreesWithTheCore(f *testing.F) {
	for _, s := range []string{"a\r\n\rb\n\r\nc", "ab\rc\nd", "\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsAny(text, "\t\x00") || !utf8.ValidString(text) || len(text) > 1000 {
			return // readView shows tabs and long lines its own way
		}
		if got, want := Split(text), coreLines(t, text); !slices.Equal(got, want) {
			t.Fatalf("Split(%q) = %q, the core numbers %q", text, got, want)
		}
	})
}
