/* geom.h - reading shapes from short textual specifications. */
#ifndef GEOM_H
#define GEOM_H

#include "shape.h"

/* Reads a specification such as "circle 2" or "rect 3 4" into *out; returns 0 on success. */
int geom_read(const char *spec, shape *out);

#endif /* GEOM_H */
