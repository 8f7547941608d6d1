/* Attack: the launch ends the process before the grader can check anything; inspect must say "calls: exit:". */
#include <stdlib.h>
#include "tilelab.h"

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    (void)in, (void)out;
    if (rows > 0 && cols > 0)
        exit(0);
}
