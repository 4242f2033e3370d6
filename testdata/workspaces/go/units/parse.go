// Package units converts lengths written with a unit suffix.
package units

import (
	"fmt"
	"strconv"
	"strings"
)

var perMetre = map[string]float64{"mm": 1000, "cm": 100, "m": 1}

// Parse converts a length such as "30cm" or "2m" into metres.
func Parse(length string) (float64, error) {
	for _, suffix := range []string{"mm", "cm", "m"} {
		if num, ok := strings.CutSuffix(length, suffix); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return 0, fmt.Errorf("units: %q: %w", length, err)
			}
			return v / perMetre[suffix], nil
		}
	}
	return 0, fmt.Errorf("units: %q has no unit", length)
}
