#!/usr/bin/python3
"""Independent reference implementation (numpy/scipy) of the nonholonomic
Lobatto IIIA-IIIB partitioned Runge-Kutta method of

    D. Martin de Diego, R. T. Sato Martin de Almagro, "High-order geometric
    methods for nonholonomic mechanical systems" (2018), eq. (14) (vector
    space, Lagrangian form) and Sec. 6.4 / App. F (Lie group, tau = cay),

written from the paper and the reading notes demartin2018.md only (no C
source of the project was read).  Systems and their coordinates follow the
project's docs/systems.md and docs/system-notes.md.

Usage
    nhprk_reference.py SYSTEM --s S --h H --N N [--set name=v1,v2 ...]
                       [--lambda0 exact|zero]
    nhprk_reference.py --selftest [--quick]

SYSTEM: nonholonomic-particle | knife-edge-incline | vertical-disc | turntable

Output (stdout, CSV, %.17g): one row per node k = 0..N,
    t, q1..q_nq, p1..p_n, lambda1..lambda_m (holonomic), mu1..mu_mnh (nonholonomic)
in the project's sign convention: the constraint forces are -G' lambda and
-A' mu (M qdd = -grad V - G' lambda - A' mu), i.e. the printed multipliers
are MINUS the paper's (whose forces are +G' Lambda, +A' Lambda).
 * mechanical systems: q = coordinates, p = M v.
 * vertical-disc: q = (x, y, theta) (theta unwrapped), p = body momenta
   (m v1, m v2, Iz omega).
 * turntable: q = R (row-major, 9 reals), x, y; p = body momenta
   (r^2 a w1, r^2 b w2, r^2 c w3, v_x, v_y).
The multipliers printed at node k >= 1 are the scheme's Lambda^s of the step
ending there (both the nonholonomic and, for the knife edge, the holonomic
ones); at node 0 they are the exact (index-1) multipliers of the initial
data (or 0 for the nonholonomic ones with --lambda0 zero; the holonomic
ones are not carried, so --lambda0 does not affect them).
"""
import sys
import argparse
import numpy as np
from numpy.polynomial import legendre as npleg
from scipy.integrate import solve_ivp

EPS = np.finfo(float).eps


def die(msg):
    """Refused input: message on stderr, exit status 2 (as the project)."""
    sys.stderr.write(msg + "\n")
    sys.exit(2)


# ---------------------------------------------------------------------------
# Tableaux
# ---------------------------------------------------------------------------
def lobatto_IIIA(s):
    """Lobatto IIIA (A, b, c): nodes 0, 1 and the roots of P'_{s-1}(2c-1);
    b from the quadrature conditions B(s), A from C(s)."""
    if s < 2:
        raise ValueError("Lobatto IIIA needs s >= 2")
    inner = []
    if s > 2:
        coef = np.zeros(s)
        coef[s - 1] = 1.0                     # P_{s-1}
        dcoef = npleg.legder(coef)            # P'_{s-1}
        r = npleg.legroots(dcoef)
        # polish the roots with Newton on P'_{s-1}
        d2 = npleg.legder(dcoef)
        for _ in range(3):
            r = r - npleg.legval(r, dcoef) / npleg.legval(r, d2)
        inner = list((np.sort(r) + 1.0) / 2.0)
    c = np.array([0.0] + inner + [1.0])
    k = np.arange(s)
    V = c[None, :] ** k[:, None]              # V[k, j] = c_j^k
    b = np.linalg.solve(V, 1.0 / (k + 1.0))
    A = np.zeros((s, s))
    for i in range(s):
        A[i] = np.linalg.solve(V, c[i] ** (k + 1) / (k + 1.0))
    A[0] = 0.0                                # exact: c_1 = 0
    A[s - 1] = b                              # exact: stiffly accurate
    return A, b, c


def conjugate(A, b):
    """Symplectic conjugate ahat_ij = b_j (1 - a_ji / b_i) (= Lobatto IIIB)."""
    s = len(b)
    Ah = np.array([[b[j] * (1.0 - A[j, i] / b[i]) for j in range(s)]
                   for i in range(s)])
    return Ah


# ---------------------------------------------------------------------------
# Newton with a finite-difference Jacobian
# ---------------------------------------------------------------------------
class NewtonFailure(RuntimeError):
    pass


def fd_jacobian(F, x):
    n = len(x)
    J = np.empty((n, n))
    for i in range(n):
        d = 1e-6 * (1.0 + abs(x[i]))
        xp = x.copy(); xp[i] += d
        xm = x.copy(); xm[i] -= d
        J[:, i] = (F(xp) - F(xm)) / (2.0 * d)
    return J


def newton(F, x0, scale, tol=1e-14, maxit=40):
    """Newton with a central-difference Jacobian (recomputed every
    iteration).  Once |F|_inf <= tol*scale, one more (polishing) iteration
    is done and the better of the two iterates kept; stagnation below
    1e-12*scale is accepted as round-off."""
    x = np.array(x0, dtype=float)
    r = F(x)
    nr = np.max(np.abs(r))
    polished = nr <= tol * scale
    for it in range(1, maxit + 1):
        J = fd_jacobian(F, x)
        try:
            dx = np.linalg.solve(J, -r)
        except np.linalg.LinAlgError:
            raise NewtonFailure("singular Jacobian")
        xn = x + dx
        rn = F(xn)
        nrn = np.max(np.abs(rn))
        if not np.isfinite(nrn):
            raise NewtonFailure("non-finite residual")
        if polished or (nrn >= nr and nr <= 1e-12 * scale):
            return (xn, it) if nrn <= nr else (x, it)
        x, r, nr = xn, rn, nrn
        polished = nr <= tol * scale
    if nr <= 1e-12 * scale:
        return x, maxit
    raise NewtonFailure("Newton did not converge: |F| = %g" % nr)


# ---------------------------------------------------------------------------
# Mechanical systems: L = 1/2 v'Mv - U(q), M constant diagonal,
# holonomic g(q) = 0 (rows G = Dg), nonholonomic Phi = A(q) v + c(q).
# Paper's sign: M qdd = -grad U + G' lam_h + A' lam_nh.
# ---------------------------------------------------------------------------
def parse_set(sets):
    out = {}
    for s in sets or []:
        if "=" not in s:
            die("--set expects name=v1,v2,...: %r" % s)
        k, v = s.split("=", 1)
        out[k.strip()] = [float(x) for x in v.split(",")]
    return out


def take(params, name, default):
    v = params.pop(name, None)
    if v is None:
        return np.array(default, dtype=float)
    v = np.array(v, dtype=float)
    if len(v) != len(default):
        die("--set %s: expects %d values, got %d"
                         % (name, len(default), len(v)))
    return v


