package core

import (
	"testing"

	"github.com/tidwall/gjson"
)

// Hover text starts with its first non-blank line and ends with its last
// one, whatever shape the server sent (issue 10, item 9).
func TestTranslateHoverTrimsBlankLines(t *testing.T) {
	tests := []struct{ name, result, want string }{
		{"markup with leading blank lines", `{"contents":{"kind":"markdown","value":"\n\n  \n` + "```go\\nfunc F()\\n```" + `\n\n"}}`, "```go\nfunc F()\n```"},
		{"crlf blank lines", `{"contents":{"kind":"plaintext","value":"\r\n\r\nint x\r\n"}}`, "int x"},
		{"indentation of the first line kept", `{"contents":"\n    indented code\nnext"}`, "    indented code\nnext"},
		{"array parts each trimmed", `{"contents":["\n\nfirst\n\n",{"language":"go","value":"\nvar x int"}]}`, "first\n\n```go\n\nvar x int\n```"},
		{"inner blank lines kept", `{"contents":"a\n\n\nb"}`, "a\n\n\nb"},
	}
	for _, tt := range tests {
		res, err := Translate(OpHover, gjson.Parse(tt.result))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if res.Hover == nil {
			t.Errorf("%s: no hover, want %q", tt.name, tt.want)
		} else if res.Hover.Contents != tt.want {
			t.Errorf("%s: contents = %q, want %q", tt.name, res.Hover.Contents, tt.want)
		}
	}
}
