package core

// Edit distances for "did you mean" suggestions: config keys, operation
// names, symbol names of a target that was not found.

// editDistance is the Levenshtein distance between two short names, by
// code point; names longer than 64 bytes are never close (99), which
// bounds the work an untrusted input can cause.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	return runeEditDistance([]rune(a), []rune(b))
}

// runeEditDistance is the Levenshtein distance between a and b, by code
// point. Callers bound the lengths.
func runeEditDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
