#pragma once

#include "shape.hpp"

namespace shapes {

// A circle given by its radius.
class Circle final : public Shape {
public:
    explicit Circle(double radius) : radius_(radius) {}
    double area() const override;
    const char *name() const override { return "circle"; }

private:
    double radius_;
};

} // namespace shapes
