/* measure.h - sizes: two structs with an area member and a function named area in one
 * file, and a recursive helper called through two levels (the code tools' fixture). */
#ifndef MEASURE_H
#define MEASURE_H

#include <stddef.h>

/* A square of the given side, with its area. */
struct square {
    double side;
    double area;
};

/* A filled circle of the given radius, with its area. */
struct disk {
    double radius;
    double area;
};

/* Returns the area of a width x height rectangle. */
double area(double width, double height);

/* Returns how many times n can be halved before it reaches 1. */
int depth(int n);

/* Returns the sum of the depths of the n sizes. */
int levels(const int *sizes, size_t n);

/* The area of a rectangle as wide as the sizes' levels and half as high. */
double summary(const int *sizes, size_t n);

#endif /* MEASURE_H */
