/* report.h - plain-text reports about shapes. */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "shape.h"

/* Describes every shape on its own line and ends with the total area. */
void report(FILE *out, const shape *all, size_t n);

#endif /* REPORT_H */
