/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pattern: the Debian domU's pattern writer (a static program in its
 * initramfs, /bin/pattern).  It keeps a seeded pattern over a given
 * amount of memory and verifies it: each round checks every page against
 * what the previous round wrote there, then writes the page again with
 * the next round's words, which depend on the seed, the page and the
 * round.  A page that does not hold what was written is counted and
 * reported; nothing is ever silently lost.
 *
 *   pattern [-m MIB] [-s SEED] [-r ROUNDS] [-w]
 *
 *   -m  memory to keep, in MiB (default 16)
 *   -s  the seed (default 1)
 *   -r  rounds, 0 for until SIGTERM or SIGINT (default 0)
 *   -w  for dom0 to check its log-dirty bitmaps against: lock the memory
 *       (mlockall), print the guest-physical frames it is in (from
 *       /proc/self/pagemap: a PVH domU's pfns are its gfns) as "pfn A-B"
 *       lines in hex between "pattern: pfns" and "pattern: pfns end",
 *       then run each round only when sent SIGUSR1, printing
 *       "pattern: round R written" after it
 *
 * Prints "pattern: N MiB, seed S, started" once, then at the end
 * "pattern: R rounds, P pages verified, E errors" (also after SIGTERM);
 * exits 0 only with no error.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE_WORDS (4096 / sizeof(uint64_t))

static volatile sig_atomic_t stop, go;

static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        go = 1;
    else
        stop = 1;
}

/*
 * -w: the frames of mem's pages, as inclusive ranges in page order; 0 if
 * all were found present with a frame (pagemap gives frames to root only).
 */
static int print_pfns(const uint64_t *mem, unsigned long pages)
{
    uint64_t first = 0, last = 0, e;
    bool open_range = false;
    int fd = open("/proc/self/pagemap", O_RDONLY);

    if (fd < 0) {
        perror("pattern: /proc/self/pagemap");
        return 1;
    }
    printf("pattern: pfns\n");
    for (unsigned long p = 0; p < pages; p++) {
        off_t off = (off_t)(((uintptr_t)mem >> 12) + p) * 8;
        uint64_t pfn;

        if (pread(fd, &e, sizeof(e), off) != sizeof(e) || !(e >> 63) ||
            !(pfn = e & ((1ULL << 55) - 1))) {
            fprintf(stderr, "pattern: page %lu: no frame in pagemap (%#llx)\n", p,
                    (unsigned long long)e);
            close(fd);
            return 1;
        }
        if (open_range && pfn == last + 1) {
            last = pfn;
            continue;
        }
        if (open_range)
            printf("pfn %#llx-%#llx\n", (unsigned long long)first, (unsigned long long)last);
        first = last = pfn;
        open_range = true;
    }
    if (open_range)
        printf("pfn %#llx-%#llx\n", (unsigned long long)first, (unsigned long long)last);
    printf("pattern: pfns end\n");
    fflush(stdout);
    close(fd);
    return 0;
}

/* The word at index i of page p in round r (splitmix64 of the three). */
static uint64_t word(uint64_t seed, uint64_t p, uint64_t r, uint64_t i)
{
    uint64_t z = seed ^ (p << 20) ^ (r << 44) ^ i;

    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static unsigned long number(const char *s, const char *what)
{
    char *end;
    unsigned long v = strtoul(s, &end, 0);

    if (!*s || *end) {
        fprintf(stderr, "pattern: %s must be a number, not '%s'\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    unsigned long mib = 16, rounds = 0, seed = 1, pages, r, errors = 0, verified = 0;
    bool wait_go = false;
    struct sigaction sa;
    uint64_t *mem;
    int opt;

    while ((opt = getopt(argc, argv, "m:s:r:w")) != -1) {
        switch (opt) {
        case 'm': mib = number(optarg, "-m"); break;
        case 's': seed = number(optarg, "-s"); break;
        case 'r': rounds = number(optarg, "-r"); break;
        case 'w': wait_go = true; break;
        default:
            fprintf(stderr, "usage: pattern [-m MIB] [-s SEED] [-r ROUNDS] [-w]\n");
            return 2;
        }
    }
    if (!mib || mib > 4096) {
        fprintf(stderr, "pattern: -m takes 1 to 4096 MiB, not %lu\n", mib);
        return 2;
    }
    pages = mib * 256;
    mem = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (mem == MAP_FAILED) {
        perror("pattern: mmap");
        return 1;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);

    printf("pattern: %lu MiB, seed %lu, started\n", mib, seed);
    fflush(stdout);
    for (unsigned long p = 0; p < pages; p++)
        for (unsigned long i = 0; i < PAGE_WORDS; i++)
            mem[p * PAGE_WORDS + i] = word(seed, p, 0, i);
    if (wait_go) {
        if (mlockall(MCL_CURRENT)) {
            perror("pattern: mlockall");
            return 1;
        }
        if (print_pfns(mem, pages))
            return 1;
    }
    for (r = 1; !stop && (!rounds || r <= rounds); r++) {
        if (wait_go) {
            sigset_t none;

            sigemptyset(&none);
            while (!go && !stop)
                sigsuspend(&none);
            go = 0;
            if (stop)
                break;
        }
        for (unsigned long p = 0; p < pages; p++) {
            uint64_t *pg = mem + p * PAGE_WORDS;
            unsigned long bad = 0;

            for (unsigned long i = 0; i < PAGE_WORDS; i++) {
                if (pg[i] != word(seed, p, r - 1, i))
                    bad++;
                pg[i] = word(seed, p, r, i);
            }
            verified++;
            if (bad) {
                if (errors < 10)
                    printf("pattern: round %lu, page %lu: %lu words wrong\n", r, p, bad);
                errors++;
            }
        }
        if (wait_go) {
            printf("pattern: round %lu written\n", r);
            fflush(stdout);
        }
    }
    printf("pattern: %lu rounds, %lu pages verified, %lu errors\n", r - 1, verified, errors);
    return errors ? 1 : 0;
}