class NonholonomicParticle:
    name = "nonholonomic-particle"
    kind = "mech"

    def __init__(self, params):
        p = dict(params)
        self.m = take(p, "m", [1.0])[0]
        self.k = take(p, "k", [1.0])[0]
        self.q0 = take(p, "q0", [1.0, 0.5, 0.0])
        self.v0 = take(p, "v0", [0.3, 0.8, 0.15])
        if p:
            die("unknown parameter(s) for %s: %s" % (self.name, list(p)))
        if self.m <= 0:
            die("m must be > 0")
        self.n, self.mh, self.mnh = 3, 0, 1
        self.Mdiag = np.full(3, self.m)

    def U(self, q):
        return 0.5 * self.k * (q[0] ** 2 + q[1] ** 2)

    def gradU(self, q):
        return np.array([self.k * q[0], self.k * q[1], 0.0])

    def g(self, q):
        return np.zeros(0)

    def G(self, q):
        return np.zeros((0, 3))

    def A(self, q):
        return np.array([[-q[1], 0.0, 1.0]])

    def c(self, q):
        return np.zeros(1)

    def dCv_v(self, q, v):
        """[D_q(G v) v; D_q(A v + c) v]"""
        return np.array([-v[0] * v[1]])


class KnifeEdgeIncline:
    """Knife edge on the plane z cos(alpha) = x sin(alpha), q = (x, y, z, phi).
    L = m/2|v|^2 + J/2 phidot^2 - m gravity z; g = z cos a - x sin a;
    A = (-sin phi cos a, cos phi, -sin phi sin a, 0)."""
    name = "knife-edge-incline"
    kind = "mech"

    def __init__(self, params):
        p = dict(params)
        self.m = take(p, "m", [1.0])[0]
        self.J = take(p, "J", [0.25])[0]
        self.grav = take(p, "gravity", [9.81])[0]
        self.alpha = take(p, "alpha", [0.3])[0]
        self.q0 = take(p, "q0", [0.47766824456280301, -0.2, 0.14776010333066979, 0.4])
        self.v0 = take(p, "v0", [1.3198847644218856, 0.58412751346297574,
                                 0.40828820294314718, 2.0])
        if p:
            die("unknown parameter(s) for %s: %s" % (self.name, list(p)))
        if self.m <= 0 or self.J <= 0:
            die("m and J must be > 0")
        self.n, self.mh, self.mnh = 4, 1, 1
        self.Mdiag = np.array([self.m, self.m, self.m, self.J])
        sa, ca = np.sin(self.alpha), np.cos(self.alpha)
        self.Gm = np.array([[-sa, 0.0, ca, 0.0]])

    def U(self, q):
        return self.m * self.grav * q[2]

    def gradU(self, q):
        return np.array([0.0, 0.0, self.m * self.grav, 0.0])

    def g(self, q):
        return self.Gm @ q

    def G(self, q):
        return self.Gm

    def A(self, q):
        sa, ca = np.sin(self.alpha), np.cos(self.alpha)
        sp, cp = np.sin(q[3]), np.cos(q[3])
        return np.array([[-sp * ca, cp, -sp * sa, 0.0]])

    def c(self, q):
        return np.zeros(1)

    def dCv_v(self, q, v):
        sa, ca = np.sin(self.alpha), np.cos(self.alpha)
        sp, cp = np.sin(q[3]), np.cos(q[3])
        dA = v[3] * (-cp * ca * v[0] - sp * v[1] - cp * sa * v[2])
        return np.array([0.0, dA])

    def exact(self, t, q0, v0):
        """Closed form (own derivation, Bloch 1.6): in-plane coordinates
        X (up the slope, along e1 = (cos a, 0, sin a)) and Y = y;
        phi = phi0 + w t, u' = -gravity sin a cos phi, blade along
        (cos phi, sin phi) in (X, Y).  Used only as a self-test check of the
        DOP853 reference; requires w != 0."""
        a, gr = self.alpha, self.grav
        e1 = np.array([np.cos(a), 0.0, np.sin(a)])
        X0 = q0[:3] @ e1
        Y0 = q0[1]
        w = v0[3]
        ph0 = q0[3]
        vX0 = v0[:3] @ e1
        u0 = vX0 * np.cos(ph0) + v0[1] * np.sin(ph0)
        gs = gr * np.sin(a)
        ph = ph0 + w * t
        u = u0 - gs * (np.sin(ph) - np.sin(ph0)) / w
        # X' = u cos phi, Y' = u sin phi, integrate analytically
        # int cos(phi) = (sin ph - sin ph0)/w ; int sin(ph)cos(ph) = (sin^2 ph - sin^2 ph0)/(2w)
        C = u0 + gs * np.sin(ph0) / w      # u = C - gs sin(ph)/w
        Ic = (np.sin(ph) - np.sin(ph0)) / w
        Is = (np.cos(ph0) - np.cos(ph)) / w
        Isc = (np.sin(ph) ** 2 - np.sin(ph0) ** 2) / (2 * w)
        Iss = t / 2 - (np.sin(2 * ph) - np.sin(2 * ph0)) / (4 * w)
        X = X0 + C * Ic - gs / w * Isc
        Y = Y0 + C * Is - gs / w * Iss
        # back to 3D: the in-plane origin offset: q = X e1 + (0, Y, 0) + (q0 - X0 e1 - Y0 e2)
        off = q0[:3] - X0 * e1 - np.array([0.0, Y0, 0.0])
        pos = X * e1 + np.array([0.0, Y, 0.0]) + off
        vel = u * np.cos(ph) * e1 + np.array([0.0, u * np.sin(ph), 0.0])
        return np.r_[pos, ph], np.r_[vel, w]


