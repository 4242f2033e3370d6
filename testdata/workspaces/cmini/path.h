#ifndef PATH_H
#define PATH_H

#include "vec.h"

/* Returns the end point of a walk of n steps from start. */
struct vec path_end(struct vec start, const struct vec *steps, int n);

#endif
