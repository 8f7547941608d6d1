/*
 * probe.cu — is there a usable GPU, and which? Prints one line describing it
 * (and writes it as JSON with --json FILE), or one line naming the problem
 * and exits 2. ./grade runs it before anything touches the GPU.
 */
#include "device.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *json_path = argc == 3 && !strcmp(argv[1], "--json") ? argv[2] : NULL;
    tl_device_info dev;
    char line[512];
    if (tl_device_open(&dev, line, sizeof line) != 0) {
        fprintf(stderr, "%s\n", line);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_device_describe(&dev, line, sizeof line);
    printf("%s\n", line);
    if (json_path) {
        FILE *f = fopen(json_path, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", json_path);
            return TL_EXIT_CANNOT_RUN;
        }
        tl_json_writer w;
        tl_jw_init(&w, f);
        tl_device_write_json(&dev, &w, NULL);
        fclose(f);
    }
    return TL_EXIT_OK;
}
