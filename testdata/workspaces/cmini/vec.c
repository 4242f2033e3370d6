#include "vec.h"

struct vec vec_add(struct vec a, struct vec b) {
    struct vec sum = {a.x + b.x, a.y + b.y};
    return sum;
}

double vec_dot(struct vec a, struct vec b) {
    return a.x * b.x + a.y * b.y;
}
