/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The FIFO event channel ABI (common/event_fifo.c): EVTCHNOP_init_control,
 * EVTCHNOP_expand_array, and the teardown EVTCHNOP_reset and domain
 * destruction use.  The port operations are reached through
 * d->evtchn_port_ops (xen/event.h) once init_control has succeeded.
 */
#ifndef __XEN_EVENT_FIFO_H__
#define __XEN_EVENT_FIFO_H__

#include <public/event_channel.h>

struct domain;

#define EVTCHN_FIFO_EVENT_WORDS_PER_PAGE  (PAGE_SIZE / sizeof(event_word_t))
#define EVTCHN_FIFO_MAX_EVENT_ARRAY_PAGES \
    (EVTCHN_FIFO_NR_CHANNELS / EVTCHN_FIFO_EVENT_WORDS_PER_PAGE)

/*
 * Register vCPU init_control->vcpu's control block (gfn, offset) and, the
 * first time, switch the calling domain to FIFO (ports already bound keep
 * their pending state).  Fills in link_bits.  0 or -errno (Xen's: -ENOENT
 * no such vCPU; -EINVAL offset, alignment, a frame that is not the
 * caller's RAM, a vCPU already initialised; -ENOMEM).
 */
int evtchn_fifo_init_control(struct evtchn_init_control *init_control);

/*
 * Add the next page of event words at array_gfn: -EOPNOTSUPP before
 * init_control, -ENOSPC past EVTCHN_FIFO_MAX_EVENT_ARRAY_PAGES, -EINVAL
 * for a frame that is not the caller's RAM.
 */
int evtchn_fifo_expand_array(const struct evtchn_expand_array *expand_array);

/* Drop every guest frame FIFO holds and free its state (no-op on 2-level). */
void evtchn_fifo_destroy(struct domain *d);

#endif /* __XEN_EVENT_FIFO_H__ */
