/* reference_irk.c: the reference integrator of the quad library
 * (reference_impl_tmpl.h): the s = 8 Gauss-Legendre Runge-Kutta method
 * (order 2s = 16; Hairer, Norsett & Wanner I §II.7, Hairer & Wanner II
 * §IV.5) with a constant substep, fixed-point iteration on the stages
 * started from the previous step's collocation polynomial, and a
 * Kahan-compensated state update, on the equations of the system's form
 * (reference_tmpl.c). The substep is refined until a run and its check run
 * with twice the substep agree; their difference is the stated accuracy.
 * Written in the working precision, built into the quad library only (the
 * double library has GSL's rk8pd, reference_rk8pd.c, in its place). */
#include "reference_impl_tmpl.h"

#include <stdio.h>
#include <string.h>

enum { IRK_S = 8 };
/* Fixed-point sweeps per substep before the substep is declared too large
 * (the iteration contracts like hs |A| |df/dy|). */
enum { IRK_MAXIT = 100 };
/* Largest number of substeps per node, and of substeps in one run. */
#define IRK_MAX_SUB 4096L
#define IRK_MAX_TOTAL 400000000L
/* Target of the probe: the difference of the two runs below 64 eps of the
 * largest value of each of q, p, lambda (1.2e-32 relative). The full pair
 * is accepted up to IRK_ACCEPT: whatever dominates the difference there,
 * truncation (then the returned, finer run is 2^16 times better still) or
 * round-off amplified along a chaotic trajectory (which a smaller substep
 * cannot remove), the difference bounds the error of the returned run and
 * is reported as its accuracy; a finer pair would only tighten the bound. */
#define IRK_TARGET (64 * VI_EPS)
#define IRK_ACCEPT (16 * IRK_TARGET)

typedef struct irk {
  VI_REAL A[IRK_S * IRK_S], b[IRK_S], c[IRK_S];
  /* E_ij - b_j with E_ij = int_0^(1 + c_i) l_j: the collocation polynomial
   * of one step, extrapolated to the stages of the next, gives their
   * initial guess (Hairer & Wanner II §IV.8, "starting values"). */
  VI_REAL E[IRK_S * IRK_S];
  int have_prev;         /* F holds the converged stages of a previous step */
  int d, nq;             /* nq + n, and nq: the q block comes first */
  VI_REAL *Z, *F;        /* stage increments Y_i - y0 and f(Y_i), s x d */
  VI_REAL *y, *comp;     /* state and its Kahan compensation, d each */
  VI_REAL *ys, *f0;      /* a stage value, f(y0) */
  VI_REAL *V;            /* M^-1 p at the stages, s x n */
  VI_REAL sq, sp;        /* magnitudes of q and p seen so far */
} irk;

/* One Gauss step of size hs from w->y, in place:
 *   Z_i = hs sum_j a_ij f(y + Z_j),  y <- y + hs sum_i b_i f(y + Z_i),
 * the stages by fixed-point iteration from Z_i = c_i hs f(y) until the
 * update is below 2 eps of the magnitudes of q and p, where the remaining
 * iteration error is smaller still (the sweep contracts by at least 2). The
 * state update is Kahan-compensated: thousands of substeps per node would
 * otherwise add their rounding errors. Returns VI_OK, a callback status,
 * or VI_NEWTON_NOCONV when the sweeps do not contract. */
