#include "circle.hpp"

namespace shapes {

double Circle::area() const { return 3.14159265358979 * radius_ * radius_; }

} // namespace shapes
