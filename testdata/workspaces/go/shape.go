// Package shapes models flat geometric figures.
package shapes

import "fmt"

// Shape is a closed two-dimensional figure.
type Shape interface {
	// Area returns the area enclosed by the shape.
	Area() float64
	// Perimeter returns the length of the shape's boundary.
	Perimeter() float64
}

// Describe returns a one-line, human-readable summary of s.
func Describe(s Shape) string {
	return fmt.Sprintf("%T area=%.2f perimeter=%.2f", s, s.Area(), s.Perimeter())
}

// TotalArea returns the sum of the areas of all shapes.
func TotalArea(all []Shape) float64 {
	total := 0.0
	for _, s := range all {
		total += s.Area()
	}
	return total
}