static int irk_step(irk *w, vi_ref_rhs *c, VI_REAL hs) {
  const int d = w->d, nq = w->nq, n = d - nq;
  int rc = VI_OK;
  if (w->have_prev) {
    for (int i = 0; i < IRK_S; i++) {
      for (int j = 0; j < d; j++) {
        VI_REAL z = 0;
        for (int l = 0; l < IRK_S; l++) {
          z += w->E[i * IRK_S + l] * w->F[l * d + j];
        }
        w->Z[i * d + j] = hs * z;
      }
    }
  } else {
    rc = VI_X(vi_ref_rhs_eval)(c, w->y, w->f0);
    if (rc != VI_OK) {
      return rc;
    }
    for (int i = 0; i < IRK_S; i++) {
      for (int j = 0; j < d; j++) {
        w->Z[i * d + j] = w->c[i] * hs * w->f0[j];
      }
    }
  }
  VI_REAL tq = 2 * VI_EPS * w->sq, tp = 2 * VI_EPS * w->sp;
  VI_REAL prev = 0;
  int it = 0, ok = 0;
  for (; it < IRK_MAXIT; it++) {
    for (int i = 0; i < IRK_S; i++) {
      for (int j = 0; j < d; j++) {
        w->ys[j] = w->y[j] + w->Z[i * d + j];
      }
      rc = VI_X(vi_ref_rhs_eval)(c, w->ys, w->F + i * d);
      if (rc != VI_OK) {
        return rc;
      }
    }
    /* p stages from the new F; then the q stages from the new p stages,
     * since their derivative M^-1 p is linear and known without another
     * evaluation (a Gauss-Seidel sweep over the two blocks: the q error no
     * longer lags one sweep behind the p error, which about halves the
     * sweeps). The degenerate form has no such split: both blocks come
     * from F (a plain fixed-point sweep). */
    const int degen = c->sys->type->degen != NULL || c->sys->type->lie != NULL;
    VI_REAL dq = 0, dp = 0;
    for (int i = 0; i < IRK_S; i++) {
      for (int j = degen ? 0 : nq; j < d; j++) {
        VI_REAL z = 0;
        for (int l = 0; l < IRK_S; l++) {
          z += w->A[i * IRK_S + l] * w->F[l * d + j];
        }
        z *= hs;
        VI_REAL e = vi_fabs(z - w->Z[i * d + j]);
        if (j < nq) {
          dq = e > dq || e != e ? e : dq;
        } else {
          dp = e > dp || e != e ? e : dp;
        }
        w->Z[i * d + j] = z;
      }
    }
    const int cm = !VI_X(vi_system_mass_constant)(c->sys);
    for (int l = 0; !degen && l < IRK_S; l++) {
      /* M^-1 at the stage's current q (still a contracting sweep); the
       * cached one for a constant M. */
      for (int j = 0; cm && j < n; j++) {
        w->ys[j] = w->y[j] + w->Z[l * d + j];
      }
      const VI_REAL *Minv = NULL;
      rc = VI_X(vi_system_minv_at)(c->sys, w->ys, c->Minv, &Minv);
      if (rc != VI_OK) {
        VI_X(vi_ref_fail)(c, rc, "callback mass_q of system %s failed (%s)",
                          c->sys->type->info->name, vi_strerror(rc));
        return rc;
      }
      for (int j = 0; j < n; j++) {
        VI_REAL v = 0;
        for (int k = 0; k < n; k++) {
          v += Minv[j * n + k] * (w->y[nq + k] + w->Z[l * d + nq + k]);
        }
        w->V[l * n + j] = v;
      }
    }
    for (int i = 0; !degen && i < IRK_S; i++) {
      for (int j = 0; j < n; j++) {
        VI_REAL z = 0;
        for (int l = 0; l < IRK_S; l++) {
          z += w->A[i * IRK_S + l] * w->V[l * n + j];
        }
        z *= hs;
        VI_REAL e = vi_fabs(z - w->Z[i * d + j]);
        dq = e > dq || e != e ? e : dq;
        w->Z[i * d + j] = z;
      }
    }
    if (dq <= tq && dp <= tp) {
      ok = 1;
      break;
    }
    /* Not contracting after the first sweeps: the substep is too large
     * for the fixed-point iteration (or the state is not finite). */
    VI_REAL cur = rmax(dq / rmax(w->sq, VI_EPS), dp / rmax(w->sp, VI_EPS));
    if (!vi_isfinite(cur) || (it >= 4 && cur > prev / 2)) {
      break;
    }
    prev = cur;
  }
  if (!ok) {
    w->have_prev = 0;
    return VI_NEWTON_NOCONV;
  }
  w->have_prev = 1;
  /* The F of the last sweep belong to stages within the tolerance of the
   * converged ones. */
  for (int j = 0; j < d; j++) {
    VI_REAL inc = 0;
    for (int i = 0; i < IRK_S; i++) {
      inc += w->b[i] * w->F[i * d + j];
    }
    inc = hs * inc - w->comp[j];
    VI_REAL t = w->y[j] + inc;
    w->comp[j] = (t - w->y[j]) - inc;
    w->y[j] = t;
  }
  for (int j = 0; j < nq; j++) {
    w->sq = rmax(w->sq, vi_fabs(w->y[j]));
  }
  for (int j = 0; j < n; j++) {
    w->sp = rmax(w->sp, vi_fabs(w->y[nq + j]));
  }
  return VI_OK;
}

/* From (q0, p0), nout outputs spaced by nsub Gauss steps of size hs:
 * (Q, P) rows 0..nout. */
