/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkpvh OUT: write the default small PVH kernel image (image.h) to OUT,
 * for tests that need a kernel file (tools/tests/xl: xl create).
 */
#include <stdio.h>
#include <stdlib.h>

#include "image.h"

int main(int argc, char **argv)
{
    static uint8_t buf[64 * 1024];
    struct image_opts o;
    size_t size;
    FILE *f;

    if ( argc != 2 )
    {
        fprintf(stderr, "usage: mkpvh OUT\n");
        return 2;
    }
    image_default_opts(&o);
    size = image_build(buf, sizeof(buf), &o);
    f = fopen(argv[1], "wb");
    if ( !f || fwrite(buf, 1, size, f) != size || fclose(f) )
    {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
