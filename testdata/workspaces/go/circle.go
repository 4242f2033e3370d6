package shapes

import "math"

// Circle is a circle of the given radius.
type Circle struct {
	Radius float64
}

// Area implements Shape.
func (c Circle) Area() float64 {
	return math.Pi * c.Radius * c.Radius
}

// Perimeter implements Shape.
func (c Circle) Perimeter() float64 {
	return 2 * math.Pi * c.Radius
}
