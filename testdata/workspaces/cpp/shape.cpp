#include "shape.hpp"

namespace shapes {

double scaledArea(const Shape &shape, double factor) {
    return shape.area() * factor;
}

double totalArea(const Shape *const *all, int n) {
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        sum += all[i]->area();
    }
    return sum;
}

} // namespace shapes
