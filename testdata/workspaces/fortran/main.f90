!> Prints the scaled areas of two shapes.
program main
  use shapes, only: circle, square
  use measure, only: scaled_area
  implicit none
  type(circle) :: c
  type(square) :: s

  c%radius = 2.0
  s%side = 3.0
  print *, scaled_area(c, 2.0)
  print *, scaled_area(s, 0.5)
end program main
