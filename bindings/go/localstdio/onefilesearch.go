package localstdio

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Some servers search the one document asked about, by design:
// vscode-css-language-server's references and renames stay inside one
// stylesheet, and the HTML server's script service holds the document
// alone. Measured on a copy of the css fixture with cards.css using
// var(--gap) and page.html using class="card-title": references of --gap
// answered theme.css's 3 locations, the rename said "Other files: none use
// what changed" and left cards.css's var(--gap) undefined, and code_delete
// removed .card-title, which page.html still uses. The policy's
// SearchesOneFile names the extensions of the files that may use what the
// server's files declare; when the root holds one besides the file
// searched from, the answer says the search did not look there (and
// code_delete, seeing the notice, refuses rather than call it unused).

// oneFileNotice is the incomplete notice for a search from path by a
// server that searches path alone, when the root holds other files with
// one of exts ("" when it holds none).
func (in *instance) oneFileNotice(ctx context.Context, path string, exts []string) string {
	path = filepath.Clean(path)
	others := in.scopeWalks.files(ctx, in.root.Path, "onefile\x00"+path+"\x00"+strings.Join(exts, "\x00"), func(p string) bool {
		return p != path && slices.Contains(exts, strings.ToLower(filepath.Ext(p)))
	})
	if len(others) == 0 {
		return ""
	}
	return fmt.Sprintf("language server %q searches only the file asked about (%s), by design; %s of a kind that may use its names (%s; such as %s), and it did not search them: search them for the name yourself before taking no use there as none", in.server.ID, in.wsRel(path), in.filesOfRoot(len(others), "other"), strings.Join(exts, " "), in.wsRel(others[0]))
}
