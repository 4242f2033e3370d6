#include "path.h"

struct vec path_end(struct vec start, const struct vec *steps, int n) {
    struct vec at = start;
    for (int i = 0; i < n; i++) {
        at = vec_add(at, steps[i]);
    }
    return at;
}