class MechSolver:
    """Nonholonomic Lobatto IIIA-IIIB PRK (14); the holonomic constraints,
    if any, are stacked as in the constrained IIIA-IIIB SPRK (13): their
    stage multipliers Lh^1..Lh^s are all unknowns, g(Q^i) = 0 (i = 2..s)
    and the tangency G(q_{k+1}) v_{k+1} = 0 close the system."""

    def __init__(self, sys_, s, h):
        self.sy = sys_
        self.s, self.h = s, h
        self.a, self.b, self.c = lobatto_IIIA(s)
        self.ah = conjugate(self.a, self.b)
        self.Mi = 1.0 / sys_.Mdiag

    def project_initial(self, q, v):
        sy = self.sy
        if sy.mh:
            if np.max(np.abs(sy.g(q))) > 1e-10 * max(1.0, np.max(np.abs(q))):
                die("%s: q0 off the holonomic constraint, residual %.3g"
                                 % (sy.name, np.max(np.abs(sy.g(q)))))
            for _ in range(3):   # M-orthogonal projection of q onto g = 0
                G = sy.G(q)
                q = q - self.Mi * (G.T @ np.linalg.solve((G * self.Mi) @ G.T, sy.g(q)))
        C = np.vstack([sy.G(q), sy.A(q)])
        rhs = np.r_[np.zeros(sy.mh), sy.c(q)]
        res = np.max(np.abs(C @ v + rhs)) if len(rhs) else 0.0
        if res > 1e-10 * max(1.0, np.max(np.abs(v))):
            die("%s: initial velocity off the constraints, residual %.3g"
                             " (> 1e-10 relative; refused as the project does)" % (sy.name, res))
        v = v - self.Mi * (C.T @ np.linalg.solve((C * self.Mi) @ C.T, C @ v + rhs))
        return q, v

    def index1(self, q, v):
        """Paper-sign multipliers (lam_h, lam_nh) of the index-1 form."""
        sy = self.sy
        C = np.vstack([sy.G(q), sy.A(q)])
        lam = np.linalg.solve((C * self.Mi) @ C.T,
                              C @ (self.Mi * sy.gradU(q)) - sy.dCv_v(q, v))
        return lam[:sy.mh], lam[sy.mh:]

    def ode_rhs(self, t, y):
        sy = self.sy
        n = sy.n
        q, v = y[:n], y[n:]
        lh, lnh = self.index1(q, v)
        f = -sy.gradU(q) + sy.G(q).T @ lh + sy.A(q).T @ lnh
        return np.r_[v, self.Mi * f]

    # --- one step of (14) -------------------------------------------------
    def unpack(self, x, lam_k):
        sy, s, n = self.sy, self.s, self.sy.n
        V = x[:s * n].reshape(s, n)
        o = s * n
        Lh = x[o:o + s * sy.mh].reshape(s, sy.mh)
        o += s * sy.mh
        Lnh = np.vstack([lam_k.reshape(1, sy.mnh),
                         x[o:].reshape(s - 1, sy.mnh)])
        return V, Lh, Lnh

    def stages(self, x, q, p, lam_k):
        sy, h = self.sy, self.h
        V, Lh, Lnh = self.unpack(x, lam_k)
        Q = q[None, :] + h * (self.a @ V)
        W = np.array([-sy.gradU(Q[i]) + sy.G(Q[i]).T @ Lh[i] + sy.A(Q[i]).T @ Lnh[i]
                      for i in range(self.s)])
        pst = p[None, :] + h * (self.a @ W)          # IIIA weights
        return V, Lh, Lnh, Q, W, pst

    def residual(self, x, q, p, lam_k):
        sy, h, s = self.sy, self.h, self.s
        V, Lh, Lnh, Q, W, pst = self.stages(x, q, p, lam_k)
        RP = sy.Mdiag[None, :] * V - p[None, :] - h * (self.ah @ W)   # IIIB
        vst = pst * self.Mi[None, :]
        res = [RP.ravel()]
        for i in range(1, s):
            res.append(sy.g(Q[i]))
        if sy.mh:
            res.append(sy.G(Q[s - 1]) @ vst[s - 1])
        for i in range(1, s):
            res.append(sy.A(Q[i]) @ vst[i] + sy.c(Q[i]))
        return np.concatenate(res)

    def initial_guess(self, q, p, lh, lnh):
        s = self.s
        V = np.tile(self.Mi * p, s)
        return np.r_[V, np.tile(lh, s), np.tile(lnh, s - 1)]

    def step(self, q, p, lam_k, x0):
        F = lambda x: self.residual(x, q, p, lam_k)
        scale = 1.0 + np.max(np.abs(p))
        x, it = newton(F, x0, scale)
        V, Lh, Lnh, Q, W, pst = self.stages(x, q, p, lam_k)
        return Q[-1].copy(), pst[-1].copy(), Lh[-1].copy(), Lnh[-1].copy(), x

    def step_closed_s2(self, q, p, lam_k):
        """Notes 1.3 closed form for s = 2 (no holonomic constraints)."""
        sy, h, Mi = self.sy, self.h, self.Mi
        ph = p + 0.5 * h * (-sy.gradU(q) + sy.A(q).T @ lam_k)
        q1 = q + h * Mi * ph
        A1 = sy.A(q1)
        S = (A1 * Mi) @ A1.T
        lam1 = -(2.0 / h) * np.linalg.solve(
            S, A1 @ (Mi * (ph - 0.5 * h * sy.gradU(q1))) + sy.c(q1))
        p1 = ph + 0.5 * h * (-sy.gradU(q1) + A1.T @ lam1)
        return q1, p1, lam1

    def run(self, N, lambda0="exact", closed=False):
        sy = self.sy
        q, v = self.project_initial(sy.q0.copy(), sy.v0.copy())
        p = sy.Mdiag * v
        lh, lnh = self.index1(q, v)
        if lambda0 == "zero":
            lnh = np.zeros_like(lnh)
        rows = [(0.0, q, p, lh, lnh)]
        x = self.initial_guess(q, p, lh, lnh)
        for k in range(N):
            if closed:
                q, p, lnh = self.step_closed_s2(q, p, lnh)
            else:
                q, p, lh, lnh, x = self.step(q, p, lnh, x)
            rows.append(((k + 1) * self.h, q, p, lh, lnh))
        return rows

    def reference(self, times):
        sy = self.sy
        q, v = self.project_initial(sy.q0.copy(), sy.v0.copy())
        sol = solve_ivp(self.ode_rhs, (0.0, times[-1]), np.r_[q, v],
                        method="DOP853", rtol=1e-13, atol=1e-14, t_eval=times)
        out = []
        for j, t in enumerate(times):
            y = sol.y[:, j]
            qq, vv = y[:sy.n], y[sy.n:]
            lh, lnh = self.index1(qq, vv)
            out.append((t, qq, sy.Mdiag * vv, lh, lnh))
        return out


# ---------------------------------------------------------------------------
# Lie groups (matrix form).  Left trivialisation, tau = cay (notes 1.6).
# ---------------------------------------------------------------------------
class MatrixLieAlgebra:
    """Generic matrix-group operators from a basis of the algebra."""

    def __init__(self, basis, vee):
        self.E = basis               # list of d matrices
        self.d = len(basis)
        self.vee = vee
        self.I = np.eye(basis[0].shape[0])

    def hat(self, x):
        return sum(xi * Ei for xi, Ei in zip(x, self.E))

    def cay(self, x):
        X = self.hat(x)
        return np.linalg.solve(self.I - 0.5 * X, self.I + 0.5 * X)

    def dcay(self, x):
        X = self.hat(x)
        Lp = np.linalg.inv(self.I + 0.5 * X)
        Rm = np.linalg.inv(self.I - 0.5 * X)
        return np.column_stack([self.vee(Lp @ E @ Rm) for E in self.E])

    def dcayinv(self, x):
        X = self.hat(x)
        return np.column_stack([self.vee((self.I + 0.5 * X) @ E @ (self.I - 0.5 * X))
                                for E in self.E])

    def ddcay_star(self, x, y, pi):
        """(ddcay_x)^*(y, pi) = B' pi, B delta = ddcay_x(y, delta) =
        1/2[(I + X/2) D delta - delta D (I - X/2)], D = dcay_x(y)."""
        X = self.hat(x)
        D = self.hat(self.dcay(x) @ y)
        B = np.column_stack([self.vee(0.5 * ((self.I + 0.5 * X) @ D @ E
                                              - E @ D @ (self.I - 0.5 * X)))
                             for E in self.E])
        return B.T @ pi

    def Ad(self, Gm):
        Gi = np.linalg.inv(Gm)
        return np.column_stack([self.vee(Gm @ E @ Gi) for E in self.E])

    def ad(self, x):
        X = self.hat(x)
        return np.column_stack([self.vee(X @ E - E @ X) for E in self.E])


