# Not formatted: cmake-format lowercases the command and spaces the arguments.
SET(SHAPES_VERSION    "1.0")
if(SHAPES_VERSION)
message(STATUS   "shapes ${SHAPES_VERSION}")
endif()
