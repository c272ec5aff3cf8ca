/* solve_nokinsol.c: the KINSOL slot of the quad library's nonlinear solver
 * (solve_impl_tmpl.h). Debian's SUNDIALS is built for double only
 * (conventions.md), so in quad the slot holds no functions, only the reason
 * it is refused and what to use instead; vi_solver_opts_from reports it and
 * vi_solver_alloc returns VI_EUNSUPPORTED. The double library has
 * solve_kinsol.c in its place. */
#include "prec.h"
#include "solve_impl_tmpl.h"

const vi_solver_backend VI_X(vi_solver_kinsol) = {
    .unavailable = "the KINSOL backend works in double precision only (Debian's SUNDIALS "
                   "is built for double); use the built-in Newton solver in quad",
};
