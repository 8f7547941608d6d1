/* Judged at run time: the launch ends the process. The worker reports it as the call that ended that request ("called exit (status N)"), which fails as a crash does; inspect must print nothing. */
#include <stdlib.h>
#include "tilelab.h"

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    (void)in, (void)out;
    if (rows > 0 && cols > 0)
        exit(0);
}
