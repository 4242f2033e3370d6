<?php
// Formatted by hand, badly: the format row's file.
function scale( float $value,float $factor ):float{return $value*$factor;}
