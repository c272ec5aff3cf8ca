// bench.cc: the benchmark shim, the only C++ in vistudy (Google Benchmark
// is a C++ library). It iterates the method and system registries
// (core/methods/methods.def, systems/systems.def) and registers, for every
// representative method configuration (configs.h) on every compatible
// system, in double and quad, with each solver backend (KINSOL in double
// only):
//
//   step/SYS/SPEC/PREC/BACKEND   one full step from a warm state
//   solve/SYS/SPEC/PREC/BACKEND  one nonlinear solve of the next step
//   assemble/SYS/SPEC/PREC       one residual + Jacobian assembly
//   newton_la/SYS/SPEC/PREC      the linear algebra of one Newton iteration
//                                (LU + solve of the configuration's own
//                                Jacobian), to compare with lu/N/PREC
//   lu/N/PREC                    dense LU + two triangular solves of a
//                                random N x N matrix (the floor of
//                                newton_la; N = 12, 24, 48 and every N of a
//                                configuration)
//   calib/lu/48                  a frozen copy of the LU, the calibration
//                                kernel tools/bench-compare divides by
//
// The timing thread is pinned with hwloc (vi_pin_thread). Counters are per
// step (or per solve): unknowns, Newton iterations, residual and Jacobian
// evaluations, and allocations made by the vistudy library inside the timed
// region (must be 0: no allocation inside step). The JSON context carries
// the machine, compiler, build type and git describe.
//
// Options besides Google Benchmark's own: --quick (the CI subset: calib, lu
// at 12/24/48 and the configurations configs.h marks quick). Environment:
// VI_BENCH_INJECT_SLOWDOWN=K (integer >= 1) runs K steppers in lockstep in
// the step kernels, a real K-fold slowdown for checking tools/bench-compare.
#include <benchmark/benchmark.h>

#include "configs.h"
#include "machine.h"
#include "vistudy.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#ifdef VI_BENCH_QD
#include <qd/dd_real.h>
#endif

// Allocation counting: the build links with -Wl,--wrap=malloc (and calloc,
// realloc), which redirects the calls made by statically linked objects
// (the vistudy library, not libstdc++ or SUNDIALS) here. The counter is the
// only global state of the shim: the linker gives no other way in.
namespace {
std::atomic<long> g_allocs{0};
}
extern "C" {
void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  return __real_malloc(n);
}
void *__wrap_calloc(size_t k, size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  return __real_calloc(k, n);
}
void *__wrap_realloc(void *p, size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  return __real_realloc(p, n);
}
}