def _se2_basis():
    E1 = np.zeros((3, 3)); E1[0, 2] = 1
    E2 = np.zeros((3, 3)); E2[1, 2] = 1
    E3 = np.zeros((3, 3)); E3[0, 1] = -1; E3[1, 0] = 1
    vee = lambda X: np.array([X[0, 2], X[1, 2], 0.5 * (X[1, 0] - X[0, 1])])
    return MatrixLieAlgebra([E1, E2, E3], vee)


def _so3r2_basis():
    # block diag: SO(3) (3x3) and R^2 as affine 3x3 translations
    Es = []
    hat3 = [np.array([[0, 0, 0], [0, 0, -1], [0, 1, 0]], float),
            np.array([[0, 0, 1], [0, 0, 0], [-1, 0, 0]], float),
            np.array([[0, -1, 0], [1, 0, 0], [0, 0, 0]], float)]
    for H in hat3:
        E = np.zeros((6, 6)); E[:3, :3] = H; Es.append(E)
    for j in range(2):
        E = np.zeros((6, 6)); E[3 + j, 5] = 1.0; Es.append(E)

    def vee(X):
        W = X[:3, :3]
        return np.array([0.5 * (W[2, 1] - W[1, 2]), 0.5 * (W[0, 2] - W[2, 0]),
                         0.5 * (W[1, 0] - W[0, 1]), X[3, 5], X[4, 5]])
    return MatrixLieAlgebra(Es, vee)


class VerticalDisc:
    """SE(2), g = (x, y, theta), eta = (v1, v2, omega);
    l = 1/2(m v1^2 + m v2^2 + Iz w^2) - k/2 (x^2 + y^2); phi = v2."""
    name = "vertical-disc"
    kind = "lie"

    def __init__(self, params):
        p = dict(params)
        self.m = take(p, "m", [1.0])[0]
        self.Iz = take(p, "Iz", [1.0])[0]
        self.k = take(p, "k", [1.0])[0]
        self.q0 = take(p, "q0", [1.0, 0.5, 0.3])
        self.eta0 = take(p, "eta0", [0.2, 0.0, 0.7])
        if p:
            die("unknown parameter(s) for %s: %s" % (self.name, list(p)))
        if self.m <= 0 or self.Iz <= 0:
            die("m and Iz must be > 0")
        self.alg = _se2_basis()
        self.d, self.mnh, self.nq = 3, 1, 3
        self.Idiag = np.array([self.m, self.m, self.Iz])
        self.Amat = np.array([[0.0, 1.0, 0.0]])

    def g_from_q(self, q):
        c, s = np.cos(q[2]), np.sin(q[2])
        return np.array([[c, -s, q[0]], [s, c, q[1]], [0, 0, 1.0]])

    def q_from_g(self, Gm, qprev):
        th = np.arctan2(Gm[1, 0], Gm[0, 0])
        th = qprev[2] + np.remainder(th - qprev[2] + np.pi, 2 * np.pi) - np.pi
        return np.array([Gm[0, 2], Gm[1, 2], th])

    def project_g(self, q):
        return q

    def Fg(self, Gm):
        x, y = Gm[0, 2], Gm[1, 2]
        c, s = Gm[0, 0], Gm[1, 0]
        ss = x * c + y * s
        rr = -x * s + y * c
        return np.array([-self.k * ss, -self.k * rr, 0.0])

    def phi(self, Gm, eta):
        return self.Amat @ eta

    def D2phi(self, Gm):
        return self.Amat

    def D1phi_eta(self, Gm, eta):
        return np.zeros(1)

    def U(self, Gm):
        return 0.5 * self.k * (Gm[0, 2] ** 2 + Gm[1, 2] ** 2)

    def exact(self, t, q0, eta0):
        """notes 2.4 generalised to k (k/m + w^2 > 0); paper-sign lambda."""
        m, k = self.m, self.k
        x0, y0, th0 = q0
        v10, w = eta0[0], eta0[2]
        s0 = x0 * np.cos(th0) + y0 * np.sin(th0)
        r0 = -x0 * np.sin(th0) + y0 * np.cos(th0)
        Om = np.sqrt(k / m + w * w)
        sd0 = v10 + w * r0
        th = th0 + w * t
        s = s0 * np.cos(Om * t) + sd0 / Om * np.sin(Om * t)
        sd = -s0 * Om * np.sin(Om * t) + sd0 * np.cos(Om * t)
        r = r0 - w * (s0 * np.sin(Om * t) / Om + sd0 * (1 - np.cos(Om * t)) / Om ** 2)
        v1 = sd - w * r
        x = s * np.cos(th) - r * np.sin(th)
        y = s * np.sin(th) + r * np.cos(th)
        lam = m * w * v1 + k * r
        return np.array([x, y, th]), np.array([m * v1, 0.0, self.Iz * w]), np.array([lam])


