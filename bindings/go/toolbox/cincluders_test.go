package toolbox

import "testing"

func TestNamesIncluded(t *testing.T) {
	for _, c := range []struct {
		text, base string
		want       bool
	}{
		{"#include \"cJSON.c\"\n", "cJSON.c", true},
		{"#include \"../cJSON.c\"\n", "cJSON.c", true},
		{"#include <lib/cJSON.c>\n", "cJSON.c", true},
		{"#include \"..\\\\cJSON.c\"\n", "cJSON.c", true},
		{"#define SRC \"cJSON.c\"\n#include SRC\n", "cJSON.c", true},
		{"#import \"common.h\"\n", "common.h", true},
		{"#include \"cJSON.h\"\n", "cJSON.c", false},
		{"#include \"mycJSON.c\"\n", "cJSON.c", false},
		{"/* see cJSON.c */\n", "cJSON.c", false},
		{"#include \"cJSON.cc\"\n", "cJSON.c", false},
		{"cJSON.c\"", "cJSON.c", false},
	} {
		if got := namesIncluded(c.text, c.base); got != c.want {
			t.Errorf("namesIncluded(%q, %q) = %v, want %v", c.text, c.base, got, c.want)
		}
	}
}
