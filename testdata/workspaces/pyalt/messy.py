"""Formatted by hand, badly: the format row's file."""
def scale( value:float,factor:float )->float:
    return value*factor
