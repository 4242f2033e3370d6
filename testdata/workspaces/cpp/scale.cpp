// Formatted by hand, badly: the format row's file.
namespace shapes {
double   scale( double value,double factor ){return value*factor;}
}