namespace vibench {
namespace {

constexpr double kStepH = 0.01; // step size of every benchmark
constexpr int kWarmSteps = 2;   // steps after init before timing (warm state)
constexpr int kCycle = 64;      // timed steps before re-initialising
constexpr int kCalibN = 48;     // size of the calibration LU
constexpr int kLuSizes[] = {12, 24, 48};

// ---- the two precisions behind one interface ---------------------------

template <typename R> struct Api;

template <> struct Api<double> {
  using Real = double;
  using System = vi_system_d;
  using SystemType = vi_system_type_d;
  using Stepper = vi_stepper_d;
  using SolverOpts = vi_solver_opts_d;
  using Node = vi_node_d;
  using Stats = vi_stats_d;
  static constexpr const char *kName = "double";
  static const SystemType *const *system_types() { return vi_system_types_d; }
  static constexpr auto system_alloc = &vi_system_alloc_d;
  static constexpr auto system_free = &vi_system_free_d;
  static constexpr auto stepper_alloc = &vi_stepper_alloc_d;
  static constexpr auto stepper_free = &vi_stepper_free_d;
  static constexpr auto stepper_init = &vi_stepper_init_d;
  static constexpr auto stepper_step = &vi_stepper_step_d;
  static constexpr auto stepper_stats = &vi_stepper_stats_d;
  static constexpr auto stepper_assemble = &vi_stepper_assemble_d;
  static constexpr auto stepper_solve = &vi_stepper_solve_d;
  static constexpr auto stepper_unknowns = &vi_stepper_unknowns_d;
  static constexpr auto stepper_dims = &vi_stepper_dims_d;
  static constexpr auto node_bind = &vi_node_bind_d;
  static constexpr auto solver_opts_default = &vi_solver_opts_default_d;
  static constexpr auto lu_factor = &vi_lu_factor_d;
  static constexpr auto lu_solve = &vi_lu_solve_d;
};

template <> struct Api<__float128> {
  using Real = __float128;
  using System = vi_system_q;
  using SystemType = vi_system_type_q;
  using Stepper = vi_stepper_q;
  using SolverOpts = vi_solver_opts_q;
  using Node = vi_node_q;
  using Stats = vi_stats_q;
  static constexpr const char *kName = "quad";
  static const SystemType *const *system_types() { return vi_system_types_q; }
  static constexpr auto system_alloc = &vi_system_alloc_q;
  static constexpr auto system_free = &vi_system_free_q;
  static constexpr auto stepper_alloc = &vi_stepper_alloc_q;
  static constexpr auto stepper_free = &vi_stepper_free_q;
  static constexpr auto stepper_init = &vi_stepper_init_q;
  static constexpr auto stepper_step = &vi_stepper_step_q;
  static constexpr auto stepper_stats = &vi_stepper_stats_q;
  static constexpr auto stepper_assemble = &vi_stepper_assemble_q;
  static constexpr auto stepper_solve = &vi_stepper_solve_q;
  static constexpr auto stepper_unknowns = &vi_stepper_unknowns_q;
  static constexpr auto stepper_dims = &vi_stepper_dims_q;
  static constexpr auto node_bind = &vi_node_bind_q;
  static constexpr auto solver_opts_default = &vi_solver_opts_default_q;
  static constexpr auto lu_factor = &vi_lu_factor_q;
  static constexpr auto lu_solve = &vi_lu_solve_q;
};

const char *backend_name(int kind) {
  return vi_solver_kind_name(kind);
}

// The solver variants benchmarked: the first three are the historical
// kernels (exact Newton, KINSOL, quad with its LU in quad); the others time
// the solver options (issue 25): the chord method, simplified Newton and
// (families that have it) the fixed-point iteration in both precisions,
// quad with the LU in double ("-lud").
struct Variant {
  bool quad;
  int kind; // vi_solver_kind
  int lu;   // vi_lu_precision
};
constexpr Variant kVariants[] = {
    {false, VI_SOLVER_NEWTON, VI_LU_WORKING},    {false, VI_SOLVER_KINSOL, VI_LU_WORKING},
    {true, VI_SOLVER_NEWTON, VI_LU_WORKING},     {false, VI_SOLVER_CHORD, VI_LU_WORKING},
    {false, VI_SOLVER_SIMPLIFIED, VI_LU_WORKING}, {true, VI_SOLVER_NEWTON, VI_LU_DOUBLE},
    {true, VI_SOLVER_CHORD, VI_LU_DOUBLE},       {true, VI_SOLVER_SIMPLIFIED, VI_LU_DOUBLE},
    {false, VI_SOLVER_FIXED_POINT, VI_LU_WORKING}, {true, VI_SOLVER_FIXED_POINT, VI_LU_DOUBLE},
};

// The solver part of a kernel's name: "newton", "chord", ..., with "-lud"
// for an LU in double below quad.
std::string solver_tag(int kind, int lu, bool quad) {
  return std::string(backend_name(kind)) + (quad && lu == VI_LU_DOUBLE ? "-lud" : "");
}

// One benchmark subject: a method configuration on a system with a backend.
struct Combo {
  std::string spec;
  int sys_index; // index into the (parallel) system registries
  std::string sys_name;
  int backend; // vi_solver_kind
  int unknowns;
  int lu = VI_LU_WORKING; // vi_lu_precision
};

// A system + initialised stepper + the node it writes, owned together.
template <typename R> class Sim {
public:
  using A = Api<R>;
  Sim() = default;
  Sim(const Sim &) = delete;
  Sim &operator=(const Sim &) = delete;
  ~Sim() {
    A::stepper_free(st_);
    A::system_free(sys_);
  }

  // Allocate and initialise; VI_OK or a status with the reason in *why.
  int open(const Combo &c, std::string *why) {
    char err[512] = "";
    int rc = A::system_alloc(A::system_types()[c.sys_index], 0, nullptr, &sys_, err,
                             sizeof err);
    if (rc == VI_OK) {
      rc = A::stepper_alloc(c.spec.c_str(), sys_, &st_, err, sizeof err);
    }
    if (rc != VI_OK) {
      *why = err[0] ? err : vi_strerror(rc);
      return rc;
    }
    // One buffer laid out by the stepper's dimensions (a group in its
    // embedding, every multiplier kind, the method's extra block).
    const vi_dims *d = A::stepper_dims(st_);
    buf_.resize(vi_node_size(d) + 1);
    A::node_bind(&node_, buf_.data(), d);
    A::solver_opts_default(&opts_);
    opts_.kind = c.backend;
    opts_.lu = c.lu;
    rc = restart();
    if (rc != VI_OK) {
      *why = std::string("init: ") + vi_strerror(rc);
    }
    return rc;
  }

  // Back to the initial data and kWarmSteps steps into the trajectory, so
  // every cycle of a step benchmark times the same stretch of it.
  int restart() {
    int rc = A::stepper_init(st_, &opts_, static_cast<R>(kStepH), 0, sys_->q0, sys_->p0,
                             &node_);
    for (int k = 0; rc == VI_OK && k < kWarmSteps; k++) {
      rc = A::stepper_step(st_, &node_);
    }
    return rc;
  }

  int step() { return A::stepper_step(st_, &node_); }
  typename A::Stepper *stepper() { return st_; }
  const typename A::Stats &stats() const { return *A::stepper_stats(st_); }
  int unknowns() const { return A::stepper_unknowns(st_); }

private:
  typename A::System *sys_ = nullptr;
  typename A::Stepper *st_ = nullptr;
  typename A::SolverOpts opts_{};
  typename A::Node node_{};
  std::vector<R> buf_;
};

// Per-step counters accumulated across the cycles of a benchmark.
struct Tally {
  long iters = 0, fevals = 0, jevals = 0;
  template <typename S> void add(const S &now, const S &base) {
    iters += now.newton_iters - base.newton_iters;
    fevals += now.fevals - base.fevals;
    jevals += now.jevals - base.jevals;
  }
  void report(benchmark::State &state, double per, int unknowns, long allocs) const {
    state.counters["unknowns"] = unknowns;
    state.counters["newton_iters"] = per > 0 ? static_cast<double>(iters) / per : 0;
    state.counters["fevals"] = per > 0 ? static_cast<double>(fevals) / per : 0;
    state.counters["jevals"] = per > 0 ? static_cast<double>(jevals) / per : 0;
    state.counters["allocs"] = per > 0 ? static_cast<double>(allocs) / per : 0;
  }
};

// ---- kernels --------------------------------------------------------------

// One full step from a warm state. Every kCycle steps the stepper restarts
// from the initial data (timer paused), so the timed steps always cover the
// same stretch of the trajectory whatever the iteration count. With
// inject = K > 1, K identical steppers advance in lockstep: K times the
// work of the real kernel (the slowdown that bench-compare must catch).
template <typename R> void bm_step(benchmark::State &state, const Combo &c, int inject) {
  std::vector<std::unique_ptr<Sim<R>>> sims;
  std::string why;
  for (int k = 0; k < inject; k++) {
    sims.push_back(std::make_unique<Sim<R>>());
    if (sims.back()->open(c, &why) != VI_OK) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  Sim<R> &lead = *sims.front();
  Tally tally;
  auto base = lead.stats();
  long allocs = 0, alloc_base = g_allocs.load();
  int in_cycle = 0, rc = VI_OK;
  for (auto _ : state) {
    if (in_cycle == kCycle) {
      state.PauseTiming();
      allocs += g_allocs.load() - alloc_base;
      tally.add(lead.stats(), base);
      for (size_t k = 0; rc == VI_OK && k < sims.size(); k++) {
        rc = sims[k]->restart();
      }
      base = lead.stats();
      in_cycle = 0;
      alloc_base = g_allocs.load();
      state.ResumeTiming();
    }
    for (size_t k = 0; rc == VI_OK && k < sims.size(); k++) {
      rc = sims[k]->step();
    }
    if (rc != VI_OK) {
      // The ranged-for loop must be left by hand after SkipWithError.
      state.SkipWithError(vi_strerror(rc));
      break;
    }
    in_cycle++;
  }
  allocs += g_allocs.load() - alloc_base;
  tally.add(lead.stats(), base);
  tally.report(state, static_cast<double>(state.iterations()), lead.unknowns(), allocs);
}

// One nonlinear solve of the next step from its initial guess (the
// stepper's own backend); the result is discarded, so every iteration
// solves the same system.
template <typename R> void bm_solve(benchmark::State &state, const Combo &c) {
  Sim<R> sim;
  std::string why;
  if (sim.open(c, &why) != VI_OK) {
    state.SkipWithError(why.c_str());
    return;
  }
  Tally tally;
  auto base = sim.stats();
  long alloc_base = g_allocs.load();
  for (auto _ : state) {
    int rc = Api<R>::stepper_solve(sim.stepper());
    if (rc != VI_OK) {
      state.SkipWithError(vi_strerror(rc));
      break;
    }
  }
  long allocs = g_allocs.load() - alloc_base;
  tally.add(sim.stats(), base);
  tally.report(state, static_cast<double>(state.iterations()), sim.unknowns(), allocs);
}

// One residual + Jacobian assembly of the next step at its initial guess.
template <typename R> void bm_assemble(benchmark::State &state, const Combo &c) {
  Sim<R> sim;
  std::string why;
  if (sim.open(c, &why) != VI_OK) {
    state.SkipWithError(why.c_str());
    return;
  }
  const size_t N = static_cast<size_t>(sim.unknowns());
  std::vector<R> F(N), J(N * N);
  for (auto _ : state) {
    int rc = Api<R>::stepper_assemble(sim.stepper(), F.data(), J.data());
    if (rc != VI_OK) {
      state.SkipWithError(vi_strerror(rc));
      break;
    }
    benchmark::DoNotOptimize(J.data());
    benchmark::ClobberMemory();
  }
  state.counters["unknowns"] = static_cast<double>(N);
}

// LU + solve of A x = b, A restored from A0 first (the factorisation is in
// place): what one Newton iteration spends in linear algebra.
template <typename R>
void lu_loop(benchmark::State &state, int n, const std::vector<R> &A0,
             const std::vector<R> &b) {
  std::vector<R> A(A0.size()), x(b.size());
  std::vector<int> piv(static_cast<size_t>(n));
  for (auto _ : state) {
    std::copy(A0.begin(), A0.end(), A.begin());
    if (Api<R>::lu_factor(n, A.data(), piv.data()) != VI_OK) {
      state.SkipWithError("singular matrix");
      break;
    }
    std::copy(b.begin(), b.end(), x.begin());
    Api<R>::lu_solve(n, A.data(), piv.data(), x.data());
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  state.counters["N"] = n;
}

// A random dense matrix with entries in [-1, 1] (fixed seed per size, so
// every run factors the same matrix; its pivoting swaps rows as a Newton
// Jacobian's does).
template <typename R> void random_system(int n, std::vector<R> *A, std::vector<R> *b) {
  std::mt19937_64 gen(0x5eed0000u + static_cast<unsigned>(n));
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  A->resize(static_cast<size_t>(n) * static_cast<size_t>(n));
  b->resize(static_cast<size_t>(n));
  for (auto &a : *A) {
    a = static_cast<R>(U(gen));
  }
  for (auto &v : *b) {
    v = static_cast<R>(U(gen));
  }
}

template <typename R> void bm_lu(benchmark::State &state, int n) {
  std::vector<R> A0, b;
  random_system(n, &A0, &b);
  lu_loop(state, n, A0, b);
}

// The linear algebra of one Newton iteration on the configuration's own
// Jacobian (from the assemble hook), to set beside lu/N/PREC.
template <typename R> void bm_newton_la(benchmark::State &state, const Combo &c) {
  Sim<R> sim;
  std::string why;
  if (sim.open(c, &why) != VI_OK) {
    state.SkipWithError(why.c_str());
    return;
  }
  const int n = sim.unknowns();
  std::vector<R> F(static_cast<size_t>(n)), J(static_cast<size_t>(n) * static_cast<size_t>(n));
  int rc = Api<R>::stepper_assemble(sim.stepper(), F.data(), J.data());
  if (rc != VI_OK) {
    state.SkipWithError(vi_strerror(rc));
    return;
  }
  for (auto &f : F) {
    f = -f;
  }
  lu_loop(state, n, J, F);
}

// The calibration kernel: a frozen copy of the dense LU with partial
// pivoting and the two triangular solves, independent of core/linalg_tmpl.c so
// that a regression there is not divided away by the normalisation. Never
// change it: the baselines' normalised times depend on it.
void calib_lu_factor(int n, double *A, int *piv) {
  for (int k = 0; k < n; k++) {
    int p = k;
    double amax = std::fabs(A[k * n + k]);
    for (int i = k + 1; i < n; i++) {
      if (std::fabs(A[i * n + k]) > amax) {
        amax = std::fabs(A[i * n + k]);
        p = i;
      }
    }
    piv[k] = p;
    if (p != k) {
      for (int j = 0; j < n; j++) {
        std::swap(A[k * n + j], A[p * n + j]);
      }
    }
    const double inv = 1.0 / A[k * n + k];
    for (int i = k + 1; i < n; i++) {
      const double l = A[i * n + k] * inv;
      A[i * n + k] = l;
      for (int j = k + 1; j < n; j++) {
        A[i * n + j] -= l * A[k * n + j];
      }
    }
  }
}

void calib_lu_solve(int n, const double *LU, const int *piv, double *x) {
  for (int k = 0; k < n; k++) {
    std::swap(x[k], x[piv[k]]);
  }
  for (int i = 1; i < n; i++) {
    for (int j = 0; j < i; j++) {
      x[i] -= LU[i * n + j] * x[j];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) {
      x[i] -= LU[i * n + j] * x[j];
    }
    x[i] /= LU[i * n + i];
  }
}

void bm_calib(benchmark::State &state) {
  std::vector<double> A0, b;
  random_system(kCalibN, &A0, &b);
  std::vector<double> A(A0.size()), x(b.size());
  std::vector<int> piv(kCalibN);
  for (auto _ : state) {
    std::copy(A0.begin(), A0.end(), A.begin());
    calib_lu_factor(kCalibN, A.data(), piv.data());
    std::copy(b.begin(), b.end(), x.begin());
    calib_lu_solve(kCalibN, A.data(), piv.data(), x.data());
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  state.counters["N"] = kCalibN;
}

// ---- extended-precision arithmetic (issue "Speed", item 1) -----------------
//
// The options for a fast 32-digit precision, measured on one kernel: the
// calibration's LU + solves (the algorithm above, written once per scalar
// type here, so that only the arithmetic differs) in double, in QD's
// double-double dd_real (libqd, about 32 digits; built when meson finds it)
// and in GCC's __float128 (34 digits, software). arith/lu/N/TYPE; the
// report divides each by the double kernel of the same N.

double arith_mag(double x) { return std::fabs(x); }
double arith_mag(__float128 x) { return static_cast<double>(x < 0 ? -x : x); }
#ifdef VI_BENCH_QD
double arith_mag(const dd_real &x) { return std::fabs(x.x[0]); }
#endif

template <typename T> void arith_lu(int n, T *A, int *piv, T *x) {
  for (int k = 0; k < n; k++) {
    int p = k;
    double amax = arith_mag(A[k * n + k]);
    for (int i = k + 1; i < n; i++) {
      if (arith_mag(A[i * n + k]) > amax) {
        amax = arith_mag(A[i * n + k]);
        p = i;
      }
    }
    piv[k] = p;
    if (p != k) {
      for (int j = 0; j < n; j++) {
        std::swap(A[k * n + j], A[p * n + j]);
      }
    }
    const T inv = T(1.0) / A[k * n + k];
    for (int i = k + 1; i < n; i++) {
      const T l = A[i * n + k] * inv;
      A[i * n + k] = l;
      for (int j = k + 1; j < n; j++) {
        A[i * n + j] -= l * A[k * n + j];
      }
    }
  }
  for (int k = 0; k < n; k++) {
    std::swap(x[k], x[piv[k]]);
  }
  for (int i = 1; i < n; i++) {
    for (int j = 0; j < i; j++) {
      x[i] -= A[i * n + j] * x[j];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) {
      x[i] -= A[i * n + j] * x[j];
    }
    x[i] /= A[i * n + i];
  }
}

template <typename T> void bm_arith(benchmark::State &state, int n) {
  std::vector<double> A0d, bd;
  random_system(n, &A0d, &bd);
  std::vector<T> A0(A0d.size()), b(bd.size()), A(A0d.size()), x(bd.size());
  for (size_t i = 0; i < A0d.size(); i++) {
    A0[i] = T(A0d[i]);
  }
  for (size_t i = 0; i < bd.size(); i++) {
    b[i] = T(bd[i]);
  }
  std::vector<int> piv(static_cast<size_t>(n));
  for (auto _ : state) {
    std::copy(A0.begin(), A0.end(), A.begin());
    std::copy(b.begin(), b.end(), x.begin());
    arith_lu(n, A.data(), piv.data(), x.data());
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  state.counters["N"] = n;
}


// ---- registration -------------------------------------------------------

double stat_min(const std::vector<double> &v) {
  return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

// Every benchmark also reports the minimum over repetitions, the statistic
// tools/bench-compare uses (interference only ever adds time).
void with_min(benchmark::internal::Benchmark *b) {
  b->ComputeStatistics("min", stat_min)->Unit(benchmark::kMicrosecond);
}

// Probe a combination: VI_OK and its unknowns when the method accepts the
// system in this precision with this backend, else the reason in *why.
template <typename R> int probe(Combo *c, std::string *why) {
  Sim<R> sim;
  int rc = sim.open(*c, why);
  if (rc == VI_OK) {
    c->unknowns = sim.unknowns();
  }
  return rc;
}

template <typename R> void register_combo(const Combo &c, int inject) {
  const std::string tail = c.sys_name + "/" + c.spec + "/" + Api<R>::kName;
  const bool quad = std::is_same<R, __float128>::value;
  const std::string be = "/" + solver_tag(c.backend, c.lu, quad);
  with_min(benchmark::RegisterBenchmark(("step/" + tail + be).c_str(), bm_step<R>, c, inject));
  if (c.unknowns == 0) {
    return; // an explicit scheme (bs99): a step, no solve to time
  }
  if (c.lu != VI_LU_WORKING ||
      (c.backend != VI_SOLVER_NEWTON && c.backend != VI_SOLVER_KINSOL)) {
    return; // the solver options: the step is what they change
  }
  with_min(benchmark::RegisterBenchmark(("solve/" + tail + be).c_str(), bm_solve<R>, c));
  // Assembly and the linear algebra do not depend on the backend.
  if (c.backend == VI_SOLVER_NEWTON) {
    with_min(benchmark::RegisterBenchmark(("assemble/" + tail).c_str(), bm_assemble<R>, c));
    with_min(benchmark::RegisterBenchmark(("newton_la/" + tail).c_str(), bm_newton_la<R>, c));
  }
}

// The configurations of one family: its rows of kConfigs, else its default.
std::vector<std::string> family_specs(const char *family, bool quick) {
  std::vector<std::string> specs;
  for (const Config &cfg : kConfigs) {
    if (std::strcmp(cfg.family, family) == 0 && (!quick || cfg.quick)) {
      specs.emplace_back(cfg.spec);
    }
  }
  if (specs.empty()) {
    specs.emplace_back(family);
  }
  return specs;
}

// The arithmetic kernels (not in --quick: CI gates the library's kernels).
void register_arith() {
  for (int n : {8, 16, 32, 48}) {
    const std::string N = std::to_string(n);
    with_min(benchmark::RegisterBenchmark(("arith/lu/" + N + "/double").c_str(),
                                          bm_arith<double>, n));
#ifdef VI_BENCH_QD
    with_min(benchmark::RegisterBenchmark(("arith/lu/" + N + "/dd").c_str(),
                                          bm_arith<dd_real>, n));
#endif
    with_min(benchmark::RegisterBenchmark(("arith/lu/" + N + "/quad").c_str(),
                                          bm_arith<__float128>, n));
  }
}

// Register everything; returns the number of combinations skipped.
int register_all(bool quick, int inject) {
  with_min(benchmark::RegisterBenchmark("calib/lu/48", bm_calib));
  if (!quick) {
    register_arith();
  }
  std::vector<Combo> combos[2]; // [0] double, [1] quad
  std::set<int> sizes(std::begin(kLuSizes), std::end(kLuSizes));
  std::set<int> sizes_q;
  int skipped = 0, refused = 0;
  std::set<std::string> said;
  for (int f = 0; vi_method_types_d[f]; f++) {
    for (const std::string &spec : family_specs(vi_method_types_d[f]->name, quick)) {
      for (int i = 0; vi_system_types_d[i]; i++) {
        // Pairs the family declares it cannot integrate are not candidates.
        if (!vi_method_compatible_d(vi_method_types_d[f], vi_system_types_d[i], nullptr, 0)) {
          continue;
        }
        for (const Variant &v : kVariants) {
          if (v.kind == VI_SOLVER_FIXED_POINT && !vi_method_types_d[f]->fixed_point) {
            continue; // the family has no fixed-point form
          }
          const bool is_quad = v.quad;
          Combo c{spec, i, vi_system_types_d[i]->info->name, v.kind, 0, v.lu};
          std::string why;
          int rc = is_quad ? probe<__float128>(&c, &why) : probe<double>(&c, &why);
          if (rc != VI_OK) {
            // A family's refusal of the system's data (its accepts hooks)
            // is counted, not printed: `vistudy list methods` says which
            // pairs each family takes. Any other failure to start is
            // printed once per pair and reason, not per variant.
            if (rc == VI_EUNSUPPORTED) {
              refused++;
            } else if (said.insert(spec + " on " + c.sys_name + ": " + why).second) {
              std::fprintf(stderr, "vistudy-bench: skipped %s on %s (%s, %s): %s\n",
                           spec.c_str(), c.sys_name.c_str(), is_quad ? "quad" : "double",
                           solver_tag(c.backend, c.lu, is_quad).c_str(), why.c_str());
            }
            skipped++;
            continue;
          }
          if (c.unknowns == 0 && (c.backend != VI_SOLVER_NEWTON || c.lu != VI_LU_WORKING)) {
            continue; // explicit: no nonlinear solver, one variant suffices
          }
          if (c.unknowns > 0) {
            (is_quad ? sizes_q : sizes).insert(c.unknowns);
          }
          combos[is_quad].push_back(c);
        }
      }
    }
  }
  if (refused > 0) {
    std::fprintf(stderr,
                 "vistudy-bench: %d configurations not benchmarked: their family refuses the "
                 "system's data (`vistudy list methods`)\n",
                 refused);
  }
  // Floors first, so a filtered run that keeps a configuration keeps them.
  for (int n : sizes) {
    if (!quick || std::count(std::begin(kLuSizes), std::end(kLuSizes), n)) {
      with_min(benchmark::RegisterBenchmark(("lu/" + std::to_string(n) + "/double").c_str(),
                                            bm_lu<double>, n));
    }
  }
  if (!quick) {
    for (int n : sizes_q) {
      with_min(benchmark::RegisterBenchmark(("lu/" + std::to_string(n) + "/quad").c_str(),
                                            bm_lu<__float128>, n));
    }
  }
  for (const Combo &c : combos[0]) {
    register_combo<double>(c, inject);
  }
  for (const Combo &c : combos[1]) {
    register_combo<__float128>(c, inject);
  }
  return skipped;
}

int parse_inject(std::string *why) {
  const char *e = std::getenv("VI_BENCH_INJECT_SLOWDOWN");
  if (!e || !*e) {
    return 1;
  }
  char *end = nullptr;
  errno = 0;
  long k = std::strtol(e, &end, 10);
  if (errno != 0 || *end != '\0' || k < 1 || k > 16) {
    *why = std::string("VI_BENCH_INJECT_SLOWDOWN must be an integer 1..16, not '") + e + "'";
    return 0;
  }
  return static_cast<int>(k);
}

void usage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [--quick] [--benchmark_* options]\n"
               "  --quick  the CI subset: calib, lu/{12,24,48}/double and the\n"
               "           configurations bench/configs.h marks quick\n"
               "  environment: VI_BENCH_INJECT_SLOWDOWN=K runs the step kernels K times\n",
               argv0);
}

} // namespace
} // namespace vibench

int main(int argc, char **argv) {
  using namespace vibench;
  benchmark::Initialize(&argc, argv);
  bool quick = false;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "%s: unknown option '%s'\n", argv[0], argv[i]);
      usage(argv[0]);
      return 2;
    }
  }
  std::string why;
  const int inject = parse_inject(&why);
  if (inject == 0) {
    std::fprintf(stderr, "%s: %s\n", argv[0], why.c_str());
    return 2;
  }

