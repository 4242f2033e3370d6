package serverinstall

import "fmt"

// Error is an install that did not happen, with a stable code and a
// message that says what to do. `lspseam servers install` prints it as
// "CODE: message" on one line.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// The codes of Error.
const (
	// CodeClientMissing: the ecosystem client the server installs with
	// (npm, go, python3, apt-get) is not on PATH.
	CodeClientMissing = "INSTALL_CLIENT_MISSING"
	// CodeManual: the server is installed by hand; the message is the
	// table's instructions.
	CodeManual = "INSTALL_MANUAL"
	// CodeNeedsRoot: the server installs only with apt-get, which needs
	// root; the message is the command to run as root.
	CodeNeedsRoot = "INSTALL_NEEDS_ROOT"
	// CodeNoPlatform: the server is a vendor download with no file for
	// this platform.
	CodeNoPlatform = "INSTALL_NO_PLATFORM"
	// CodeDownloadFailed: the download did not complete (network, HTTP
	// status, size bound).
	CodeDownloadFailed = "INSTALL_DOWNLOAD_FAILED"
	// CodeChecksumMismatch: the downloaded file is not the one the table
	// pins; nothing of it was unpacked.
	CodeChecksumMismatch = "INSTALL_CHECKSUM_MISMATCH"
	// CodeUnsafeArchive: the archive has an entry that would land outside
	// the install directory (an absolute or ".." path, a link out of it)
	// or of a kind lspseam does not unpack; nothing of it is kept.
	CodeUnsafeArchive = "INSTALL_UNSAFE_ARCHIVE"
	// CodeFailed: the client ran and failed, or did not produce the
	// server's command; the message names its log.
	CodeFailed = "INSTALL_FAILED"
)

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
