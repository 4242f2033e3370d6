!> The fixture's one deliberate problem: a variable declared twice.
subroutine twice()
  implicit none
  integer :: n
  real :: n
end subroutine twice
