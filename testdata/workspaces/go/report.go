package shapes

import (
	"fmt"
	"strings"
)

// Report describes every shape on its own line and ends with the total area.
func Report(all []Shape) string {
	var b strings.Builder
	for _, s := range all {
		b.WriteString(Describe(s))
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "total area=%.2f\n", TotalArea(all))
	return b.String()
}
