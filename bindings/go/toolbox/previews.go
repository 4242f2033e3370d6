package toolbox

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/expiring"
)

// Pending previews of mutating tools: a change bound to the call that
// made it and to the files' contents, applied by id until previewTTL.

// previewTTL is how long a preview can be applied.
const previewTTL = 10 * time.Minute

// maxPreviews bounds the previews a session keeps.
const maxPreviews = 64

// maxPreviewBytes bounds the bytes a session's pending previews hold (each
// planned file's text before and after and its diff): the count alone let
// 64 previews of a 3.84 MB file hold a gigabyte. Over it the oldest
// previews are dropped, as over maxPreviews.
const maxPreviewBytes = 64 << 20

// preview is a planned change waiting for approval.
type preview struct {
	id   string
	call string // the call it answers (tool and arguments without previewId)
	change
	digest string // changeDigest of the files, when the change has a recompute
}

func newPreview(call lspseam.CodeCall, ch change) *preview {
	pv := &preview{id: newPreviewID(), call: callKey(call), change: ch}
	if ch.recompute != nil {
		pv.digest = changeDigest(ch.files)
	}
	return pv
}

// newPreviewStore holds a session's pending previews: each can be applied
// once within previewTTL, and at most maxPreviews holding at most
// maxPreviewBytes wait at once.
func newPreviewStore() *expiring.Store[*preview] {
	return expiring.NewSized(previewTTL, maxPreviews, maxPreviewBytes, (*preview).bytes)
}

// bytes is what a preview holds: its files' paths, texts and diffs, and
// its command.
func (pv *preview) bytes() int64 {
	n := len(pv.id) + len(pv.call) + len(pv.what) + len(pv.digest)
	for _, f := range pv.files {
		n += len(f.rel) + len(f.uri) + len(f.before) + len(f.after) + len(f.diff) + len(f.version) + len(f.from)
	}
	if c := pv.command; c != nil {
		n += len(c.name) + len(c.params) + len(c.fileRel) + len(c.fileVersion)
	}
	return int64(n)
}

func newPreviewID() string {
	var b [8]byte
	rand.Read(b[:])
	return "p-" + hex.EncodeToString(b[:])
}

// callKey identifies a call without its previewId, so a preview applies
// only to the call it was made for.
func callKey(call lspseam.CodeCall) string {
	call.PreviewID = ""
	b, _ := json.Marshal(call)
	return string(b)
}
