//go:build !linux

package residency

import "errors"

// DropFilePages does nothing outside Linux.
func DropFilePages() {}

// Code is not moved outside Linux.
type Code struct{}

// Supported reports whether this platform can move code into a file.
const Supported = false

// Mappings are not listed outside Linux.
type Mappings map[uintptr]uintptr

// AnonExecMappings lists nothing outside Linux.
func AnonExecMappings() Mappings { return nil }

// MoveNewCode moves nothing outside Linux.
func MoveNewCode(dir string, before Mappings) (*Code, error) {
	return nil, errors.New("residency: code is moved into files on Linux only")
}

// Drop does nothing outside Linux.
func (c *Code) Drop() {}

// Len is 0 outside Linux.
func (c *Code) Len() int { return 0 }

// ResidentBytes is 0 outside Linux.
func (c *Code) ResidentBytes() int { return 0 }

// InMemoryFS is not told outside Linux.
func InMemoryFS(dir string) bool { return false }

// DropEmbedded does nothing outside Linux.
func DropEmbedded(b []byte) {}
