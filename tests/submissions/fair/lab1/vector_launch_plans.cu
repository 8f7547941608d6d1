/*
 * Fair (lab 1): the launch builds a std::vector of launch plans (one per band
 * of at most 4096 rows, so no grid's y exceeds what the plan expects) and
 * launches each: host allocation through a C++ container is the sandbox's to
 * allow, not a name the inspector refuses. Each band runs the reference's
 * kernel (32 x 8 threads, one element each) on its rows; a few bands at 8192 x
 * 8192 cost microseconds against a 3 ms transpose: full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#include <vector>

enum { BLOCK_X = 32, BLOCK_Y = 8, BAND_ROWS = 4096 };

struct launch_plan {
    int first_row, band_rows;
    dim3 grid;
};

__global__ void transpose_band(const float *in, float *out, int rows, int cols, int first_row, int band_rows)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < band_rows && c < cols)
        out[(size_t)c * rows + first_row + r] = in[(size_t)(first_row + r) * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    std::vector<launch_plan> plans;
    for (int first = 0; first < rows; first += BAND_ROWS) {
        int band = rows - first < BAND_ROWS ? rows - first : BAND_ROWS;
        plans.push_back({first, band, dim3(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(band, BLOCK_Y))});
    }
    for (const launch_plan &p : plans)
        transpose_band<<<p.grid, dim3(BLOCK_X, BLOCK_Y)>>>(in, out, rows, cols, p.first_row, p.band_rows);
}