class Turntable:
    """SO(3) x R^2, g = (R, x, y), eta = (w1, w2, w3, vx, vy) (body w);
    l = (vx^2+vy^2)/2 + r^2 (a w1^2 + b w2^2 + c w3^2)/2;
    phi1 = vx + Omega y - r w2, phi2 = vy - Omega x + r w1."""
    name = "turntable"
    kind = "lie"

    def __init__(self, params):
        p = dict(params)
        self.r = take(p, "r", [1.0])[0]
        self.abc = take(p, "abc", [0.4, 0.4, 0.4])
        self.Om = take(p, "Omega", [1.0])[0]
        R0 = take(p, "R0", [1, 0, 0, 0, 1, 0, 0, 0, 1])
        xy0 = take(p, "xy0", [1.0, 0.0])
        self.eta0 = take(p, "eta0", [0.2, 0.1, 0.5, 0.1, 0.8])
        if p:
            die("unknown parameter(s) for %s: %s" % (self.name, list(p)))
        if self.r <= 0 or np.any(self.abc <= 0):
            die("r and abc must be > 0")
        self.q0 = np.r_[R0, xy0]
        self.alg = _so3r2_basis()
        self.d, self.mnh, self.nq = 5, 2, 11
        r = self.r
        self.Idiag = np.r_[r * r * self.abc, 1.0, 1.0]
        self.Amat = np.array([[0.0, -r, 0.0, 1.0, 0.0], [r, 0.0, 0.0, 0.0, 1.0]])

    def project_g(self, q):
        R = q[:9].reshape(3, 3)
        U_, _, Vt = np.linalg.svd(R)
        Rp = U_ @ Vt
        if np.linalg.det(Rp) < 0 or np.max(np.abs(Rp - R)) > 1e-10:
            die("turntable: R0 is not a rotation (distance %.3g)"
                             % np.max(np.abs(Rp - R)))
        R = Rp
        return np.r_[R.ravel(), q[9:]]

    def g_from_q(self, q):
        Gm = np.eye(6)
        Gm[:3, :3] = q[:9].reshape(3, 3)
        Gm[3, 5], Gm[4, 5] = q[9], q[10]
        return Gm

    def q_from_g(self, Gm, qprev=None):
        return np.r_[Gm[:3, :3].ravel(), Gm[3, 5], Gm[4, 5]]

    def Fg(self, Gm):
        return np.zeros(5)

    def phi(self, Gm, eta):
        x, y = Gm[3, 5], Gm[4, 5]
        return self.Amat @ eta + np.array([self.Om * y, -self.Om * x])

    def D2phi(self, Gm):
        return self.Amat

    def D1phi_eta(self, Gm, eta):
        return np.array([self.Om * eta[4], -self.Om * eta[3]])

    def U(self, Gm):
        return 0.0


class LieSolver:
    """Nonholonomic Lie-group Lobatto IIIA-IIIB PRK (notes 1.9, paper 6.4,
    App. F) with tau = cay and the second-tangent term K."""

    def __init__(self, sys_, s, h):
        self.sy = sys_
        self.s, self.h = s, h
        self.a, self.b, self.c = lobatto_IIIA(s)
        self.alg = sys_.alg
        # weights b_j a_ji / b_i  (i row, j column)
        self.w = np.array([[self.b[j] * self.a[j, i] / self.b[i] for j in range(s)]
                           for i in range(s)])

    def project_initial(self, q, eta):
        sy = self.sy
        q = sy.project_g(q)
        Gm = sy.g_from_q(q)
        A = sy.D2phi(Gm)
        Ii = 1.0 / sy.Idiag
        res = np.max(np.abs(sy.phi(Gm, eta)))
        if res > 1e-10 * max(1.0, np.max(np.abs(eta))):
            die("%s: initial velocity off the constraints, residual %.3g"
                             " (> 1e-10 relative)" % (sy.name, res))
        eta = eta - Ii * (A.T @ np.linalg.solve((A * Ii) @ A.T, sy.phi(Gm, eta)))
        return q, eta

    def index1(self, Gm, eta):
        """Paper-sign lambda: mu' = ad_eta' mu + F + A' lambda, d/dt phi = 0."""
        sy = self.sy
        A = sy.D2phi(Gm)
        Ii = 1.0 / sy.Idiag
        mu = sy.Idiag * eta
        f = self.alg.ad(eta).T @ mu + sy.Fg(Gm)
        return -np.linalg.solve((A * Ii) @ A.T, A @ (Ii * f) + sy.D1phi_eta(Gm, eta))

    def unpack(self, x, lam_k):
        s, d, m = self.s, self.sy.d, self.sy.mnh
        H = x[:s * d].reshape(s, d)
        L = np.vstack([lam_k.reshape(1, m), x[s * d:].reshape(s - 1, m)])
        return H, L

    def stages(self, x, g, mu, lam_k):
        sy, alg, h, s = self.sy, self.alg, self.h, self.s
        H, L = self.unpack(x, lam_k)
        Xi = h * (self.a @ H)
        out = []
        Fbar = []
        Gs, Ns, Ks, Pis = [], [], [], []
        for i in range(s):
            Gi = g @ alg.cay(Xi[i])
            dc = alg.dcay(Xi[i])
            etat = dc @ H[i]
            Fi = sy.Fg(Gi) + sy.D2phi(Gi).T @ L[i]
            Ni = dc.T @ Fi
            Pii = dc.T @ (sy.Idiag * etat)
            Ki = alg.ddcay_star(Xi[i], H[i], Pii)
            Fbar.append(alg.dcayinv(-Xi[i]).T @ Ni)
            Gs.append(Gi); Ns.append(Ni); Ks.append(Ki); Pis.append(Pii)
        Fbar = np.array(Fbar)
        mus = []
        for i in range(s):
            Adi = alg.Ad(alg.cay(Xi[i]))
            mus.append(Adi.T @ (mu + h * (self.a[i] @ Fbar)))
        return H, L, Xi, Gs, np.array(Ns), np.array(Ks), np.array(Pis), mus

    def residual(self, x, g, mu, lam_k):
        sy, h, s = self.sy, self.h, self.s
        H, L, Xi, Gs, Ns, Ks, Pis, mus = self.stages(x, g, mu, lam_k)
        xi = Xi[-1]
        mu1 = mus[-1]                 # = Ad_{cay xi}'(mu + h sum b_j Fbar_j)
        dcx = self.alg.dcay(xi)
        res = []
        for i in range(s):
            res.append(Pis[i] + h * (self.w[i] @ (Ns + Ks)) - dcx.T @ mu1)
        for i in range(1, s):
            res.append(sy.phi(Gs[i], mus[i] / sy.Idiag))
        return np.concatenate(res)

    def step(self, g, mu, lam_k, x0):
        F = lambda x: self.residual(x, g, mu, lam_k)
        scale = 1.0 + np.max(np.abs(mu))
        x, it = newton(F, x0, scale)
        H, L, Xi, Gs, Ns, Ks, Pis, mus = self.stages(x, g, mu, lam_k)
        return Gs[-1], mus[-1], L[-1].copy(), x

    def run(self, N, lambda0="exact", Kterm=True):
        sy = self.sy
        q, eta = self.project_initial(sy.q0.copy(), sy.eta0.copy())
        g = sy.g_from_q(q)
        mu = sy.Idiag * eta
        lam = self.index1(g, eta)
        if lambda0 == "zero":
            lam = np.zeros_like(lam)
        rows = [(0.0, q, mu, np.zeros(0), lam)]
        x = np.r_[np.tile(eta, self.s), np.tile(lam, self.s - 1)]
        for k in range(N):
            g, mu, lam, x = self.step(g, mu, lam, x)
            q = sy.q_from_g(g, q)
            rows.append(((k + 1) * self.h, q, mu, np.zeros(0), lam))
        return rows

    def reference(self, times):
        """DOP853 on g' = g hat(eta), mu' = ad_eta' mu + F + A' lambda
        (matrix entries of g integrated directly)."""
        sy, alg = self.sy, self.alg
        q, eta = self.project_initial(sy.q0.copy(), sy.eta0.copy())
        g0 = sy.g_from_q(q)
        nn = g0.shape[0]

        def rhs(t, y):
            Gm = y[:nn * nn].reshape(nn, nn)
            mu = y[nn * nn:]
            et = mu / sy.Idiag
            lam = self.index1(Gm, et)
            dG = Gm @ alg.hat(et)
            dmu = alg.ad(et).T @ mu + sy.Fg(Gm) + sy.D2phi(Gm).T @ lam
            return np.r_[dG.ravel(), dmu]
        sol = solve_ivp(rhs, (0.0, times[-1]), np.r_[g0.ravel(), sy.Idiag * eta],
                        method="DOP853", rtol=1e-13, atol=1e-14, t_eval=times)
        out = []
        qprev = q
        for j, t in enumerate(times):
            Gm = sol.y[:nn * nn, j].reshape(nn, nn)
            mu = sol.y[nn * nn:, j]
            qq = sy.q_from_g(Gm, qprev)
            qprev = qq
            out.append((t, qq, mu, np.zeros(0), self.index1(Gm, mu / sy.Idiag)))
        return out


