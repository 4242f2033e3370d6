/* shape.h - flat geometric figures with a hand-written vtable. */
#ifndef SHAPE_H
#define SHAPE_H

#include <stddef.h>

struct shape;

/* The operations every shape implements: a "vtable" of function pointers. */
typedef struct shape_vtable {
    /* Human-readable kind, e.g. "circle". */
    const char *name;
    /* Returns the area enclosed by the shape. */
    double (*area)(const struct shape *self);
    /* Returns the length of the shape's boundary. */
    double (*perimeter)(const struct shape *self);
} shape_vtable;

/* A shape instance: its vtable plus up to two dimensions. */
typedef struct shape {
    const shape_vtable *vt;
    double a;
    double b;
} shape;

/* Implementations, one per file. */
extern const shape_vtable circle_vtable;
extern const shape_vtable rect_vtable;

/* Makes a circle of radius r. */
shape circle_make(double r);
/* Makes a w x h rectangle. */
shape rect_make(double w, double h);

/**
 * Writes a one-line, human-readable summary of s into buf (at most len bytes).
 * Returns the number of characters that snprintf would have written.
 */
int shape_describe(const shape *s, char *buf, size_t len);

/** Returns the sum of the areas of the n shapes in all. */
double total_area(const shape *all, size_t n);

/* Alias kept for callers written against the old name. */
#define shape_summary shape_describe

/* A drawing surface, opaque to its users: the struct tag and its typedef
 * are two symbols of one name and kind on one line. */
typedef struct canvas canvas;
/* Draws s on c; returns 0 on success. */
int shape_draw(canvas *c, const shape *s);

#endif /* SHAPE_H */
