#include "measure.h"

double area(double width, double height) {
    return width * height;
}

int depth(int n) {
    if (n <= 1) {
        return 0;
    }
    return 1 + depth(n / 2);
}

int levels(const int *sizes, size_t n) {
    int total = 0;
    for (size_t i = 0; i < n; i++) {
        total += depth(sizes[i]);
    }
    return total;
}

double summary(const int *sizes, size_t n) {
    double width = levels(sizes, n);
    return area(width, width / 2);
}
