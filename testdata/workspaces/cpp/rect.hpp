#pragma once

#include "shape.hpp"

namespace shapes {

// An axis-aligned rectangle.
class Rect final : public Shape {
public:
    Rect(double width, double height) : width_(width), height_(height) {}
    double area() const override { return width_ * height_; }
    const char *name() const override { return "rect"; }

private:
    double width_;
    double height_;
};

} // namespace shapes
