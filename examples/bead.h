/* bead.h: a mechanical system of the user's own, not in vistudy's
 * registry: a bead on an ellipse under gravity (bead.c). */
#ifndef BEAD_H
#define BEAD_H

#include <vistudy/vistudy.h>

/* The system in double; vistudy's own systems are written once and
 * compiled in both precisions (docs/extending.md), a user's may be
 * written in one. */
extern const vi_system_type_d bead_on_ellipse;

#endif
