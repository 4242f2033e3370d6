#include <stdio.h>

#include "path.h"
#include "vec.h"

int main(void) {
    struct vec start = {0, 0};
    struct vec steps[] = {{1, 2}, {3, 4}};
    struct vec end = path_end(start, steps, 2);
    double squared = vec_dot(end, end);
    printf("end (%.1f, %.1f), squared length %.1f\n", end.x, end.y, squared);
    return 0;
}