SYSTEMS = {"nonholonomic-particle": NonholonomicParticle,
           "knife-edge-incline": KnifeEdgeIncline,
           "vertical-disc": VerticalDisc,
           "turntable": Turntable}


def make(system, s, h, params):
    sy = SYSTEMS[system](params)
    return (MechSolver if sy.kind == "mech" else LieSolver)(sy, s, h)


def print_csv(solver, rows, out=sys.stdout):
    sy = solver.sy
    nq = len(rows[0][1]); n = len(rows[0][2])
    mh = len(rows[0][3]); mnh = len(rows[0][4])
    hdr = (["t"] + ["q%d" % (i + 1) for i in range(nq)]
           + ["p%d" % (i + 1) for i in range(n)]
           + ["lambda%d" % (i + 1) for i in range(mh)]
           + ["mu%d" % (i + 1) for i in range(mnh)])
    out.write(",".join(hdr) + "\n")
    for (t, q, p, lh, lnh) in rows:
        vals = np.r_[t, q, p, -lh, -lnh] + 0.0   # project sign: minus the paper's; no -0
        out.write(",".join("%.17g" % v for v in vals) + "\n")


# ---------------------------------------------------------------------------
# Self-tests
# ---------------------------------------------------------------------------
def errors(rows, ref):
    """max over nodes and final-time |.|_inf errors of q, p, multipliers."""
    eq = [np.max(np.abs(r[1] - f[1])) for r, f in zip(rows, ref)]
    ep = [np.max(np.abs(r[2] - f[2])) for r, f in zip(rows, ref)]
    el = [np.max(np.abs(np.r_[r[3], r[4]] - np.r_[f[3], f[4]])) for r, f in zip(rows, ref)]
    return (max(eq), max(ep), max(el)), (eq[-1], ep[-1], el[-1])


def order_table(system, params, s, T, Ns, lambda0="exact", ref_fn=None, out=print):
    errs = []
    for N in Ns:
        sol = make(system, s, T / N, params)
        rows = sol.run(N, lambda0=lambda0)
        times = np.array([r[0] for r in rows])
        ref = ref_fn(sol, times) if ref_fn else sol.reference(times)
        errs.append(errors(rows, ref))
    out("  s=%d T=%g lambda0=%s   (max over nodes | final time)" % (s, T, lambda0))
    out("   %5s %10s %10s %10s | %10s %10s %10s | %5s %5s %5s | %5s %5s %5s"
        % ("N", "e_q", "e_p", "e_lam", "eT_q", "eT_p", "eT_lam",
           "o_q", "o_p", "o_lam", "oT_q", "oT_p", "oT_lm"))
    for j, N in enumerate(Ns):
        (a, b, c), (d, e, f) = errs[j]
        if j == 0:
            o = [""] * 6
        else:
            prev = errs[j - 1][0] + errs[j - 1][1]
            cur = errs[j][0] + errs[j][1]
            rat = np.log(Ns[j] / Ns[j - 1])
            o = ["%5.2f" % (np.log(pv / cv) / rat) if cv > 0 and pv > 0 else "  -"
                 for pv, cv in zip(prev, cur)]
        out("   %5d %10.3e %10.3e %10.3e | %10.3e %10.3e %10.3e | %5s %5s %5s | %5s %5s %5s"
            % ((N, a, b, c, d, e, f) + tuple(o)))
    return errs


