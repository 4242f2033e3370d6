!> Plane figures and their areas.
module shapes
  implicit none
  private
  public :: shape, circle, square

  !> A closed plane figure.
  type, abstract :: shape
  contains
    procedure(area_of), deferred :: area
  end type shape

  abstract interface
    !> Returns the area enclosed by the shape.
    pure real function area_of(self)
      import :: shape
      class(shape), intent(in) :: self
    end function area_of
  end interface

  !> A circle given by its radius.
  type, extends(shape) :: circle
    real :: radius = 1.0
  contains
    procedure :: area => circle_area
  end type circle

  !> A square given by its side.
  type, extends(shape) :: square
    real :: side = 1.0
  contains
    procedure :: area => square_area
  end type square

contains

  pure real function circle_area(self)
    class(circle), intent(in) :: self
    circle_area = 3.14159 * self%radius**2
  end function circle_area

  pure real function square_area(self)
    class(square), intent(in) :: self
    square_area = self%side**2
  end function square_area

end module shapes
