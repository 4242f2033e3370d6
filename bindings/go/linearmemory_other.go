//go:build !linux

package lspseam

import "github.com/tetratelabs/wazero/experimental"

// linearMemoryAllocator: wazero's default outside Linux (linearmemory.go).
func linearMemoryAllocator(*experimental.LinearMemory) experimental.MemoryAllocator { return nil }