def selftest(quick=False):
    ok = True
    P = print
    P("== tableaux ==")
    for s in (2, 3, 4, 5):
        A, b, c = lobatto_IIIA(s)
        Ah = conjugate(A, b)
        Bp = max(abs(b @ c ** (k - 1) - 1.0 / k) for k in range(1, 2 * s - 1))
        Cq = max(np.max(np.abs(A @ c ** (k - 1) - c ** k / k)) for k in range(1, s + 1))
        Dr = max(np.max(np.abs((b * c ** (k - 1)) @ A - b * (1 - c ** k) / k))
                 for k in range(1, s - 1)) if s > 2 else 0.0
        Dh = max(np.max(np.abs((b * c ** (k - 1)) @ Ah - b * (1 - c ** k) / k))
                 for k in range(1, s + 1))
        Ch = max(np.max(np.abs(Ah @ c ** (k - 1) - c ** k / k))
                 for k in range(1, s - 1)) if s > 2 else 0.0
        H1p = np.max(np.abs(Ah[:, -1])); H2p = np.max(np.abs(Ah[:, 0] - b[0]))
        e = np.ones(s)
        Rinf = 1.0 - b @ np.linalg.solve(A[1:, 1:], e[1:]) if False else None
        P("  s=%d  B(2s-2) %.1e  C(s) %.1e  D(s-2) %.1e | IIIB: C^(s-2) %.1e D^(s) %.1e"
          "  H1' %.1e H2' %.1e" % (s, Bp, Cq, Dr, Ch, Dh, H1p, H2p))
        ok &= max(Bp, Cq, Dr, Dh, Ch, H1p, H2p) < 1e-13
    A3, b3, c3 = lobatto_IIIA(3)
    d3 = np.max(np.abs(A3 - np.array([[0, 0, 0], [5 / 24, 1 / 3, -1 / 24], [1 / 6, 2 / 3, 1 / 6]])))
    A4, b4, c4 = lobatto_IIIA(4)
    d4 = np.max(np.abs(c4 - np.array([0, (5 - 5 ** .5) / 10, (5 + 5 ** .5) / 10, 1])))
    A5, b5, c5 = lobatto_IIIA(5)
    d5 = np.max(np.abs(c5 - np.array([0, (7 - 21 ** .5) / 14, .5, (7 + 21 ** .5) / 14, 1])))
    P("  s=3 A vs notes %.1e; s=4 c %.1e; s=5 c %.1e; IIIB s=3 = %s"
      % (d3, d4, d5, np.array2string(conjugate(A3, b3), precision=4).replace("\n", "")))
    ok &= max(d3, d4, d5) < 1e-14

    # non-default particle data
    pp = {"m": [1.3], "k": [0.7], "q0": [0.4, -0.9, 0.2], "v0": [-0.5, 0.35, 0.45]}
    P("\n== (a) s = 2 general Newton vs closed form (particle, m=1.3 k=0.7"
      " q0=(0.4,-0.9,0.2) v0=(-0.5,0.35,0.45) projected), h = 0.1, 50 steps ==")
    sol = make("nonholonomic-particle", 2, 0.1, pp)
    r1 = sol.run(50)
    r2 = sol.run(50, closed=True)
    dq = max(np.max(np.abs(a[1] - b[1])) for a, b in zip(r1, r2))
    dp = max(np.max(np.abs(a[2] - b[2])) for a, b in zip(r1, r2))
    dl = max(np.max(np.abs(a[4] - b[4])) for a, b in zip(r1, r2))
    phi = max(abs(sol.sy.A(r[1]) @ (r[2] / sol.sy.Mdiag))[0] for r in r1)
    P("  max diff q %.2e  p %.2e  lambda %.2e ; max |Phi(q_k,v_k)| %.2e" % (dq, dp, dl, phi))
    ok &= max(dq, dp, dl) < 1e-12
    # the same also for s = 2 on the defaults
    sol0 = make("nonholonomic-particle", 2, 0.1, {})
    r0 = sol0.run(1)
    P("  defaults: lambda_0 (paper sign) = %.16g (notes: -0.208); printed mu_0 = %.16g"
      % (r0[0][4][0], -r0[0][4][0]))
    ref2 = sol0.reference(np.array([0.0, 2.0]))
    P("  defaults: reference lambda(2) (paper sign) = %.14g (notes: 0.41117805684)"
      % ref2[-1][4][0])

    T = 2.0
    NsA = [10, 20, 40, 80, 160] if not quick else [10, 20, 40]
    Ns4 = [5, 10, 20, 40] if not quick else [5, 10, 20]
    P("\n== (b) global orders, particle (same non-default data), reference DOP853 rtol 1e-13 ==")
    P("  expected (Cor. 5.2.1): s=2 (2,2,2), s=3 (4,4,2), s=4 (6,6,4)")
    for s, Ns in ((2, NsA), (3, NsA), (4, Ns4)):
        order_table("nonholonomic-particle", pp, s, T, Ns)
    P("\n== (c) lambda0 = zero, s = 3 (expected: q, p order drops 4 -> 2, lambda error O(1)) ==")
    order_table("nonholonomic-particle", pp, 3, T, NsA, lambda0="zero")

    P("\n== knife-edge-incline (stacked (13)+(14), own construction), T = 2 ==")
    ks = make("knife-edge-incline", 2, 0.1, {})
    qk, vk = ks.project_initial(ks.sy.q0.copy(), ks.sy.v0.copy())
    lh, lnh = ks.index1(qk, vk)
    sy = ks.sy
    u = vk[:3] @ np.array([np.cos(sy.alpha) * np.cos(qk[3]), np.sin(qk[3]),
                           np.sin(sy.alpha) * np.cos(qk[3])])
    P("  lambda_0 (project sign) = %.15g (docs: -m g cos a = %.15g); mu_0 = %.15g"
      " (docs: m g sin a sin phi - m u phidot = %.15g)"
      % (-lh[0], -sy.m * sy.grav * np.cos(sy.alpha), -lnh[0],
         sy.m * sy.grav * np.sin(sy.alpha) * np.sin(qk[3]) - sy.m * u * vk[3]))
    rf = ks.reference(np.array([0.0, 2.0]))
    qe, ve = sy.exact(2.0, qk, vk)
    P("  DOP853 reference vs own closed form at T=2: q %.1e, v %.1e"
      % (np.max(np.abs(rf[-1][1] - qe)), np.max(np.abs(rf[-1][2] / sy.Mdiag - ve))))
    for s, Ns in ((2, NsA), (3, NsA), (4, Ns4)):
        order_table("knife-edge-incline", {}, s, T, Ns)

    P("\n== Lie operators (generic matrix formulas vs notes 1.6 closed forms) ==")
    alg = _se2_basis()
    rng = np.random.default_rng(1)
    X = rng.standard_normal(3); Y = rng.standard_normal(3); Pq = rng.standard_normal(3)
    v1, v2, w = X
    C = alg.cay(X)
    Cn = np.array([[(4 - w * w) / (4 + w * w), -4 * w / (4 + w * w), 2 * (2 * v1 - w * v2) / (4 + w * w)],
                   [4 * w / (4 + w * w), (4 - w * w) / (4 + w * w), 2 * (2 * v2 + w * v1) / (4 + w * w)],
                   [0, 0, 1]])
    Dn = 2 / (4 + w * w) * np.array([[2, w, -v2], [-w, 2, v1], [0, 0, 2]])
    Din = np.array([[1, -w / 2, v2 / 2 + w * v1 / 4], [w / 2, 1, -v1 / 2 + w * v2 / 4], [0, 0, 1 + w * w / 4]])
    d = alg.dcay(X) @ Y
    Jm = np.array([[0, -1], [1, 0]])
    Kv = -0.5 * d[2] * Jm @ Pq[:2] - 0.25 * w * d[2] * Pq[:2]
    Kw = -0.5 * (Jm @ d[:2]) @ Pq[:2] - 0.25 * d[2] * (X[:2] @ Pq[:2]) - 0.5 * w * d[2] * Pq[2]
    e1 = [np.max(np.abs(C - Cn)), np.max(np.abs(alg.dcay(X) - Dn)),
          np.max(np.abs(alg.dcayinv(X) - Din)),
          np.max(np.abs(alg.ddcay_star(X, Y, Pq) - np.r_[Kv, Kw]))]
    # finite-difference checks: T cay . Y = cay dcay Y ; d/dX (dcay_X Y) delta = dcay ddcay
    dl = rng.standard_normal(3); ep = 1e-6
    fd1 = (alg.cay(X + ep * Y) - alg.cay(X - ep * Y)) / (2 * ep)
    e_fd1 = np.max(np.abs(fd1 - C @ alg.hat(alg.dcay(X) @ Y)))
    fd2 = (alg.dcay(X + ep * dl) @ Y - alg.dcay(X - ep * dl) @ Y) / (2 * ep)
    B = np.column_stack([alg.ddcay_star(X, Y, np.eye(3)[j]) for j in range(3)]).T
    e_fd2 = np.max(np.abs(fd2 - alg.dcay(X) @ (B @ dl)))
    P("  SE(2): cay %.1e dcay %.1e dcay^-1 %.1e K %.1e ; FD: Tcay %.1e, ddcay %.1e"
      % tuple(e1 + [e_fd1, e_fd2]))
    a3 = _so3r2_basis()
    Z = rng.standard_normal(5); Y5 = rng.standard_normal(5); P5 = rng.standard_normal(5)
    om = Z[:3]; th = om @ om
    hat = lambda u: np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    Cso = np.eye(3) + 4 / (4 + th) * (hat(om) + hat(om) @ hat(om) / 2)
    Dso = 2 / (4 + th) * (2 * np.eye(3) - hat(om))
    Dsoi = np.eye(3) + 0.5 * hat(om) + 0.25 * np.outer(om, om)
    dd = Dso @ Y5[:3]; pi = P5[:3]
    Kso = 0.5 * np.cross(pi, dd) - 0.25 * (om @ dd) * pi - 0.25 * (om @ pi) * dd
    e2 = [np.max(np.abs(a3.cay(Z)[:3, :3] - Cso)), np.max(np.abs(a3.dcay(Z)[:3, :3] - Dso)),
          np.max(np.abs(a3.dcayinv(Z)[:3, :3] - Dsoi)),
          np.max(np.abs(a3.ddcay_star(Z, Y5, P5)[:3] - Kso)),
          np.max(np.abs(a3.dcay(Z)[3:, 3:] - np.eye(2))) + np.max(np.abs(a3.ddcay_star(Z, Y5, P5)[3:]))]
    P("  SO(3)xR2: cay %.1e dcay %.1e dcay^-1 %.1e K %.1e ; R2 block identity/zero %.1e" % tuple(e2))
    ok &= max(e1 + e2 + [e_fd1 / 1e3, e_fd2 / 1e3]) < 1e-12

    P("\n== (d) vertical-disc (SE(2), cay) vs the closed form of notes 2.4, T = 2 ==")
    vd = make("vertical-disc", 2, 0.1, {})
    g0 = vd.sy.g_from_q(vd.sy.q0)
    P("  defaults: lambda_0 (paper sign) = %.16g (notes: 0.3221480379014634)"
      % vd.index1(g0, vd.sy.eta0)[0])

    def disc_exact(sol, times):
        sy = sol.sy
        q, eta = sol.project_initial(sy.q0.copy(), sy.eta0.copy())
        out = []
        for t in times:
            qq, mu, lam = sy.exact(t, q, eta)
            out.append((t, qq, mu, np.zeros(0), lam))
        return out
    vp = {"m": [1.7], "Iz": [0.6], "k": [1.3], "q0": [-0.6, 0.9, 1.1], "eta0": [0.8, 0.0, -1.2]}
    rr = make("vertical-disc", 2, 0.1, vp)
    tt = np.linspace(0, 2, 11)
    ee = disc_exact(rr, tt); dd_ = rr.reference(tt)
    P("  held-out data m=1.7 Iz=0.6 k=1.3 q0=(-0.6,0.9,1.1) eta0=(0.8,0,-1.2):"
      " closed form vs DOP853: q %.1e mu %.1e lam %.1e"
      % (max(np.max(np.abs(a[1] - b[1])) for a, b in zip(ee, dd_)),
         max(np.max(np.abs(a[2] - b[2])) for a, b in zip(ee, dd_)),
         max(np.max(np.abs(a[4] - b[4])) for a, b in zip(ee, dd_))))
    for s, Ns in ((2, NsA), (3, NsA), (4, Ns4)):
        order_table("vertical-disc", vp, s, T, Ns, ref_fn=disc_exact)

    P("\n== turntable (SO(3) x R^2, cay) vs DOP853 on the Euler-Poincare-d'Alembert"
      " equations, T = 2 ==")
    tp = {"r": [0.8], "abc": [0.4, 0.4, 0.4], "Omega": [-0.7],
          "R0": list(Turntable({}).alg.cay(np.array([0.3, -0.2, 0.5, 0, 0]))[:3, :3].ravel()),
          "xy0": [0.5, -0.3], "eta0": [0.3, -0.4, 0.6, 0.0, 0.0]}
    tt_ = make("turntable", 2, 0.1, {})
    q, eta = tt_.project_initial(tt_.sy.q0.copy(), tt_.sy.eta0.copy())
    P("  defaults: lambda_0 (paper sign) = %s (notes: (-8/35, 1/35) = (%.6f, %.6f))"
      % (tt_.index1(tt_.sy.g_from_q(q), eta), -8 / 35, 1 / 35))
    P("  held-out data: r=0.8 a=b=c=0.4 Omega=-0.7 R0=cay(0.3,-0.2,0.5) xy0=(0.5,-0.3)"
      " omega0=(0.3,-0.4,0.6), v0 from the constraints")
    for s, Ns in ((2, NsA), (3, NsA if not quick else NsA[:3])):
        order_table("turntable", tp, s, T, Ns)
    # invariants of the a = b = c case
    sol = make("turntable", 3, 0.1, tp)
    rows = sol.run(60)
    sy = sol.sy
    a_ = sy.abc[0]

    def invs(r):
        q, mu = r[1], r[2]
        w_ = mu[:3] / sy.Idiag[:3]
        x, y = q[9], q[10]
        C1 = sy.r * w_[0] - sy.Om * x / (1 + a_)
        C2 = sy.r * w_[1] - sy.Om * y / (1 + a_)
        return np.array([w_[2], C1, C2])
    i0 = invs(rows[0])
    drift = max(np.max(np.abs(invs(r) - i0)) for r in rows)
    P("  s=3 h=0.1 60 steps: max drift of (omega_zeta, C1, C2) = %.1e" % drift)
    P("\nselftest %s" % ("PASSED (consistency checks; orders above are as measured)" if ok else "FAILED"))
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("system", nargs="?", choices=sorted(SYSTEMS))
    ap.add_argument("--s", type=int, default=2)
    ap.add_argument("--h", type=float)
    ap.add_argument("--N", type=int)
    ap.add_argument("--set", action="append", default=[], metavar="name=v1,v2")
    ap.add_argument("--lambda0", choices=["exact", "zero"], default="exact")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--quick", action="store_true", help="shorter self-test")
    args = ap.parse_args(argv)
    if args.selftest:
        return 0 if selftest(args.quick) else 1
    if args.system is None or args.h is None or args.N is None:
        ap.error("SYSTEM, --h and --N are required (or --selftest)")
    if args.s < 2:
        ap.error("--s must be >= 2 (Lobatto IIIA-IIIB)")
    sol = make(args.system, args.s, args.h, parse_set(args.set))
    try:
        rows = sol.run(args.N, lambda0=args.lambda0)
    except NewtonFailure as e:
        sys.stderr.write("step failed: %s\n" % e)
        return 1
    print_csv(sol, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
