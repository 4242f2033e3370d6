/* Prints a small report about a few shapes. */
#include <stdio.h>

#include "geom.h"
#include "report.h"
#include "shape.h"
#include "units.h"

int main(void) {
    double side = units_to_metres("30cm");
    shape all[2];
    if (geom_read("circle 2", &all[0]) != 0) {
        return 1;
    }
    all[1] = rect_make(side, side);

    char line[128];
    shape_summary(&all[0], line, sizeof line);
    puts(line);
    printf("🚀🚀 total: %.2f\n", total_area(all, 2));
    report(stdout, all, 2);
    return 0;
}
