// Package geom reads shapes from short textual specifications.
package geom

import (
	"fmt"
	"strconv"
	"strings"

	"example.com/shapes"
)

// Parse reads a shape specification such as "circle 2" or "rect 3 4".
func Parse(spec string) (shapes.Shape, error) {
	fields := strings.Fields(spec)
	if len(fields) == 0 {
		return nil, fmt.Errorf("geom: empty shape specification")
	}
	nums := make([]float64, 0, len(fields)-1)
	for _, f := range fields[1:] {
		n, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("geom: %q: %w", spec, err)
		}
		nums = append(nums, n)
	}
	switch {
	case fields[0] == "circle" && len(nums) == 1:
		return shapes.Circle{Radius: nums[0]}, nil
	case fields[0] == "rect" && len(nums) == 2:
		return shapes.Rect{Width: nums[0], Height: nums[1]}, nil
	}
	return nil, fmt.Errorf("geom: cannot parse %q", spec)
}
