/* units.h - lengths written with a unit suffix. */
#ifndef UNITS_H
#define UNITS_H

/* Converts a length such as "30cm" or "2m" into metres; returns a negative value on error. */
double units_to_metres(const char *length);

#endif /* UNITS_H */
