#include <stdlib.h>
#include <string.h>

#include "units.h"

/* Reads the number in front of the unit suffix; stores where the suffix starts in *rest. */
static double parse(const char *text, const char **rest) {
    char *end;
    double v = strtod(text, &end);
    *rest = end;
    return v;
}

double units_to_metres(const char *length) {
    const char *unit;
    double v = parse(length, &unit);
    if (strcmp(unit, "mm") == 0) {
        return v / 1000;
    }
    if (strcmp(unit, "cm") == 0) {
        return v / 100;
    }
    if (strcmp(unit, "m") == 0) {
        return v;
    }
    return -1;
}
