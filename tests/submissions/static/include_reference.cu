/* Attack: the reference solution pulled in by a relative #include; inspect must say "includes: solutions/lab3-padding/transpose.cu:". */
#include "../../../solutions/lab3-padding/transpose.cu"
