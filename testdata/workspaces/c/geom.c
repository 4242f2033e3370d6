#include <stdio.h>
#include <string.h>

#include "geom.h"

/* Splits spec into a kind and up to two numbers; returns how many numbers it read. */
static int parse(const char *spec, char kind[16], double nums[2]) {
    int n = sscanf(spec, "%15s %lf %lf", kind, &nums[0], &nums[1]);
    return n < 1 ? -1 : n - 1;
}

int geom_read(const char *spec, shape *out) {
    char kind[16];
    double nums[2];
    int n = parse(spec, kind, nums);
    if (n == 1 && strcmp(kind, "circle") == 0) {
        *out = circle_make(nums[0]);
        return 0;
    }
    if (n == 2 && strcmp(kind, "rect") == 0) {
        *out = rect_make(nums[0], nums[1]);
        return 0;
    }
    return -1;
}
