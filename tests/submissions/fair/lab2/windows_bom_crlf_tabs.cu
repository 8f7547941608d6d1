/*
 * Fair (lab 2): the reference as Visual Studio saves it on Windows: a UTF-8
 * byte-order mark, CRLF line ends, tab indentation, and a UTF-8 comment
 * (Größe, Ü, é). A [32][32] tile, 32 x 8 threads, bounds tests in both
 * phases: the reference's kernel, so its speed (0.611 of copy on the H100,
 * 0.456 on the H200; lab 2 is full from 0.35).
 * Today the build's #line line moves the byte-order mark off the start of
 * the file and nvcc stops ("does not compile", issue 27).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

// Kachelgröße 32 x 32, 32 x 8 Threads (Übung 2, café-Version)
enum { TILE = 32, BLOCK_ROWS = 8 };

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
	__shared__ float tile[TILE][TILE];

	int c = blockIdx.x * TILE + threadIdx.x;
	int r = blockIdx.y * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += BLOCK_ROWS)
		if (r + j < rows && c < cols)
			tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];

	__syncthreads();

	int out_c = blockIdx.y * TILE + threadIdx.x;
	int out_r = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += BLOCK_ROWS)
		if (out_r + j < cols && out_c < rows)
			out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
	dim3 block(TILE, BLOCK_ROWS);
	dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
	LAUNCH(transpose_tiled, grid, block)(in, out, rows, cols);
}
