package localstdio

import "context"

// Re-syncing a document whose server checks only what it is sent
// (Readiness.ReportsOnlySynced).
//
// A pushed report is fresh when it came after the document's own last
// sync (diagnostics.go): the server is trusted to publish again for a
// document whose problems another change altered. buf's server does not.
// It compiles a file, with its imports, when that file is opened or
// changed, and publishes for that file only: after money.proto was edited
// through lspseam, invoice.proto, which imports it, kept its report from
// before — "no problems, fresh" while `buf build` failed, and after the
// fix the old errors, fresh, while it built. Its report is the server's
// word on the file as of the file's last sync, and on the other files as
// they were then.
//
// So for such a server each open document records the content epoch (the
// count of notifications that may change what the server knows of a
// file's content) of its last sync, and a document whose epoch is behind
// the server's is synced again, with the same text and the next version,
// before its report is awaited: the server compiles it against the
// current text of everything it imports and publishes anew.

// behindOtherChanges says whether the server has been told of a content
// change since d's last sync and only re-checks what it is sent.
func (in *instance) behindOtherChanges(d *openDocument) bool {
	return in.neg.Readiness.ReportsOnlySynced && in.diags.contentEpochNow() > d.contentEpoch
}

// resync sends d's text, which the server already holds, as d's next
// version, so that the server checks it anew. It changes no content the
// server knows, so it makes no other document behind.
func (in *instance) resync(ctx context.Context, d *openDocument, text string) error {
	in.log.Debug("re-syncing a document the server checked before a change to another file", "path", d.path)
	if in.neg.ChangeSync == 0 {
		if err := in.closeDocument(ctx, d); err != nil {
			return err
		}
		d.version++
		d.fromDisk = false
		return in.openDocument(ctx, d, text, d.hash)
	}
	change := didChangeParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: d.uri, Version: d.version + 1},
		ContentChanges: []contentChange{{Text: text}},
	}
	synced := in.diags.mark()
	if err := in.send(ctx, "textDocument/didChange", change, true); err != nil {
		return err
	}
	d.version++
	d.synced = synced
	d.contentEpoch = in.diags.contentEpochNow()
	return nil
}

// contentEpochNow is the count of notifications sent that may change what
// the server knows of a file's content.
func (s *diagnosticStore) contentEpochNow() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.contentEpoch
}
