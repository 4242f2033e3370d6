package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReferencesUnlistedDynamicUses: pyright's references of a method
// leave out its calls on values of unknown type, and the answer said
// nothing (a tester's 30 of 46 calls of httpx's URL.copy_with). The
// lines spelling the method as an attribute outside the server's list
// are named in the Incomplete line; a local variable of the same name,
// a same-named function declared elsewhere and a mention in a string are
// not uses; an answer whose every use is listed says nothing.
func TestReferencesUnlistedDynamicUses(t *testing.T) {
	requireServers(t, "pyright-langserver")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, base, map[string]string{
		"pyproject.toml": "[project]\nname = \"shop\"\nversion = \"0\"\n",
		"shop.py":        "class Cart:\n    def total(self) -> int:\n        return 1\n\n    def size(self) -> int:\n        return 2\n\n\ndef typed(c: Cart) -> int:\n    return c.total() + c.size()\n",
		"use.py":         "def show(c):\n    total = 3\n    print(\"c.total\")\n    return c.total() + total\n",
		"other.py":       "def total() -> int:\n    return 3\n",
	})
	srv := catalogServe(t)
	defer srv.shutdown(t)
	refs := func(symbol string) string {
		a := srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": map[string]any{"path": "shop.py", "symbol": symbol}, "kind": "references"}), base)
		if a.IsError {
			t.Fatalf("references of %s: %s", symbol, a.Content[0].Text)
		}
		return a.Content[0].Text
	}
	got := refs("Cart.total")
	if !strings.Contains(got, "10:14 (in typed)") {
		t.Fatalf("the typed call is not among the references: %s", got)
	}
	if !strings.Contains(got, "1 other line spells `total` as a use and is not listed") || !strings.Contains(got, "use.py:4") ||
		strings.Contains(got, "use.py:2") || strings.Contains(got, "use.py:3") || strings.Contains(got, "other.py") {
		t.Fatalf("references of Cart.total: want use.py:4 named as unlisted, and nothing else:\n%s", got)
	}
	if got := refs("Cart.size"); strings.Contains(got, "not listed") {
		t.Fatalf("every use of Cart.size is listed, yet:\n%s", got)
	}
}
