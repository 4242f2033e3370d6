package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// An operation a model got almost right is answered with the operation it
// meant, first, before the list of operations and the coordinate
// convention (issue 10, item 6).
func TestParseToolArgsSuggestsOperation(t *testing.T) {
	tests := []struct {
		operation string
		want      Operation // "" = no suggestion
	}{
		{"definition", OpDefinition},
		{"gotodefinition", OpDefinition},
		{"GoToDefinition", OpDefinition},
		{"go_to_definition", OpDefinition},
		{"goto-definition", OpDefinition},
		{"goToDefinitoin", OpDefinition},
		{"textDocument/definition", OpDefinition},
		{"references", OpReferences},
		{"findreferences", OpReferences},
		{"FindReference", OpReferences},
		{"findRefs", OpReferences},
		{"implementation", OpImplementation},
		{"goToImplementations", OpImplementation},
		{"HOVER", OpHover},
		{"hovr", OpHover},
		{"rename", ""},
		{"documentSymbol", ""},
		{"x", ""},
		{"", ""},
	}
	for _, tt := range tests {
		args := gjson.Parse(`{"operation":` + string(appendString(nil, tt.operation)) + `,"file_path":"a.go","line":1,"character":1}`)
		_, err := ParseToolArgs(args)
		if err == nil || err.Code != CodeInvalidArgument {
			t.Fatalf("operation %q: got %v, want LSP_INVALID_ARGUMENT", tt.operation, err)
		}
		hint := "did you mean " + string(tt.want) + "?"
		if tt.want == "" {
			if strings.Contains(err.Message, "did you mean") {
				t.Errorf("operation %q: unexpected suggestion in %q", tt.operation, err.Message)
			}
			continue
		}
		i := strings.Index(err.Message, hint)
		if i < 0 {
			t.Errorf("operation %q: message lacks %q: %q", tt.operation, hint, err.Message)
			continue
		}
		for _, later := range []string{"operation must be one of", CoordinateConvention} {
			if j := strings.Index(err.Message, later); j < i {
				t.Errorf("operation %q: the suggestion must come before %q: %q", tt.operation, later, err.Message)
			}
		}
	}
}

// The suggestion is the first problem even when other arguments are wrong
// too.
func TestParseToolArgsSuggestionFirst(t *testing.T) {
	_, err := ParseToolArgs(gjson.Parse(`{"operation":"definition","file":"a.go","line":0,"character":1}`))
	if err == nil {
		t.Fatal("want an error")
	}
	const want = "invalid lsp arguments: did you mean goToDefinition? "
	if !strings.HasPrefix(err.Message, want) {
		t.Errorf("message = %q, want it to start with %q", err.Message, want)
	}
}
