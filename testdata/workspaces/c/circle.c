#include "shape.h"

static const double PI = 3.14159265358979323846;

/* Area of a circle: pi r^2. */
static double circle_area(const shape *self) { return PI * self->a * self->a; }

/* Perimeter of a circle: 2 pi r. */
static double circle_perimeter(const shape *self) { return 2 * PI * self->a; }

const shape_vtable circle_vtable = {
    .name = "circle",
    .area = circle_area,
    .perimeter = circle_perimeter,
};

shape circle_make(double r) {
    shape s = {.vt = &circle_vtable, .a = r, .b = 0};
    return s;
}
