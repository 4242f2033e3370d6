//go:build !linux

package workspacefs

import (
	"os"
)

// copyMetadata keeps owner, group and extended attributes on Linux only
// so far; elsewhere a replaced file gets its mode bits only (docs/design.md,
// "Edits", says so).
func copyMetadata(dst, src *os.File) error { return nil }