  vi_machine m;
  vi_machine_describe(&m);
  char line[512];
  vi_machine_line(&m, line, sizeof line);
  benchmark::AddCustomContext("vistudy_machine", line);
  benchmark::AddCustomContext("vistudy_cpu", m.cpu);
  benchmark::AddCustomContext("vistudy_cores", std::to_string(m.cores));
  benchmark::AddCustomContext("vistudy_os", m.os);
  benchmark::AddCustomContext("vistudy_compiler", m.compiler);
  benchmark::AddCustomContext("vistudy_build_type", m.build);
  benchmark::AddCustomContext("vistudy_version", m.version);
  benchmark::AddCustomContext("vistudy_step_h", std::to_string(kStepH));
  benchmark::AddCustomContext("vistudy_quick", quick ? "true" : "false");
  benchmark::AddCustomContext("vistudy_inject_slowdown", std::to_string(inject));

  // Pin before anything is timed; the benchmarks run on this thread.
  vi_pin *pin = nullptr;
  int core = -1;
  char err[256] = "";
  if (vi_pin_thread(&pin, &core, err, sizeof err) == 0) {
    benchmark::AddCustomContext("vistudy_pinned_core",
                                "core " + std::to_string(core) + " (hwloc logical index, last core)");
  } else {
    benchmark::AddCustomContext("vistudy_pinned_core", std::string("unpinned: ") + err);
    std::fprintf(stderr, "%s: not pinned: %s\n", argv[0], err);
  }

  const int skipped = register_all(quick, inject);
  benchmark::AddCustomContext("vistudy_skipped_combinations", std::to_string(skipped));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  vi_pin_release(pin);
  return 0;
}
