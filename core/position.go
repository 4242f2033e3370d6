package core

// Coordinates.
//
// Two conventions meet in lspseam, and this is the only place that converts
// between them:
//
//   - The model-facing tool speaks one-based lines and one-based columns,
//     the way read tools number lines and editors show cursors. Inputs
//     (ParseToolArgs) and rendered output (Render, Present) use it.
//   - The seam and LSP speak zero-based lines and zero-based columns
//     (Position, Range, Location).
//
// Both count columns in UTF-16 code units, LSP's default and the only
// position encoding lspseam negotiates: a character outside the Basic
// Multilingual Plane (an emoji such as U+1F680) occupies two columns, one
// code point and four UTF-8 bytes. Because both sides already count UTF-16
// units, converting never needs the document text: it is ±1 on each
// component. The shim sends documents verbatim and never re-encodes
// positions.

// maxOneBased is the largest one-based coordinate accepted: its zero-based
// value is still an LSP uinteger (≤ 2^31-1).
const maxOneBased = maxUint31

// toZeroBased converts a validated one-based coordinate (≥ 1).
func toZeroBased(oneBased int64) uint32 { return uint32(oneBased - 1) }

// toOneBased converts a zero-based coordinate for display. uint64 keeps
// 2^32-1+1 from wrapping; LSP bounds inputs well below that anyway.
func toOneBased(zeroBased uint32) uint64 { return uint64(zeroBased) + 1 }