static int irk_run(irk *w, vi_ref_rhs *c, VI_REAL hs, long nsub, long nout,
                   VI_REAL *Q, VI_REAL *P) {
  const VI_X(vi_system) *sys = c->sys;
  const int n = sys->n, nq = sys->nq;
  memcpy(w->y, sys->q0, (size_t)nq * sizeof *w->y);
  memcpy(w->y + nq, c->y0p, (size_t)n * sizeof *w->y);
  memset(w->comp, 0, (size_t)w->d * sizeof *w->comp);
  memcpy(Q, sys->q0, (size_t)nq * sizeof *Q);
  memcpy(P, c->y0p, (size_t)n * sizeof *P);
  w->have_prev = 0;
  w->sq = VI_X(vi_norm_inf)(nq, sys->q0);
  w->sp = VI_X(vi_norm_inf)(n, c->y0p);
  /* A system at rest in p (or q) still needs a scale for the stopping
   * test: the other block's, or 1. */
  if (w->sq == 0) {
    w->sq = w->sp > 0 ? w->sp : 1;
  }
  if (w->sp == 0) {
    w->sp = w->sq;
  }
  for (long k = 1; k <= nout; k++) {
    for (long j = 0; j < nsub; j++) {
      int rc = irk_step(w, c, hs);
      if (rc != VI_OK) {
        return rc;
      }
    }
    memcpy(Q + k * nq, w->y, (size_t)nq * sizeof *Q);
    memcpy(P + k * n, w->y + nq, (size_t)n * sizeof *P);
  }
  return VI_X(vi_ref_lie_to_mu)(c, nout, Q, P);
}

/* One reference with ksub substeps per node, checked by a run with twice
 * the substep: ksub / 2 per node for even ksub, otherwise (ksub = 1) one
 * step of 2h per pair of nodes, compared at the even nodes. nodes: how many
 * nodes to compute (the probe uses a prefix). reuse: (Q, P, L) already hold
 * the run with ksub / 2 over the same nodes (the previous, rejected pair),
 * which becomes the check run. d receives the differences per block. */
static int irk_pair(irk *w, vi_ref_rhs *c, VI_REAL h, long ksub, long nodes,
                    int reuse, VI_REAL *Q, VI_REAL *P, VI_REAL *L,
                    VI_REAL *Q2, VI_REAL *P2, VI_REAL *L2, VI_REAL d[3]) {
  const int n = c->sys->n, nq = c->sys->nq, m = c->sys->ml;
  long stride = 1, nk = nodes;
  int rc = VI_OK;
  if (reuse && ksub % 2 == 0) {
    memcpy(Q2, Q, (size_t)(nodes + 1) * (size_t)nq * sizeof *Q);
    memcpy(P2, P, (size_t)(nodes + 1) * (size_t)n * sizeof *P);
    if (m > 0) {
      memcpy(L2, L, (size_t)(nodes + 1) * (size_t)m * sizeof *L);
    }
  } else if (ksub % 2 == 0) {
    rc = irk_run(w, c, h / (VI_REAL)(ksub / 2), ksub / 2, nodes, Q2, P2);
  } else {
    stride = 2;
    nk = nodes / 2;
    rc = irk_run(w, c, 2 * h / (VI_REAL)ksub, ksub, nk, Q2, P2);
  }
  if (rc == VI_OK && !(reuse && ksub % 2 == 0)) {
    rc = VI_X(vi_ref_node_lambdas)(c, nk, Q2, P2, L2);
  }
  if (rc == VI_OK) {
    rc = irk_run(w, c, h / (VI_REAL)ksub, ksub, nodes, Q, P);
  }
  if (rc == VI_OK) {
    rc = VI_X(vi_ref_node_lambdas)(c, nodes, Q, P, L);
  }
  if (rc == VI_OK) {
    VI_X(vi_ref_diff)(nq, n, m, nk + 1, stride, Q, P, L, Q2, P2, L2, d);
  }
  return rc;
}

/* The largest of the block differences relative to the block scales. */
static VI_REAL rel_diff(const VI_REAL d[3], const VI_REAL s[3]) {
  VI_REAL r = 0;
  for (int b = 0; b < 3; b++) {
    VI_REAL e = d[b] == 0 ? 0 : d[b] / s[b];
    r = e > r || e != e ? e : r;
  }
  return r;
}

