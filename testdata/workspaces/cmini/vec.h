#ifndef VEC_H
#define VEC_H

/* A point or a direction in the plane. */
struct vec {
    double x;
    double y;
};

/* Returns the sum of a and b. */
struct vec vec_add(struct vec a, struct vec b);

/* Returns the dot product of a and b: the squared length when a == b. */
double vec_dot(struct vec a, struct vec b);

#endif
