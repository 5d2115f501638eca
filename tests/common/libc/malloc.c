/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * malloc() and friends for the guest test kernels, over a static arena.
 *
 * Every block has a 16-byte header (its size and a tag); free blocks sit
 * in one list sorted by address and are merged with free neighbours, so
 * tests that allocate and free in a loop (a bitmap per round) do not run
 * out.  First fit; one lock for all vCPUs.  An aligned block is carved
 * from a larger one and carries a second, "aligned" header that points
 * back to it.
 *
 * LIBC_HEAP_KB sets the arena size (default 2 MiB of the test kernel's
 * .bss).  A test kernel that needs more defines its own arena, both
 * symbols (they override weak ones here):
 *
 *     uint8_t libc_arena[N] __attribute__((aligned(4096)));
 *     const size_t libc_arena_size = N;
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib.h"

#ifndef LIBC_HEAP_KB
#define LIBC_HEAP_KB 2048
#endif

#define ARENA_SIZE  ((size_t)LIBC_HEAP_KB << 10)
#define ALIGN       16UL

#define TAG_FREE    0x46524545UL        /* "FREE" */
#define TAG_USED    0x55534544UL        /* "USED" */
#define TAG_ALIGNED 0x414c474eUL        /* "ALGN": size is the offset back */

struct header {
    size_t size;        /* whole block, header included (multiple of 16) */
    size_t tag;
};

struct free_block {
    struct header h;
    struct free_block *next;
};

#define MIN_BLOCK   32UL                /* room for struct free_block */

static uint8_t default_arena[ARENA_SIZE] __attribute__((aligned(4096)));
extern uint8_t libc_arena[] __attribute__((weak));
extern const size_t libc_arena_size __attribute__((weak));
static uint8_t *arena;
static size_t arena_size;
static struct free_block *free_list;
static bool initialised;
static size_t in_use;
static volatile bool heap_lock;

static void lock(void)
{
    while ( __atomic_test_and_set(&heap_lock, __ATOMIC_ACQUIRE) )
        asm volatile ( "pause" );
}

static void unlock(void)
{
    __atomic_clear(&heap_lock, __ATOMIC_RELEASE);
}

static void heap_init(void)
{
    if ( libc_arena && &libc_arena_size && libc_arena_size >= MIN_BLOCK )
    {
        arena = libc_arena;
        arena_size = libc_arena_size & ~(ALIGN - 1);
    }
    else
    {
        arena = default_arena;
        arena_size = ARENA_SIZE;
    }
    free_list = (struct free_block *)arena;
    free_list->h.size = arena_size;
    free_list->h.tag = TAG_FREE;
    free_list->next = NULL;
    initialised = true;
}

static noreturn void heap_corrupt(const void *p)
{
    panic("heap: bad pointer or corrupted block at %p\n", p);
}

/* Allocate a block of 'need' bytes (header included), lock held. */
static struct header *take(size_t need)
{
    struct free_block **pp, *b;

    for ( pp = &free_list; (b = *pp) != NULL; pp = &b->next )
    {
        if ( b->h.size < need )
            continue;

        if ( b->h.size - need >= MIN_BLOCK )
        {
            struct free_block *rest = (void *)((uint8_t *)b + need);

            rest->h.size = b->h.size - need;
            rest->h.tag = TAG_FREE;
            rest->next = b->next;
            *pp = rest;
            b->h.size = need;
        }
        else
            *pp = b->next;

        b->h.tag = TAG_USED;
        in_use += b->h.size;
        return &b->h;
    }

    return NULL;
}

/* Return a block to the list, merging with its neighbours; lock held. */
static void give(struct header *h)
{
    struct free_block *b = (void *)h, *prev = NULL, *next = free_list;

    in_use -= h->size;
    while ( next && next < b )
    {
        prev = next;
        next = next->next;
    }

    b->h.tag = TAG_FREE;
    b->next = next;
    if ( next && (uint8_t *)b + b->h.size == (uint8_t *)next )
    {
        b->h.size += next->h.size;
        b->next = next->next;
    }

    if ( prev && (uint8_t *)prev + prev->h.size == (uint8_t *)b )
    {
        prev->h.size += b->h.size;
        prev->next = b->next;
    }
    else if ( prev )
        prev->next = b;
    else
        free_list = b;
}

static size_t block_size(size_t size)
{
    size_t need = ((size + ALIGN - 1) & ~(ALIGN - 1)) + sizeof(struct header);

    return need < MIN_BLOCK ? MIN_BLOCK : need;
}

void *malloc(size_t size)
{
    struct header *h;

    lock();
    if ( !initialised )
        heap_init();
    h = size <= arena_size ? take(block_size(size)) : NULL;
    unlock();

    if ( !h )
    {
        errno = ENOMEM;
        return NULL;
    }

    return h + 1;
}

/* The block a pointer from malloc/aligned_alloc belongs to. */
static struct header *block_of(void *ptr, size_t *usable)
{
    struct header *h = (struct header *)ptr - 1;
    size_t offset = 0;

    if ( !arena || (uint8_t *)ptr < arena || (uint8_t *)ptr >= arena + arena_size )
        heap_corrupt(ptr);

    if ( h->tag == TAG_ALIGNED )
    {
        offset = h->size;
        h = (struct header *)((uint8_t *)ptr - offset) - 1;
    }
    if ( h->tag != TAG_USED )
        heap_corrupt(ptr);

    if ( usable )
        *usable = h->size - sizeof(*h) - offset;
    return h;
}

void free(void *ptr)
{
    struct header *h;

    if ( !ptr )
        return;

    h = block_of(ptr, NULL);
    lock();
    give(h);
    unlock();
}

void *calloc(size_t nmemb, size_t size)
{
    void *p;

    if ( size && nmemb > SIZE_MAX / size )
    {
        errno = ENOMEM;
        return NULL;
    }

    p = malloc(nmemb * size);
    if ( p )
        memset(p, 0, nmemb * size);
    return p;
}

void *realloc(void *ptr, size_t size)
{
    size_t usable;
    void *p;

    if ( !ptr )
        return malloc(size);
    if ( !size )
    {
        free(ptr);
        return NULL;
    }

    block_of(ptr, &usable);
    if ( size <= usable )
        return ptr;

    p = malloc(size);
    if ( !p )
        return NULL;
    memcpy(p, ptr, usable);
    free(ptr);

    return p;
}

void *aligned_alloc(size_t alignment, size_t size)
{
    uint8_t *raw, *p;
    struct header *shadow;

    if ( !alignment || (alignment & (alignment - 1)) )
    {
        errno = EINVAL;
        return NULL;
    }
    if ( alignment <= ALIGN )
        return malloc(size);
    if ( size > SIZE_MAX / 2 )
    {
        errno = ENOMEM;
        return NULL;
    }

    raw = malloc(size + alignment + sizeof(struct header));
    if ( !raw )
        return NULL;
    if ( !((uintptr_t)raw & (alignment - 1)) )
        return raw;

    /* Leave room for the aligned header between raw and p. */
    p = (uint8_t *)(((uintptr_t)raw + sizeof(struct header) + alignment - 1) &
                    ~(uintptr_t)(alignment - 1));
    shadow = (struct header *)p - 1;
    shadow->size = p - raw;
    shadow->tag = TAG_ALIGNED;

    return p;
}

size_t malloc_in_use(void)
{
    return in_use;
}

void abort(void)
{
    panic("abort()\n");
}