/* The reference at K = 0: the initial data, accurate to its round-off. */
static int irk_initial(vi_ref_rhs *c, VI_REAL *Q, VI_REAL *P, VI_REAL *L,
                       VI_X(vi_reference_info) *info, char *err, size_t errlen) {
  const VI_X(vi_system) *sys = c->sys;
  const int n = sys->n, nq = sys->nq, m = sys->ml;
  memcpy(Q, sys->q0, (size_t)nq * sizeof *Q);
  memcpy(P, sys->p0, (size_t)n * sizeof *P);
  int rc = VI_X(vi_ref_node_lambdas)(c, 0, Q, P, L);
  if (rc != VI_OK) {
    vi_set_err(err, errlen, "%s", c->msg);
    return rc;
  }
  VI_REAL s0[3];
  VI_X(vi_ref_scale)(nq, n, m, 0, Q, P, L, s0);
  info->accuracy = (double)(4 * VI_EPS * rmax(s0[0], rmax(s0[1], s0[2])));
  snprintf(info->method, sizeof info->method,
           "Gauss-Legendre IRK s = %d, %s: K = 0, the "
           "initial data", IRK_S, c->form);
  return VI_OK;
}

/* The tableau, the starting-value matrix E and the stage scratch of w,
 * carved from mem (2 IRK_S d + IRK_S n + 4 d reals, d = nq + n). */
static int irk_init(irk *w, int nq, int n, VI_REAL *mem, char *err, size_t errlen) {
  const int d = nq + n;
  w->d = d;
  w->nq = nq;
  w->Z = mem;
  w->F = w->Z + IRK_S * d;
  w->y = w->F + IRK_S * d;
  w->comp = w->y + d;
  w->ys = w->comp + d;
  w->f0 = w->ys + d;
  w->V = w->f0 + d;
  int rc = VI_X(vi_tableau)(VI_TAB_GAUSS, IRK_S, w->A, w->b, w->c);
  VI_REAL gx[IRK_S], gw[IRK_S], lv[IRK_S];
  if (rc == VI_OK) {
    rc = VI_X(vi_quad_gauss)(IRK_S, gx, gw);
  }
  if (rc != VI_OK) {
    vi_set_err(err, errlen, "cannot build the %d-stage Gauss tableau (%s)",
               IRK_S, vi_strerror(rc));
    return rc;
  }
  /* E_ij = int_0^(1 + c_i) l_j by the s-point Gauss rule on [0, 1 + c_i],
   * exact for the degree s - 1 Lagrange polynomials l_j on the nodes c. */
  for (int i = 0; i < IRK_S; i++) {
    VI_REAL len = 1 + w->c[i];
    for (int j = 0; j < IRK_S; j++) {
      w->E[i * IRK_S + j] = -w->b[j];
    }
    for (int k = 0; k < IRK_S; k++) {
      VI_X(vi_lagrange_eval)(IRK_S, w->c, len * gx[k], lv, NULL);
      for (int j = 0; j < IRK_S; j++) {
        w->E[i * IRK_S + j] += len * gw[k] * lv[j];
      }
    }
  }
  return VI_OK;
}

/* The quad reference. The substep count per node, ksub, is chosen on a
 * probe (the first K/8 nodes, at least 2): the difference of the pair
 * there, extrapolated linearly to all K nodes, must be below IRK_TARGET,
 * the error of the check run falling by 2^16 per doubling of ksub. The
 * full pair then decides: accepted up to IRK_ACCEPT, or when one more
 * doubling no longer reduces the difference (a round-off plateau);
 * otherwise ksub doubles, the old finer run becoming the new check run
 * (reuse). Probe and full pair are one loop over the node count: a probe
 * that already covers all K nodes and meets the target is the result.
 * The finer run is returned with the difference as its accuracy. */
