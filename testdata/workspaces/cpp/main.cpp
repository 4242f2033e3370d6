#include <cstdio>

#include "circle.hpp"
#include "rect.hpp"
#include "shape.hpp"

int main() {
    shapes::Circle c(2);
    shapes::Rect r(3, 4);
    const shapes::Shape *all[] = {&c, &r};
    double scaled = shapes::scaledArea(c, 2);
    std::printf("%s: %.2f\n", c.name(), scaled);
    std::printf("total: %.2f\n", shapes::totalArea(all, 2));
    return 0;
}
