package lspseam

import "github.com/lspseam/lspseam/core"

// The seam's types are core's wire types: one definition, encoded by the
// module and decoded here. See core/types.go for their documentation.
type (
	Operation        = core.Operation
	Position         = core.Position
	Range            = core.Range
	Location         = core.Location
	Hover            = core.Hover
	Result           = core.Result
	ResultKind       = core.ResultKind
	ToolCall         = core.ToolCall
	ToolDefinition   = core.ToolDefinitionValue
	ProviderSpec     = core.ProviderSpec
	Selection        = core.Selection
	Negotiation      = core.Negotiation
	Readiness        = core.Readiness
	Limits           = core.Limits
	Rendered         = core.Rendered
	Card             = core.Card
	CardLocation     = core.CardLocation
	ServerReply      = core.ServerReply
	ServerReplyError = core.ServerReplyErr
	Config           = core.Config
	ServerConfig     = core.ServerConfig
	ConfigProblem    = core.ConfigProblem
	RawJSON          = core.RawJSON
	Error            = core.Error
	Code             = core.Code
	PositionTerms    = core.PositionTerms
)

// The coordinates a caller spoke, which a position error restates (see
// QueryRequest.PositionTerms).
const (
	ZeroBasedTerms = core.ZeroBasedTerms
	OneBasedTerms  = core.OneBasedTerms
)

// Watched files (see core/watch.go).
type (
	WatchUpdate       = core.WatchUpdate
	WatchRegistration = core.WatchRegistration
	FileWatcher       = core.FileWatcher
	FileChangesInput  = core.FileChangesInput
	FileChangesResult = core.FileChangesResult
	FileChangeBatch   = core.FileChangeBatch
	FileEvent         = core.FileEvent
	PathChange        = core.PathChange
)

// WatchKind bits of a FileWatcher and FileChangeType values of a FileEvent.
const (
	WatchCreate = core.WatchCreate
	WatchChange = core.WatchChange
	WatchDelete = core.WatchDelete
	WatchAll    = core.WatchAll
	FileCreated = core.FileCreated
	FileChanged = core.FileChanged
	FileDeleted = core.FileDeleted
)

// Operations.
const (
	OpDefinition     = core.OpDefinition
	OpReferences     = core.OpReferences
	OpImplementation = core.OpImplementation
	OpHover          = core.OpHover
)

// Result kinds.
const (
	KindLocations = core.KindLocations
	KindHover     = core.KindHover
)

// Error codes (see docs/design.md, "Error codes").
const (
	CodeInvalidArgument      = core.CodeInvalidArgument
	CodeWorkspaceRequired    = core.CodeWorkspaceRequired
	CodeUnavailable          = core.CodeUnavailable
	CodeConflict             = core.CodeConflict
	CodeDisposed             = core.CodeDisposed
	CodeUnsupportedOperation = core.CodeUnsupportedOperation
	CodeUnsupportedSync      = core.CodeUnsupportedSync
	CodeSourceRejected       = core.CodeSourceRejected
	CodeMalformedResponse    = core.CodeMalformedResponse
	CodeProtocolError        = core.CodeProtocolError
	CodeServerFailed         = core.CodeServerFailed
	CodeServerError          = core.CodeServerError
	CodeCancelled            = core.CodeCancelled
	CodeTimeout              = core.CodeTimeout
	CodeConfigInvalid        = core.CodeConfigInvalid
	CodeWorkspaceInvalid     = core.CodeWorkspaceInvalid
	CodeTargetNotFound       = core.CodeTargetNotFound
	CodeAmbiguousTarget      = core.CodeAmbiguousTarget
	CodeUnknownMethod        = core.CodeUnknownMethod
	CodeFSNotObserved        = core.CodeFSNotObserved
	CodeFSStale              = core.CodeFSStale
	CodeFSNotFound           = core.CodeFSNotFound
	CodeFSNoMatch            = core.CodeFSNoMatch
	CodeFSAmbiguousMatch     = core.CodeFSAmbiguousMatch
	CodeFSInvalidArgument    = core.CodeFSInvalidArgument
	CodeFSRejected           = core.CodeFSRejected
	CodeInternal             = core.CodeInternal

	// CodeNotInitialized: a call on a Core not made by NewCore (a zero
	// value). The module never sees it, so it is the host's code, as
	// the JavaScript package's is (a core function called before init()).
	CodeNotInitialized Code = "LSP_NOT_INITIALIZED"
)

// Errorf builds an *Error.
func Errorf(code Code, format string, args ...any) *Error { return core.Errorf(code, format, args...) }
