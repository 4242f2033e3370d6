# Turns on the compiler warnings the shapes targets build with.
function(shapes_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
endfunction()
