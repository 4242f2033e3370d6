#include <stdio.h>

#include "report.h"

void report(FILE *out, const shape *all, size_t n) {
    char line[128];
    for (size_t i = 0; i < n; i++) {
        shape_describe(&all[i], line, sizeof line);
        fprintf(out, "%s\n", line);
    }
    fprintf(out, "total area=%.2f\n", total_area(all, n));
}
