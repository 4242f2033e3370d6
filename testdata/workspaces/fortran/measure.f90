!> Measures over shapes.
module measure
  use shapes, only: shape
  implicit none
  private
  public :: scaled_area

contains

  !> Returns the area of a shape scaled by factor.
  real function scaled_area(s, factor)
    class(shape), intent(in) :: s
    real, intent(in) :: factor
    scaled_area = s%area() * factor
  end function scaled_area

end module measure
