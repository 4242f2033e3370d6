package toolbox

import "testing"

func TestAliasWritten(t *testing.T) {
	for _, c := range []struct {
		name, path, before, after, old, new, want string
	}{
		{"svelte prop destructured", "Editor.svelte", "\tconst { article, errors } = $props();", "\tconst { article, errors: problems } = $props();", "errors", "problems", "errors: problems"},
		{"svelte shorthand attribute", "Editor.svelte", "\t<ListErrors {errors} />", "\t<ListErrors errors={problems} />", "errors", "problems", "errors={problems}"},
		{"import specifier", "Comment.svelte", "\timport { formatDate } from '$lib/format';", "\timport { formatDate as formatDay } from '$lib/format';", "formatDate", "formatDay", "formatDate as formatDay"},
		{"export keeps the public name", "a.ts", "export { helper };", "export { assist as helper };", "helper", "assist", "assist as helper"},
		{"spaces around the braces", "A.svelte", "<X {a} />", "<X a = { b } />", "a", "b", "a = { b }"},
		{"plain rename", "a.ts", "const errors = 1;", "const problems = 1;", "errors", "problems", ""},
		{"call renamed", "Comment.svelte", "\t{formatDate(comment.createdAt)}", "\t{formatDay(comment.createdAt)}", "formatDate", "formatDay", ""},
		{"property value renamed, key kept", "a.ts", "f({ errors: errors })", "f({ errors: problems })", "errors", "problems", ""},
		{"existing alias, its local renamed", "a.ts", "import { a as b } from './m';", "import { a as c } from './m';", "b", "c", ""},
		{"an assignment is not an alias", "a.ts", "x = old;", "x = old; old = next;", "old", "next", ""},
		{"the old name only inside a longer word", "a.ts", "import { oldName } from 'm';", "import { oldName as fresh } from 'm';", "old", "fresh", ""},
		{"unchanged line", "a.ts", "import { a as b } from 'm';", "import { a as b } from 'm';", "a", "b", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := aliasWritten(c.path, c.before, c.after, c.old, c.new); got != c.want {
				t.Errorf("aliasWritten(%q → %q, %s → %s) = %q, want %q", c.before, c.after, c.old, c.new, got, c.want)
			}
		})
	}
}
