package toolbox

import (
	"strings"
	"testing"
)

func TestSignatureEnd(t *testing.T) {
	tests := []struct {
		name string
		text string
		at   int
		want int
	}{
		{"one line", "def f(a, b):\n    return a\n", 0, 0},
		{"over lines", "    async def send(\n        self,\n        request: Request,\n        *,\n    ) -> Response:\n        pass\n", 0, 4},
		{"a bracket in a string", "def f(a=\")\",\n      b=1):\n    pass\n", 0, 1},
		{"a bracket in a comment", "def f(a,  # (\n      b):\n    pass\n", 0, 1},
		{"TypeScript", "export function f(\n  a: string[],\n  b: number,\n): void {\n", 0, 3},
		{"never closed", "def f(\n" + strings.Repeat("  a,\n", 70), 0, 0},
		{"no parentheses", "class C:\n    x = 1\n", 0, 0},
		{"out of range", "x\n", 5, 5},
	}
	for _, tt := range tests {
		if got := signatureLastLine(strings.Split(tt.text, "\n"), tt.at); got != tt.want {
			t.Errorf("%s: signatureLastLine = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestOpensParameters(t *testing.T) {
	for rest, want := range map[string]bool{
		"(\n":                   true,
		"(self, x):":            true,
		" <T>(a: T) {":          true,
		"[T any](x T) {":        true,
		"<T extends A<B>>(a) {": true,
		" = len(":               false,
		": Props = {":           false,
		"":                      false,
		" struct {":             false,
	} {
		if got := opensParameters(rest); got != want {
			t.Errorf("opensParameters(%q) = %v, want %v", rest, got, want)
		}
	}
}
