#include <stdio.h>

#include "shape.h"

int shape_describe(const shape *s, char *buf, size_t len) {
    return snprintf(buf, len, "%s area=%.2f perimeter=%.2f", s->vt->name,
                    s->vt->area(s), s->vt->perimeter(s));
}

double total_area(const shape *all, size_t n) {
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        total += all[i].vt->area(&all[i]);
    }
    return total;
}
