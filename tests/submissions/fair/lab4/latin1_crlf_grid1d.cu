/*
 * Fair (lab 4): the reference saved by an old Windows editor in Windows-1252/
 * Latin-1: CRLF line ends, and comment bytes 0xE9, 0xE8, 0xE0, 0xB7, 0xD7 that are
 * not UTF-8 (French comments: "tuile", "multiplication"). The launch walks a 1D
 * grid: block b computes tile (b / tiles_n, b % tiles_n) of C, a mapping many
 * codes use to keep grids one-dimensional. Otherwise the reference: 32 x 32
 * tiles, zero fill, two barriers.
 * Full marks: the same work per block as the 2D grid (0.175-0.190 of cuBLAS on
 * the H100; full from 0.15); one integer division per block.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32 };   /* tuile 32 × 32, un thread par élément de C */

/* C = A · B : chaque bloc calcule une tuile, itération sur K par pas de TILE. */
__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    const int tiles_n = (N + TILE - 1) / TILE;
    const int tile_m = blockIdx.x / tiles_n, tile_n = blockIdx.x % tiles_n;   /* grille 1D à plat */
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = tile_m * TILE + ty, col = tile_n * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < K; t += TILE) {
        /* zéros hors de la matrice : la boucle interne n'a pas de test */
        As[ty][tx] = row < M && t + tx < K ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < K && col < N ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();   /* tuiles complètes */
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();   /* lecture finie avant le chargement suivant */
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = sum;
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    unsigned blocks = (unsigned)CEIL_DIV(M, TILE) * (unsigned)CEIL_DIV(N, TILE);
    LAUNCH(matmul_tiled, blocks, dim3(TILE, TILE))(A, B, C, M, N, K);
}
