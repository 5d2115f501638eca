/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Building PVH domains from boot modules (Xen's dom0 and "dom0less" idea).
 *
 * Each module becomes a domain, numbered in order from 0; domain 0 is the
 * control domain.  A module's command line is
 * `[vcpus=<n>] [mem=<MiB>] [name=<str>] [-- <guest cmdline>]`.  A module
 * whose command line starts with `initrd` is not a domain: it is handed to
 * the domain before it as its start-info module (Linux's initrd, or an image
 * for a control domain to build a guest from), with what follows `--` as
 * the module's command line.
 * The module is an ELF32 or ELF64 x86 kernel with Xen's PVH entry note
 * (XEN_ELFNOTE_PHYS32_ENTRY), checked whole by libelf (xen/libelf.h, the
 * parser libxenguest shares) before anything is copied.  Its PT_LOAD
 * segments go to their physical addresses in guest RAM [1 MiB, mem - 4 KiB);
 * the last page of RAM holds the hvm_start_info, the memory map and the
 * command line.  vCPU 0 starts at the PVH entry in flat 32-bit protected
 * mode with EBX pointing at the start info; the other vCPUs wait for
 * VCPUOP_initialise / VCPUOP_up.
 */
#include <xen/ctype.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/libelf.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <public/hvm/hvm_vcpu.h>
#include <public/hvm/start_info.h>
#include <public/xen.h>
#include <asm/hvm/acpi.h>
#include <asm/hvm/hvm.h>
#include <asm/p2m.h>
#include <asm/processor.h>
#include <asm/setup.h>

#define DEFAULT_MEM_MB      8
#define MAX_VCPUS           8
#define MAX_MEM_MB          2048
#define LOW_RAM_END         0xa0000     /* legacy VGA/BIOS hole above */
#define HIGH_RAM_START      0x100000

struct dom_opts {
    bool initrd;                /* a module for the previous domain */
    unsigned int vcpus;
    unsigned long mem_mb;
    char name[32];
    const char *cmdline;
};

/* Split "opts -- guest cmdline"; complain about (and ignore) bad options. */
static void parse_module_cmdline(unsigned int idx, const char *s, struct dom_opts *o)
{
    o->initrd = false;
    o->vcpus = 1;
    o->mem_mb = DEFAULT_MEM_MB;
    snprintf(o->name, sizeof(o->name), "d%u", idx);
    o->cmdline = "";

    while ( *s )
    {
        const char *tok = s, *end, *val;
        size_t len;

        while ( isspace(*tok) )
            tok++;
        if ( !*tok )
            break;
        for ( end = tok; *end && !isspace(*end); end++ )
            ;
        len = end - tok;
        s = end;

        if ( len == 2 && !strncmp(tok, "--", 2) )
        {
            while ( isspace(*s) )
                s++;
            o->cmdline = s;
            break;
        }
        if ( tok[0] == '/' )
            continue;               /* a boot loader that passes the path */
        if ( len == 6 && !strncmp(tok, "initrd", 6) )
        {
            o->initrd = true;
            continue;
        }

        val = memchr(tok, '=', len);
        if ( val && !strncmp(tok, "vcpus=", 6) )
        {
            const char *e;
            unsigned long n = simple_strtoul(val + 1, &e, 0);

            if ( e == end && n >= 1 && n <= MAX_VCPUS )
                o->vcpus = n;
            else
                printk(XENLOG_WARNING "module %u: bad vcpus= (1-%u), using %u\n",
                       idx, MAX_VCPUS, o->vcpus);
        }
        else if ( val && !strncmp(tok, "mem=", 4) )
        {
            const char *e;
            unsigned long n = simple_strtoul(val + 1, &e, 0);

            if ( e == end && n >= 2 && n <= MAX_MEM_MB )
                o->mem_mb = n;
            else
                printk(XENLOG_WARNING "module %u: bad mem= (2-%u MiB), using %lu\n",
                       idx, MAX_MEM_MB, o->mem_mb);
        }
        else if ( val && !strncmp(tok, "name=", 5) )
        {
            size_t n = min_t(size_t, end - (val + 1), sizeof(o->name) - 1);

            memcpy(o->name, val + 1, n);
            o->name[n] = '\0';
        }
        else
            printk(XENLOG_WARNING "module %u: unknown option \"%.*s\" ignored\n",
                   idx, (int)len, tok);
    }
}

/* Copy 'len' bytes into guest-physical memory; false if not all RAM. */
static bool copy_to_gpa(struct domain *d, uint64_t gpa, const void *src, size_t len)
{
    const char *s = src;

    while ( len )
    {
        size_t chunk = min_t(size_t, len, PAGE_SIZE - (gpa & ~PAGE_MASK));
        p2m_type_t t;
        char *p = p2m_map_gpa(d, gpa, &t);

        if ( !p )
            return false;
        if ( s )
        {
            memcpy(p, s, chunk);
            s += chunk;
        }
        else
            memset(p, 0, chunk);
        gpa += chunk;
        len -= chunk;
    }
    return true;
}

static int load_segment(void *arg, uint64_t paddr, const void *src,
                        uint64_t filesz, uint64_t memsz)
{
    struct domain *d = arg;

    return !copy_to_gpa(d, paddr, src, filesz) ||
           !copy_to_gpa(d, paddr + filesz, NULL, memsz - filesz) ? -EFAULT : 0;
}

/*
 * Check the whole image with libelf, then load it; returns the PVH entry
 * point, or 0 (logged) with nothing copied if the image is refused.
 */
static uint32_t load_elf(struct domain *d, const struct boot_module *mod,
                         uint64_t limit, uint64_t *image_end)
{
    struct elf_binary elf;
    struct elf_dom_parms parms;

    if ( elf_init(&elf, maddr_to_virt(mod->start), mod->end - mod->start) ||
         elf_parse_binary(&elf) || elf_xen_parse(&elf, &parms, true) ||
         elf_check_load_range(&elf, HIGH_RAM_START, limit) ||
         elf_load_binary(&elf, load_segment, d) )
    {
        printk(XENLOG_ERR "d%u: %s\n", d->domain_id, elf.err);
        return 0;
    }

    printk(XENLOG_INFO "d%u: %s kernel (machine %u), %u loadable segment%s at "
           "%#"PRIx64"-%#"PRIx64"\n", d->domain_id, elf_class_name(&elf),
           elf.machine, elf.nr_load, elf.nr_load == 1 ? "" : "s",
           elf.pstart, elf.pend);
    *image_end = elf.pend;
    return parms.phys_entry;
}

/*
 * The last page of RAM: start info, the memory map, the module list and
 * the module's command line, then the guest's command line.
 */
#define SI_MEMMAP_OFFSET    0x100
#define SI_MODLIST_OFFSET   0x200
#define SI_MODCMD_OFFSET    0x240
#define SI_CMDLINE_OFFSET   0x400

struct boot_extra {
    uint64_t mod_gpa, mod_size;
    const char *mod_cmdline;
};

static uint64_t build_start_info(struct domain *d, const char *cmdline,
                                 const struct boot_extra *x)
{
    uint64_t ram = d->arch.hvm.ram_bytes;
    uint64_t gpa = ram - PAGE_SIZE;
    struct hvm_start_info si;
    struct hvm_memmap_table_entry map[HVM_MAX_MEMMAP] = {
        { .addr = 0, .size = LOW_RAM_END, .type = XEN_HVM_MEMMAP_TYPE_RAM },
        { .addr = LOW_RAM_END, .size = HIGH_RAM_START - LOW_RAM_END,
          .type = XEN_HVM_MEMMAP_TYPE_RESERVED },
        { .addr = HIGH_RAM_START, .size = gpa - HIGH_RAM_START,
          .type = XEN_HVM_MEMMAP_TYPE_RAM },
        { .addr = gpa, .size = PAGE_SIZE, .type = XEN_HVM_MEMMAP_TYPE_RESERVED },
    };
    unsigned int nr_map = 4;
    size_t len = min_t(size_t, strlen(cmdline), PAGE_SIZE - SI_CMDLINE_OFFSET - 1);

    memset(&si, 0, sizeof(si));
    si.magic = XEN_HVM_START_MAGIC_VALUE;
    si.version = 1;
    si.flags = is_control_domain(d) ? (SIF_PRIVILEGED | SIF_INITDOMAIN) : 0;
    si.cmdline_paddr = gpa + SI_CMDLINE_OFFSET;
    si.memmap_paddr = gpa + SI_MEMMAP_OFFSET;
    /* The control domain's ACPI tables take a page of its map (hvm/dom0_acpi.c). */
    if ( is_control_domain(d) )
        si.rsdp_paddr = pvh_setup_acpi(d, map, &nr_map, ARRAY_SIZE(map));
    hvm_set_memory_map(d, map, nr_map);     /* for XENMEM_memory_map */
    si.memmap_entries = nr_map;

    if ( x->mod_size )
    {
        struct hvm_modlist_entry m = {
            .paddr = x->mod_gpa,
            .size = x->mod_size,
            .cmdline_paddr = gpa + SI_MODCMD_OFFSET,
        };
        size_t mlen = min_t(size_t, strlen(x->mod_cmdline),
                            SI_CMDLINE_OFFSET - SI_MODCMD_OFFSET - 1);

        si.nr_modules = 1;
        si.modlist_paddr = gpa + SI_MODLIST_OFFSET;
        copy_to_gpa(d, gpa + SI_MODLIST_OFFSET, &m, sizeof(m));
        copy_to_gpa(d, gpa + SI_MODCMD_OFFSET, x->mod_cmdline, mlen);
    }

    copy_to_gpa(d, gpa, &si, sizeof(si));
    copy_to_gpa(d, gpa + SI_MEMMAP_OFFSET, map, nr_map * sizeof(*map));
    copy_to_gpa(d, gpa + SI_CMDLINE_OFFSET, cmdline, len);
    d->arch.hvm.start_info_gpa = gpa;
    return gpa;
}

static int construct_pvh_domain(unsigned int idx, const struct boot_module *mod,
                                const struct dom_opts *opts,
                                const struct boot_module *initrd,
                                const char *initrd_cmdline)
{
    struct boot_extra x = { 0, 0, "" };
    const struct dom_opts o = *opts;
    struct vcpu_hvm_context ctx;
    uint64_t image_end = 0;
    struct domain *d;
    uint64_t t0;
    uint32_t entry;
    int rc;

    d = domain_create(idx, o.name, o.vcpus, idx == 0, NULL);
    if ( !d )
    {
        printk(XENLOG_ERR "d%u: cannot create domain\n", idx);
        return -ENOMEM;
    }

    d->arch.hvm.ram_bytes = (uint64_t)o.mem_mb << 20;
    d->max_pages = d->arch.hvm.ram_bytes >> PAGE_SHIFT;
    t0 = rdtsc();
    rc = p2m_populate_ram(d, d->max_pages);
    if ( rc )
    {
        printk(XENLOG_ERR "d%u: cannot allocate %lu MiB of RAM\n", idx, o.mem_mb);
        goto fail;
    }
    /* What building costs grows with the RAM: docs/performance.md reports it. */
    printk(XENLOG_INFO "d%u: %lu MiB of RAM populated in %lu ticks\n",
           idx, o.mem_mb, (unsigned long)(rdtsc() - t0));

    entry = load_elf(d, mod, d->arch.hvm.ram_bytes - PAGE_SIZE, &image_end);
    if ( !entry )
    {
        rc = -EINVAL;
        goto fail;
    }

    if ( initrd )
    {
        /* Below the start-info page, above the kernel. */
        x.mod_size = initrd->end - initrd->start;
        x.mod_gpa = ROUNDDOWN(d->arch.hvm.ram_bytes - PAGE_SIZE - x.mod_size,
                              (uint64_t)PAGE_SIZE);
        x.mod_cmdline = initrd_cmdline;
        if ( x.mod_size > d->arch.hvm.ram_bytes ||
             x.mod_gpa < ROUNDUP(image_end, (uint64_t)PAGE_SIZE) )
        {
            printk(XENLOG_ERR "d%u: module of %lu bytes does not fit in %lu MiB\n",
                   idx, (unsigned long)x.mod_size, o.mem_mb);
            rc = -ENOMEM;
            goto fail;
        }
        copy_to_gpa(d, x.mod_gpa, maddr_to_virt(initrd->start), x.mod_size);
    }

    memset(&ctx, 0, sizeof(ctx));
    ctx.mode = VCPU_HVM_MODE_32B;
    ctx.cpu_regs.x86_32.eip = entry;
    ctx.cpu_regs.x86_32.ebx = build_start_info(d, o.cmdline, &x);
    ctx.cpu_regs.x86_32.cr0 = X86_CR0_PE | X86_CR0_ET;
    ctx.cpu_regs.x86_32.cs_limit = ~0u;
    ctx.cpu_regs.x86_32.ds_limit = ~0u;
    ctx.cpu_regs.x86_32.ss_limit = ~0u;
    ctx.cpu_regs.x86_32.es_limit = ~0u;
    ctx.cpu_regs.x86_32.tr_limit = 0x67;
    ctx.cpu_regs.x86_32.cs_ar = 0xc9b;      /* 32-bit code, present, G */
    ctx.cpu_regs.x86_32.ds_ar = 0xc93;      /* 32-bit data, present, G */
    ctx.cpu_regs.x86_32.ss_ar = 0xc93;
    ctx.cpu_regs.x86_32.es_ar = 0xc93;
    ctx.cpu_regs.x86_32.tr_ar = 0x8b;       /* busy 32-bit TSS */
    rc = hvm_funcs->set_context(d->vcpu[0], &ctx);
    if ( rc )
        goto fail;
    d->vcpu[0]->is_initialised = true;
    d->vcpu[0]->is_up = true;

    printk(XENLOG_INFO "d%u: \"%s\" %s%u vCPU%s, %lu MiB, PVH entry %#x, cmdline \"%s\"\n",
           idx, d->name, is_control_domain(d) ? "control domain, " : "",
           o.vcpus, o.vcpus == 1 ? "" : "s", o.mem_mb, entry, o.cmdline);
    if ( x.mod_size )
        printk(XENLOG_INFO "d%u: module of %lu bytes at %#lx, cmdline \"%s\"\n",
               idx, (unsigned long)x.mod_size, (unsigned long)x.mod_gpa, x.mod_cmdline);
    return 0;

 fail:
    /* The scheduler reaps it, so other modules still get their chance. */
    d->state = DOMSTATE_crashed;
    return rc;
}

void create_boot_domains(const struct boot_info *bi)
{
    unsigned int i, domid = 0;

    if ( !bi->nr_modules )
        printk(XENLOG_WARNING "No boot modules: no domain to run\n");
    for ( i = 0; i < bi->nr_modules; i++ )
    {
        struct dom_opts o, next;
        const char *c = bi->mods[i].cmdline ? bi->mods[i].cmdline : "";

        parse_module_cmdline(domid, c, &o);
        if ( o.initrd )
        {
            printk(XENLOG_WARNING "module %u: an initrd with no domain before it: ignored\n", i);
            continue;
        }
        if ( i + 1 < bi->nr_modules )
        {
            parse_module_cmdline(domid, bi->mods[i + 1].cmdline ?: "", &next);
            if ( next.initrd )
            {
                construct_pvh_domain(domid++, &bi->mods[i], &o, &bi->mods[i + 1],
                                     next.cmdline);
                i++;
                continue;
            }
        }
        construct_pvh_domain(domid++, &bi->mods[i], &o, NULL, NULL);
    }
}
