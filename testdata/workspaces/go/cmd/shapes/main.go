// Command shapes prints a small report about a few shapes.
package main

import (
	"fmt"
	"log"

	sh "example.com/shapes"
	"example.com/shapes/geom"
	"example.com/shapes/units"
)

func main() {
	side, err := units.Parse("30cm")
	if err != nil {
		log.Fatal(err)
	}
	c, err := geom.Parse("circle 2")
	if err != nil {
		log.Fatal(err)
	}
	all := []sh.Shape{c, sh.Rect{Width: side, Height: side}}
	fmt.Println(sh.Describe(c))
	fmt.Println("🚀🚀 total:", sh.TotalArea(all))
	fmt.Print(sh.Report(all))
}
