#pragma once

namespace shapes {

// A plane figure that knows its area and its name.
class Shape {
public:
    virtual ~Shape() = default;
    // Returns the area of the shape.
    virtual double area() const = 0;
    virtual const char *name() const = 0;
};

// Returns the area of a shape scaled by factor.
double scaledArea(const Shape &shape, double factor);

// Returns the sum of the areas of the first n shapes of all.
double totalArea(const Shape *const *all, int n);

} // namespace shapes
