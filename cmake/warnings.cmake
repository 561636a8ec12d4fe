# One place for the warning policy: everything on, and every warning is an error.
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
                    -Wcast-align -Woverloaded-virtual -Wconversion
                    -Wdouble-promotion -Wformat=2 -Werror)
