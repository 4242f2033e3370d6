#include "vec.h"

/* The fixture's one deliberate problem: struct vec has no z. */
double depth(struct vec v) { return v.z; }
