! Formatted by hand, badly: the format row's file.
subroutine   scale( value,factor )
real::value,factor
value=value*factor
end subroutine