static int irk_integrate(vi_ref_rhs *c, VI_REAL h, long K, VI_REAL *Q, VI_REAL *P,
                         VI_REAL *L, VI_REAL *W, VI_X(vi_reference_info) *info,
                         char *err, size_t errlen) {
  const VI_X(vi_system) *sys = c->sys;
  const int n = sys->n, nq = sys->nq, m = sys->ml;
  const char *name = sys->type->info->name;
  if (K == 0) {
    return irk_initial(c, Q, P, L, info, err, errlen);
  }
  VI_REAL *Q2 = W, *P2 = Q2 + (K + 1) * nq, *L2 = P2 + (K + 1) * n;
  irk w;
  int rc = irk_init(&w, nq, n, L2 + (K + 1) * m, err, errlen);
  if (rc != VI_OK) {
    return rc;
  }
  VI_REAL dd[3], s[3];
  /* With ksub = 1 the check run covers pairs of nodes: K = 1 starts at 2. */
  long ksub = K >= 2 ? 1 : 2;
  long np = K / 8 > 2 ? K / 8 : 2;
  np = np < K ? np : K;
  int probe = 1;      /* on the first np nodes, then on all K */
  long nodes = np;
  VI_REAL prev = -1;  /* the previous full pair's relative difference */
  int reuse = 0;      /* (Q, P, L) hold the previous full pair's finer run */
  for (;;) {
    if (ksub > IRK_MAX_SUB || (!probe && (VI_REAL)ksub * (VI_REAL)K > IRK_MAX_TOTAL)) {
      if (probe) {
        vi_set_err(err, errlen,
                   "reference integration (Gauss IRK s = %d) of system %s: the "
                   "stage iteration or the error target fails even with h/%ld "
                   "substeps on the first %ld nodes (h = %.3e)",
                   IRK_S, name, IRK_MAX_SUB, np, (double)h);
      } else {
        vi_set_err(err, errlen,
                   "reference integration (Gauss IRK s = %d) of system %s did "
                   "not reach its target (relative difference %.1e with h/%ld "
                   "substeps, %ld nodes)",
                   IRK_S, name, (double)prev, ksub / 2, K);
      }
      return VI_NEWTON_NOCONV;
    }
    c->status = VI_OK;
    rc = irk_pair(&w, c, h, ksub, nodes, reuse, Q, P, L, Q2, P2, L2, dd);
    reuse = 0;
    if (rc == VI_NEWTON_NOCONV) {
      ksub *= 2;
      continue;
    }
    if (rc != VI_OK) {
      vi_set_err(err, errlen, "reference (Gauss IRK s = %d): %s", IRK_S,
                 c->msg);
      return rc;
    }
    VI_X(vi_ref_scale)(nq, n, m, nodes, Q, P, L, s);
    VI_REAL r = rel_diff(dd, s);
    if (probe) {
      if (!vi_isfinite(r)) {
        vi_set_err(err, errlen,
                   "reference integration (Gauss IRK s = %d) of system %s: "
                   "non-finite values on the first %ld nodes",
                   IRK_S, name, np);
        return VI_ESOLVER;
      }
      VI_REAL pred = r * (VI_REAL)K / (VI_REAL)np;
      if (r <= 16 * VI_EPS || pred <= IRK_TARGET) {
        if (np == K && pred <= IRK_TARGET) {
          break;
        }
        probe = 0;
        nodes = K;
        continue;
      }
      /* The check run's error falls by 2^16 per doubling of ksub. */
      long f = 1;
      while (pred > IRK_TARGET && f < 64) {
        pred /= 65536;
        f *= 2;
      }
      ksub *= f;
      continue;
    }
    if (r <= IRK_ACCEPT || (prev >= 0 && r > prev / 16)) {
      break;
    }
    prev = r;
    ksub *= 2;
    reuse = 1;
  }
  double acc = 0;
  for (int b = 0; b < 3; b++) {
    double e = (double)rmax(dd[b], 4 * VI_EPS * s[b]);
    acc = e > acc || e != e ? e : acc;
  }
  info->accuracy = acc;
  /* ksub <= IRK_MAX_SUB; the "% 100000" below only tells the compiler's
   * format-truncation check how wide the numbers can be. */
  char chk[32];
  if (ksub % 2 == 0) {
    snprintf(chk, sizeof chk, "h/%ld", (ksub / 2) % 100000);
  } else {
    snprintf(chk, sizeof chk, "2h");
  }
  snprintf(info->method, sizeof info->method,
           "Gauss-Legendre IRK s = %d (order %d), %s, "
           "substep h/%ld; error from a %.20s run",
           IRK_S, 2 * IRK_S, c->form, ksub % 100000, chk);
  return VI_OK;
}

/* Reals of workspace irk_integrate needs besides Q, P, L. */
static size_t irk_work(int nq, int n, int m, long K) {
  return (size_t)(K + 1) * (size_t)(nq + n + m) + 2 * IRK_S * (size_t)(nq + n) +
         IRK_S * (size_t)n + 4 * (size_t)(nq + n);
}

const vi_ref_ops VI_X(vi_ref_integrator) = {
    .work = irk_work,
    .integrate = irk_integrate,
};
