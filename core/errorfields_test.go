package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// Hosts tell errors apart by their structured fields, never by their
// messages: each field is set where the core knows it, and the envelope
// carries it.
func TestErrorFields(t *testing.T) {
	unsupported := UnsupportedMethod("textDocument/prepareCallHierarchy", "gopls")
	if unsupported.Instead == "" || !strings.HasSuffix(unsupported.Message, "; "+unsupported.Instead) {
		t.Errorf("UnsupportedMethod: instead %q, message %q", unsupported.Instead, unsupported.Message)
	}

	overlapping := []TextEdit{
		{Range: Range{Start: Position{0, 0}, End: Position{0, 3}}, NewText: "x"},
		{Range: Range{Start: Position{0, 2}, End: Position{0, 4}}, NewText: "y"},
	}
	_, err := ApplyTextEdits("file:///a.go", "abcdef\n", overlapping, "", 0, true)
	if err == nil || err.Code != CodeMalformedResponse || err.Reason != ReasonEditsOverlap {
		t.Errorf("overlapping edits: %+v", err)
	}
	bad := []TextEdit{{Range: Range{Start: Position{5, 0}, End: Position{5, 1}}, NewText: "x"}}
	if _, err := ApplyTextEdits("file:///a.go", "abc\n", bad, "", 0, true); err == nil || err.Reason != "" {
		t.Errorf("an edit past the end is not an overlap: %+v", err)
	}

	_, _, err = decodeSnippetInput(gjson.Parse(`{"locations":[{"uri":1}],"workspaceUri":"file:///w"}`))
	if err == nil || err.Field != "locations" {
		t.Errorf("a malformed location: %+v", err)
	}
	_, _, err = decodeSnippetInput(gjson.Parse(`{"locations":[],"workspaceUri":7}`))
	if err == nil || err.Field != "" {
		t.Errorf("the host's own workspaceUri is not the server's locations: %+v", err)
	}

	env := gjson.ParseBytes(errorEnvelope(&Error{Code: CodeUnsupportedOperation, Message: "m", Field: "f", Instead: "i", Reason: "r"}))
	for key, want := range map[string]string{"error.field": "f", "error.instead": "i", "error.reason": "r"} {
		if got := env.Get(key).Str; got != want {
			t.Errorf("envelope %s = %q, want %q: %s", key, got, want, env.Raw)
		}
	}
	if plain := string(errorEnvelope(&Error{Code: CodeInternal, Message: "m"})); plain != `{"error":{"code":"LSP_INTERNAL_ERROR","message":"m"}}` {
		t.Errorf("an error without fields: %s", plain)
	}
}
