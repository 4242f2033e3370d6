package core

import "fmt"

// Code is a stable, machine-readable error code. Codes are part of the
// public contract: a code is never reused for a different meaning.
type Code string

// The error codes of docs/design.md, including CodeWorkspaceInvalid and the two the
// ABI needs for itself (CodeUnknownMethod, CodeInternal).
const (
	CodeInvalidArgument      Code = "LSP_INVALID_ARGUMENT"
	CodeWorkspaceRequired    Code = "LSP_WORKSPACE_REQUIRED"
	CodeUnavailable          Code = "LSP_UNAVAILABLE"
	CodeConflict             Code = "LSP_CONFLICT"
	CodeDisposed             Code = "LSP_DISPOSED"
	CodeUnsupportedOperation Code = "LSP_UNSUPPORTED_OPERATION"
	CodeUnsupportedSync      Code = "LSP_UNSUPPORTED_SYNC"
	CodeSourceRejected       Code = "LSP_SOURCE_REJECTED"
	CodeMalformedResponse    Code = "LSP_MALFORMED_RESPONSE"
	CodeProtocolError        Code = "LSP_PROTOCOL_ERROR"
	CodeServerFailed         Code = "LSP_SERVER_FAILED"
	CodeServerError          Code = "LSP_SERVER_ERROR"
	CodeCancelled            Code = "LSP_CANCELLED"
	CodeTimeout              Code = "LSP_TIMEOUT"
	CodeConfigInvalid        Code = "LSP_CONFIG_INVALID"

	// CodeWorkspaceInvalid: the session's workspace root does not exist or
	// is not a directory (LSP_WORKSPACE_REQUIRED is for no root at all).
	CodeWorkspaceInvalid Code = "LSP_WORKSPACE_INVALID"

	// CodeTargetNotFound: a target names no symbol of the file (the message
	// lists the nearest names), or its matchText is not on its line (the
	// message quotes the line as it is now). CodeAmbiguousTarget: a symbol
	// target matches several symbols (the message and the candidates list
	// them; name one, or pass firstMatch on a read). See target.go.
	CodeTargetNotFound  Code = "LSP_TARGET_NOT_FOUND"
	CodeAmbiguousTarget Code = "LSP_AMBIGUOUS_TARGET"

	// The filesystem tools' codes (read, write, edit; docs/design.md):
	// CodeFSNotObserved: an existing file is updated without this session
	// having read (or written) it; CodeFSStale: it changed since this
	// session last observed it; CodeFSNotFound: no such file (edit, read);
	// CodeFSNoMatch / CodeFSAmbiguousMatch: edit's old_string is not in the
	// file / is in it more than once without replace_all;
	// CodeFSInvalidArgument: bad arguments; CodeFSRejected: the path breaks
	// a source rule (outside the workspace, not a regular file, not UTF-8,
	// too large).
	CodeFSNotObserved     Code = "FS_NOT_OBSERVED"
	CodeFSStale           Code = "FS_STALE"
	CodeFSNotFound        Code = "FS_NOT_FOUND"
	CodeFSNoMatch         Code = "FS_NO_MATCH"
	CodeFSAmbiguousMatch  Code = "FS_AMBIGUOUS_MATCH"
	CodeFSInvalidArgument Code = "FS_INVALID_ARGUMENT"
	CodeFSRejected        Code = "FS_REJECTED"

	// CodeUnknownMethod: an ABI caller named a method the module does not
	// have (a host built against a newer ABI than the module it loaded).
	CodeUnknownMethod Code = "LSP_UNKNOWN_METHOD"
	// CodeInternal: a bug in lspseam itself (a recovered panic). Never
	// expected; fuzz targets fail when they see it.
	CodeInternal Code = "LSP_INTERNAL_ERROR"
)

// Error is the structured error every lspseam layer returns: a stable code
// and a message written for the caller (often a model) that says what to do
// next.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Candidates are the symbols an LSP_AMBIGUOUS_TARGET matched, or the
	// nearest names of an LSP_TARGET_NOT_FOUND symbol; absent otherwise.
	// The envelope writes them after the message, only when there are any.
	Candidates []TargetCandidate `json:"candidates,omitempty"`
	// Field is the input member an LSP_INVALID_ARGUMENT is about, where a
	// host must know it ("locations": a server's result the host passed
	// on, not the host's own input); absent otherwise.
	Field string `json:"field,omitempty"`
	// Instead is what to use instead of an operation a server does not
	// offer (LSP_UNSUPPORTED_OPERATION), when there is something; the
	// message says it too.
	Instead string `json:"instead,omitempty"`
	// Reason tells apart the kinds of one code a host acts on differently
	// (ReasonEditsOverlap); absent otherwise.
	Reason string `json:"reason,omitempty"`
	// Problems are the problems of an LSP_CONFIG_INVALID from config
	// validation, each with the path it is about; absent otherwise.
	Problems []ConfigProblem `json:"problems,omitempty"`
}

// ReasonEditsOverlap: two edits of one document overlap
// (LSP_MALFORMED_RESPONSE from a server's edit, LSP_INVALID_ARGUMENT from
// a host's).
const ReasonEditsOverlap = "editsOverlap"

// ReasonStillReferenced: code_delete refused a symbol that code outside
// its declaration still uses (LSP_CONFLICT): the server's references
// found uses, or the code shown to the server without it has new errors
// that depend on it (a method an interface assignment needs).
const ReasonStillReferenced = "stillReferenced"

// ReasonUsesUnknown: code_delete refused a symbol because the server's
// references may be incomplete (still loading, or searching only part of
// the workspace), so "no use left" could not be told (LSP_CONFLICT).
const ReasonUsesUnknown = "usesUnknown"

// Hosts read Candidates, Field, Instead, Reason and Problems; they never parse a
// message, whose wording may change.

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
