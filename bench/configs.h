// configs.h: the representative method configurations benchmarked for each
// method family, keyed by the family's registry name. A family missing from
// this table is still benchmarked, with its default spec "NAME" (bench.cc),
// so a new family shows up in the benchmark JSON without anyone editing
// this file; add its representative configurations here when it lands.
//
// quick marks the configurations of `vistudy-bench --quick` (the CI subset):
// one small and one medium system size per family keep CI short while still
// reaching N >= 24 on the 3D double pendulum, where the KINSOL/Newton ratio
// is judged.
#ifndef VI_BENCH_CONFIGS_H
#define VI_BENCH_CONFIGS_H

namespace vibench {

struct Config {
  const char *family; // vi_method_type name
  const char *spec;   // NAME[:key=value,...]
  bool quick;         // part of the --quick subset
};

// galerkin (wenger2017): s = w = 1..6 with Gauss r = s (the best orders per
// unknown) and Lobatto r = s + 1 for a few degrees (the other quadrature of
// Tables 1-2). N = s n + w m: 3s on the planar pendulum, 8s on the 3D
// double pendulum.
inline constexpr Config kConfigs[] = {
    {"galerkin", "galerkin:s=1,w=1,quadL=gauss,r=1", false},
    {"galerkin", "galerkin:s=2,w=2,quadL=gauss,r=2", true},
    {"galerkin", "galerkin:s=3,w=3,quadL=gauss,r=3", false},
    {"galerkin", "galerkin:s=4,w=4,quadL=gauss,r=4", true},
    {"galerkin", "galerkin:s=5,w=5,quadL=gauss,r=5", false},
    {"galerkin", "galerkin:s=6,w=6,quadL=gauss,r=6", false},
    {"galerkin", "galerkin:s=2,w=2,quadL=lobatto,r=3", false},
    {"galerkin", "galerkin:s=4,w=4,quadL=lobatto,r=5", false},
    {"galerkin", "galerkin:s=6,w=6,quadL=lobatto,r=7", false},
    // vprk (tyranowski2014): the tableaux of the paper's studies; N = s n
    // (n = 2 Lotka-Volterra, 4 Kepler and the vortices).
    {"vprk", "vprk:tableau=gauss,s=1", false},
    {"vprk", "vprk:tableau=gauss,s=2", true},
    {"vprk", "vprk:tableau=gauss,s=3", false},
    {"vprk", "vprk:tableau=gauss,s=4", false},
    {"vprk", "vprk:tableau=radau-iia,s=3", true},
    {"vprk", "vprk:tableau=lobatto-iiia-iiib,s=4", false},
    // ggl and em (betsch-ggl): the paper's five schemes; N = 3n + 2m (ggl),
    // 2n + 2m (EM), 2n + m (EM-G): 36 + 18 = 54 on the gyroscopic top.
    {"ggl", "ggl:scheme=VI-S", false},
    {"ggl", "ggl:scheme=VI-A", true},
    {"ggl", "ggl:scheme=VI-B", false},
    {"em", "em:variant=ggl", true},
    {"em", "em:variant=gonzalez", false},
    // bs99 (betsch-ggl §6.2): explicit, one step only (no nonlinear solve).
    {"bs99", "bs99", false},
    // nhprk (demartin2018 (14)): the paper's Lobatto-2 and Lobatto-3 and
    // the s = 4 of its order figures; N = s n + (s - 1) m_nh (7, 11, 15 on
    // the nonholonomic particle).
    {"nhprk", "nhprk:s=2", false},
    {"nhprk", "nhprk:s=3", true},
    {"nhprk", "nhprk:s=4", false},
    // dla (McLachlan-Perlmutter (4.18), demartin2018's comparator): both
    // points; N = n + m_nh (4 on the nonholonomic particle).
    {"dla", "dla:point=leapfrog", true},
    {"dla", "dla:point=midpoint", false},
};

} // namespace vibench

#endif
