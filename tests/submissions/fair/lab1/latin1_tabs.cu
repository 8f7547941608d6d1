/*
 * Fair (lab 1): a file written in a Latin-1 (ISO-8859-1) editor, indented
 * with tabs: its comments hold bytes 0xE9, 0xFC, 0xDF, 0xB0 (not UTF-8),
 * as a German or French student's comments in an older editor come out.
 * nvcc takes any bytes in comments. The kernel is the reference's (32 x 8
 * threads, one element each), 2D grid over any shape.
 * Full marks: the reference's accesses and speed (0.158 of copy on the
 * H100; lab 1 is full from 0.10).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

/* Blockgröße: 32 x 8 Threads, x läuft entlang der Spalten (coalesced). */
enum { BLOCK_X = 32, BLOCK_Y = 8 };

/* Transposée naïve: un thread par élément, rotation de 90° des indices. */
__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;	/* Spalte */
	int r = blockIdx.y * blockDim.y + threadIdx.y;	/* Zeile */
	if (r < rows && c < cols)	/* Randblöcke: nur gültige Elemente */
		out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
	dim3 block(BLOCK_X, BLOCK_Y);
	dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));	/* aufrunden: « partielle » Blöcke */
	LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}
