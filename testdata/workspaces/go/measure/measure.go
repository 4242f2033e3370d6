// Package measure sizes things: two types with an Area method and a
// function named Area in one file, and a recursive helper called through
// two levels (the code tools' fixture).
package measure

// Square is a square of the given side.
type Square struct {
	Side float64
}

// Area returns the square's area.
func (s Square) Area() float64 {
	return s.Side * s.Side
}

// Disk is a filled circle of the given radius.
type Disk struct {
	Radius float64
}

// Area returns the disk's area.
func (d Disk) Area() float64 {
	return 3.14159 * d.Radius * d.Radius
}

// Area returns the area of a width × height rectangle.
func Area(width, height float64) float64 {
	return width * height
}

// Depth returns how many times n can be halved before it reaches 1.
func Depth(n int) int {
	if n <= 1 {
		return 0
	}
	return 1 + Depth(n/2)
}

// Levels returns the sum of the depths of all sizes.
func Levels(sizes []int) int {
	total := 0
	for _, n := range sizes {
		total += Depth(n)
	}
	return total
}

// Summary is the area of a rectangle as wide as the sizes' levels and half as high.
func Summary(sizes []int) float64 {
	width := float64(Levels(sizes))
	return Area(width, width/2)
}
