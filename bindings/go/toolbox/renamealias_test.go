package toolbox

import "testing"

func TestAliasWritten(t *testing.T) {
	for _, c := range []struct {
		name, path, before, after, old, new, want string
		keepsLocal                                bool
	}{
		{"svelte prop destructured", "Editor.svelte", "\tconst { article, errors } = $props();", "\tconst { article, errors: problems } = $props();", "errors", "problems", "errors: problems", false},
		{"svelte shorthand attribute", "Editor.svelte", "\t<ListErrors {errors} />", "\t<ListErrors errors={problems} />", "errors", "problems", "errors={problems}", false},
		{"import specifier", "Comment.svelte", "\timport { formatDate } from '$lib/format';", "\timport { formatDate as formatDay } from '$lib/format';", "formatDate", "formatDay", "formatDate as formatDay", false},
		{"export keeps the public name", "a.ts", "export { helper };", "export { assist as helper };", "helper", "assist", "assist as helper", false},
		{"spaces around the braces", "A.svelte", "<X {a} />", "<X a = { b } />", "a", "b", "a = { b }", false},
		{"plain rename", "a.ts", "const errors = 1;", "const problems = 1;", "errors", "problems", "", false},
		{"call renamed", "Comment.svelte", "\t{formatDate(comment.createdAt)}", "\t{formatDay(comment.createdAt)}", "formatDate", "formatDay", "", false},
		{"property value renamed, key kept", "a.ts", "f({ errors: errors })", "f({ errors: problems })", "errors", "problems", "", false},
		{"existing alias, its local renamed", "a.ts", "import { a as b } from './m';", "import { a as c } from './m';", "b", "c", "", false},
		{"an assignment is not an alias", "a.ts", "x = old;", "x = old; old = next;", "old", "next", "", false},
		{"the old name only inside a longer word", "a.ts", "import { oldName } from 'm';", "import { oldName as fresh } from 'm';", "old", "fresh", "", false},
		{"unchanged line", "a.ts", "import { a as b } from 'm';", "import { a as b } from 'm';", "a", "b", "", false},
		{"vue prop renamed, local binding kept", "Hamburger.vue", "const { isActive = false } = defineProps<Props>()", "const { isOpen: isActive = false } = defineProps<Props>()", "isActive", "isOpen", "isOpen: isActive", true},
		{"vue prop renamed, plain destructure", "Logo.vue", "const { collapse = true } = defineProps<Props>()", "const { collapsed: collapse = true } = defineProps<Props>()", "collapse", "collapsed", "collapsed: collapse", true},
		{"shorthand property's key renamed", "a.ts", "f({ errors });", "f({ problems: errors });", "errors", "problems", "problems: errors", true},
		{"key renamed with its value", "a.ts", "f({ errors: errors });", "f({ problems: errors });", "errors", "problems", "", false},
		{"object type's member renamed", "a.ts", "type T = { isActive: boolean }", "type T = { isOpen: boolean }", "isActive", "isOpen", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, keepsLocal := aliasWritten(c.path, c.before, c.after, c.old, c.new)
			if got != c.want || keepsLocal != c.keepsLocal {
				t.Errorf("aliasWritten(%q → %q, %s → %s) = %q, %v, want %q, %v", c.before, c.after, c.old, c.new, got, keepsLocal, c.want, c.keepsLocal)
			}
		})
	}
}
