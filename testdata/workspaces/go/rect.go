package shapes

// Rect is an axis-aligned rectangle.
type Rect struct {
	Width, Height float64
}

// Area implements Shape.
func (r Rect) Area() float64 {
	return r.Width * r.Height
}

// Perimeter implements Shape.
func (r Rect) Perimeter() float64 {
	return 2 * (r.Width + r.Height)
}
