/* measures.c: the documentation of the named functionals of a node
 * (measures.h); their evaluation is core/measure_tmpl.c. */
#include "measures.h"

#include <stddef.h>

const vi_measure_doc vi_measure_docs[] = {
    {"energy", VI_MK_ENERGY, VI_MR_CONSTANT,
     "total energy: 1/2 p'M(q)^-1 p + V(q) (mechanical), H(q) (degenerate), <mu, xi> - "
     "l(g, xi) (Lie group); constant along the exact flow unless an affine nonholonomic "
     "constraint does work"},
    {"alpha_defect", VI_MK_ALPHA_DEFECT, VI_MR_ZERO,
     "|p - alpha(q)|_inf, the discrete constraint defect of a degenerate Lagrangian "
     "(tyranowski2014 §4)"},
    {"g_norm", VI_MK_G_NORM, VI_MR_ZERO, "|g(q)|_inf, the holonomic constraints"},
    {"gv_norm", VI_MK_GV_NORM, VI_MR_ZERO,
     "|G(q) M^-1 p|_inf, the hidden (velocity) constraint of the holonomic ones"},
    {"gvv_norm", VI_MK_GVV_NORM, VI_MR_ZERO,
     "|G(q) v|_inf with the method's own velocity v (betsch-ggl's VI-A and VI-B enforce "
     "it, not G M^-1 p); v = M^-1 p for a method without one, where it equals gv_norm"},
    {"energy_v", VI_MK_ENERGY_V, VI_MR_CONSTANT,
     "p.v - 1/2 v'Mv + V(q) with the method's own velocity v (betsch-ggl (89), the E its "
     "figures plot); equals energy when v = M^-1 p"},
    {"kinetic", VI_MK_KINETIC, VI_MR_FREE,
     "1/2 p'M(q)^-1 p, the kinetic energy T of the node's momenta (betsch-ggl Fig 7); "
     "mechanical form"},
    {"potential", VI_MK_POTENTIAL, VI_MR_FREE,
     "V(q), the potential energy (betsch-ggl Fig 7); energy = kinetic + potential"},
    {"kinetic_v", VI_MK_KINETIC_V, VI_MR_FREE,
     "1/2 v'M(q) v with the method's own velocity v (metis's T, which the paper's Fig 7 "
     "draws for VI-S); equals kinetic when v = M^-1 p"},
    {"g<k>", VI_MK_G, VI_MR_ZERO,
     "g_k(q), k = 1..m, each holonomic constraint (g1..gm; by name, not a run column)"},
    {"gv<k>", VI_MK_GV, VI_MR_ZERO,
     "(G(q) M^-1 p)_k, k = 1..m, each hidden (velocity) constraint (betsch-ggl Fig 20: "
     "gv1..gvm; by name, not a run column)"},
    {"gvv<k>", VI_MK_GVV, VI_MR_ZERO,
     "(G(q) v)_k, k = 1..m, with the method's own velocity v (v = M^-1 p for a method "
     "without one, where it equals gv<k>; by name, not a run column)"},
    {"phi_norm", VI_MK_PHI_NORM, VI_MR_ZERO,
     "|A(q) v + a(q)|_inf, the nonholonomic constraints"},
    {"group_defect", VI_MK_GROUP_DEFECT, VI_MR_ZERO,
     "the distance of a group element stored in an embedding from its group"},
    {"newton_iters", VI_MK_NEWTON, VI_MR_FREE,
     "the Newton iterations of the step that produced the node (a trace only: the run "
     "knows it, the node does not)"},
    {NULL, 0, 0, NULL}};
