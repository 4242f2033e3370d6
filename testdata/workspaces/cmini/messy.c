/* Formatted by hand, badly: the format row's file. */
int   twice( int n ){return n*2;}
