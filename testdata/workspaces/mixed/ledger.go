// Package mixed is the Go part of a workspace with three languages.
package mixed

// Ledger is the Go ledger.
type Ledger struct {
	Entries []int
}

// TallyGoLedger sums a ledger's entries.
func TallyGoLedger(l Ledger) int {
	total := 0
	for _, e := range l.Entries {
		total += e
	}
	return total
}
