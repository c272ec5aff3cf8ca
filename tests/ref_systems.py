#!/usr/bin/python3
"""Independent reference trajectories for nine vistudy systems (Python, sympy + scipy).

This file is a second derivation, written without reading the C sources: the
equations of motion are derived symbolically (sympy) from the Lagrangian and the
constraint, then integrated with scipy's DOP853 at tight tolerances.

Systems
  lotka-volterra         tyranowski2014 (5.7)-(5.10): degenerate L = alpha(q).qdot - H(q)
  kepler                 tyranowski2014 (5.1)-(5.3): degenerate, q = (x, y, p_x, p_y); --exact: any
                         bound orbit by Kepler's equation (mpmath, Newton), Lagrange's f and g
  point-vortices         tyranowski2014 (5.4)-(5.6): degenerate, two vortices; --exact: rigid
                         rotation about the centre of vorticity (translation if G1 + G2 = 0)
  nonholonomic-particle  demartin2018 sec. 7.1: L = m|v|^2/2 - k(x^2+y^2)/2, Phi = v_z - y v_x
  vertical-disc          demartin2018 sec. 7.4: knife-edge disc with a spring, coordinates
                         (x, y, theta), Phi = v_y cos(theta) - v_x sin(theta) (no rolling angle)
  knife-edge-incline     Bloch sec. 1.6: knife edge on an inclined plane, q = (x, y, z, phi), one
                         holonomic (the plane, stacked at velocity level) and one nonholonomic
                         constraint; --exact: closed form in mpmath
  turntable              demartin2018 sec. 7.5: ball on a turntable, SO(3) x R^2 in the embedding
                         (R, x, y), literal body-omega constraints; the Euler equations with the
                         rolling force integrated as written (lambda by sympy from d/dt phi = 0)
  pendulum-3d            betsch-ggl sec. 6.1 (92)-(93): L = m|v|^2/2 + m b.q, g = (q.q/l^2 - 1)/2
  gyro-top               betsch-ggl sec. 6.2 (100)-(112): director top, 12 coordinates, the 9
                         constraints (103)-(104), data derived by (108)-(112); holonomic systems
                         are integrated in the index-1 form [M G^T; G 0] solved numerically

Degenerate systems: the Euler-Lagrange equations (Dalpha^T - Dalpha) qdot = grad H are derived
by sympy from L and solved for qdot; p = alpha(q); --extra adds H and the momentum maps (kepler:
L = x p_y - y p_x; point-vortices: I, Px, Py).

Sign of the nonholonomic multiplier (the harness's convention, NOT the paper's):
      d/dt(dL/dv) - dL/dq = -A(q)^T lambda     i.e.  M qdd = -grad V - A^T lambda
  demartin2018 eq. (2) uses +A^T lambda, so lambda_here = -lambda_paper.

Usage
  python3 tests/ref_systems.py list
  python3 tests/ref_systems.py equations SYSTEM
  python3 tests/ref_systems.py SYSTEM [--set name=v1,v2,... ...] --h H --T T [--exact]
                               [--rtol R] [--atol A] [--extra] [--no-estimate] [--out FILE|-]
  python3 tests/ref_systems.py selftest

Values: "%.17g" (17 significant digits, round-trips exactly). A value in --set may
also be a sympy expression such as 3*sqrt(10)/5 or pi/10.
"""

import os
import sys
import warnings

try:
    import numpy as np
    import scipy  # noqa: F401
    import sympy as sp
except ImportError:  # e.g. a pyenv python3 without numpy: retry with Debian's interpreter
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
            and not os.environ.get("REF_SYSTEMS_REEXEC"):
        os.environ["REF_SYSTEMS_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

from scipy.integrate import solve_ivp, quad
from scipy.special import ellipkinc
from sympy.calculus.euler import euler_equations

RTOL_DEFAULT = 2.3e-14   # just above scipy's floor 100*eps; verified against exact solutions
ATOL_DEFAULT = 1e-15
RESIDUAL_MAX = 1e-10


class RefError(Exception):
    pass


def fmt(x):
    return "%.17g" % x


# ----------------------------------------------------------------------------------------------
# parameters
# ----------------------------------------------------------------------------------------------

class Param:
    def __init__(self, name, default, count, meaning):
        self.name, self.default, self.count, self.meaning = name, default, count, meaning


def parse_value(s):
    s = s.strip()
    try:
        return float(s)
    except ValueError:
        pass
    try:
        val = float(sp.sympify(s).evalf(30))
    except Exception as e:  # noqa: BLE001
        raise RefError("cannot parse value %r (%s)" % (s, e))
    return val


def parse_sets(items):
    """['a1=2,q0=1.5,0.7', ...] -> [('a1',[2.0]), ('q0',[1.5,0.7])]"""
    out = []
    for item in items:
        cur = None
        for tok in item.split(","):
            if "=" in tok:
                name, val = tok.split("=", 1)
                name = name.strip()
                if not name:
                    raise RefError("empty parameter name in --set %r" % item)
                cur = (name, [])
                out.append(cur)
                if val.strip() != "":
                    cur[1].append(parse_value(val))
            else:
                if cur is None:
                    raise RefError("--set %r: a value before any name=" % item)
                if tok.strip() == "":
                    raise RefError("--set %r: empty value" % item)
                cur[1].append(parse_value(tok))
    return out


# ----------------------------------------------------------------------------------------------
# common integration driver
# ----------------------------------------------------------------------------------------------

def node_times(h, T):
    if not (h > 0 and T >= 0 and np.isfinite(h) and np.isfinite(T)):
        raise RefError("need h > 0 and T >= 0")
    N = int(round(T / h))
    if abs(N * h - T) > 1e-9 * max(1.0, abs(T)):
        raise RefError("T = %r is not a whole multiple of h = %r" % (T, h))
    return np.arange(N + 1) * h, N


def integrate(rhs, y0, tk, rtol, atol):
    if tk[-1] == 0.0:
        return np.array(y0, dtype=float)[None, :].copy()
    sol = solve_ivp(rhs, (0.0, tk[-1]), np.array(y0, dtype=float), method="DOP853",
                    rtol=rtol, atol=atol, dense_output=True)
    if sol.status != 0:
        raise RefError("DOP853 failed: %s" % sol.message)
    Y = sol.sol(tk).T.copy()
    Y[0] = y0  # the node t_0 is the initial datum exactly
    return Y


# ----------------------------------------------------------------------------------------------
# base class
# ----------------------------------------------------------------------------------------------

class System:
    name = ""
    title = ""
    params = []
    columns = []
    extra_columns = []
    coord_doc = ""
    has_exact = False

    def defaults(self):
        return {p.name: (None if p.default is None else list(p.default)) for p in self.params}

    def resolve(self, sets):
        vals = self.defaults()
        spec = {p.name: p for p in self.params}
        given = set()
        for name, v in sets:
            if name not in spec:
                raise RefError("%s: unknown parameter %r (known: %s)"
                               % (self.name, name, ", ".join(spec)))
            if len(v) != spec[name].count:
                raise RefError("%s: parameter %s takes %d value(s), got %d"
                               % (self.name, name, spec[name].count, len(v)))
            vals[name] = list(v)
            given.add(name)
        self.check_params(vals, given)
        return vals

    def check_params(self, vals, given):
        pass

    def table(self, vals, tk, rtol, atol, extra):
        raise NotImplementedError

    def exact_table(self, vals, tk, extra):
        raise RefError("%s: no closed-form solution" % self.name)


# ----------------------------------------------------------------------------------------------
# 1. Lotka-Volterra as a degenerate Lagrangian (tyranowski2014 (5.10))
# ----------------------------------------------------------------------------------------------

class LotkaVolterra(System):
    name = "lotka-volterra"
    title = "Lotka-Volterra, degenerate Lagrangian L = alpha(q).qdot - H(q) (tyranowski2014 (5.10))"
    params = [
        Param("a1", [1.0], 1, "H coefficient of u"),
        Param("a2", [1.0], 1, "H coefficient of v"),
        Param("b1", [-1.0], 1, "H coefficient of log u"),
        Param("b2", [-2.0], 1, "H coefficient of log v"),
        Param("H0", [2.0], 1, "constant subtracted from H (H = 0 on the default orbit)"),
        Param("q0", [1.0, 1.0], 2, "initial (u, v), u, v > 0"),
    ]
    columns = ["t", "q1", "q2", "p1", "p2"]
    extra_columns = ["H"]
    coord_doc = ("q = (u, v); p = alpha(q) = (log(v)/u + v, u); "
                 "H = a1 u + a2 v + b1 log u + b2 log v - H0")

    def __init__(self):
        t = sp.Symbol("t")
        a1, a2, b1, b2, H0 = sp.symbols("a1 a2 b1 b2 H0", real=True)
        uf, vf = sp.Function("u")(t), sp.Function("v")(t)
        alpha = [sp.log(vf) / uf + vf, uf]
        H = a1 * uf + a2 * vf + b1 * sp.log(uf) + b2 * sp.log(vf) - H0
        L = alpha[0] * uf.diff(t) + alpha[1] * vf.diff(t) - H
        el = euler_equations(L, [uf, vf], t)  # dL/dq - d/dt dL/dqdot = 0
        ud, vd = uf.diff(t), vf.diff(t)
        sol = sp.solve([e.lhs for e in el], [ud, vd], dict=True)
        if len(sol) != 1:
            raise RefError("LV: Euler-Lagrange equations not uniquely solvable for qdot")
        u, v = sp.symbols("u v", positive=True)
        sub = {uf: u, vf: v}
        self.L = L
        self.el = [sp.simplify(e.lhs.subs({ud: sp.Symbol("udot"), vd: sp.Symbol("vdot")}).subs(sub))
                   for e in el]
        self.f = [sp.factor(sp.simplify(sol[0][ud].subs(sub))),
                  sp.factor(sp.simplify(sol[0][vd].subs(sub)))]
        self.alpha = [a.subs(sub) for a in alpha]
        self.H = H.subs(sub)
        # M = Dalpha^T - Dalpha (tyranowski2014 (2.8)), printed for the record
        Da = sp.Matrix(self.alpha).jacobian([u, v])
        self.M = sp.simplify(Da.T - Da)
        args = (u, v, a1, a2, b1, b2, H0)
        self._f = sp.lambdify(args, self.f, "numpy")
        self._alpha = sp.lambdify(args, self.alpha, "numpy")
        self._H = sp.lambdify(args, self.H, "numpy")
        self.syms = args

    def equations(self):
        u, v = self.syms[:2]
        return ["L = %s" % self.L,
                "Euler-Lagrange (dL/dq - d/dt dL/dqdot = 0): %s = 0,  %s = 0" % tuple(self.el),
                "M = Dalpha^T - Dalpha = %s ;  M qdot = grad H" % self.M.tolist(),
                "u' = %s" % self.f[0], "v' = %s" % self.f[1],
                "p = alpha(q) = (%s, %s)" % tuple(self.alpha),
                "H = %s" % self.H]

    def check_params(self, vals, given):
        u0, v0 = vals["q0"]
        if not (u0 > 0 and v0 > 0):
            raise RefError("lotka-volterra: need u0, v0 > 0 (log), got q0 = %r" % (vals["q0"],))

    def _pv(self, vals):
        return [vals[k][0] for k in ("a1", "a2", "b1", "b2", "H0")]

    def table(self, vals, tk, rtol, atol, extra):
        pv = self._pv(vals)

        def rhs(t, y):
            return self._f(y[0], y[1], *pv)
        Y = integrate(rhs, vals["q0"], tk, rtol, atol)
        if np.any(Y <= 0):
            raise RefError("lotka-volterra: the solution left u, v > 0")
        return self._assemble(tk, Y, pv, extra)

    def _assemble(self, tk, Y, pv, extra):
        P = np.array(self._alpha(Y[:, 0], Y[:, 1], *pv), dtype=float).T
        cols = [tk, Y[:, 0], Y[:, 1], P[:, 0], P[:, 1]]
        if extra:
            cols.append(np.broadcast_to(self._H(Y[:, 0], Y[:, 1], *pv), tk.shape))
        return np.column_stack(cols), {"q": [1, 2], "p": [3, 4]}


# ----------------------------------------------------------------------------------------------
# nonholonomic mechanical systems: L(q, v), Phi(q, v) = A(q) v + c(q)
# ----------------------------------------------------------------------------------------------

class Nonholonomic(System):
    """Lagrange-d'Alembert equations, index-1 form, derived with sympy.

    d/dt(dL/dv) - dL/dq = -A^T lambda,  A = dPhi/dv   (harness sign)
    => L_vv qdd + A^T lambda = L_q - L_vq v
       A qdd                 = -Phi_q v          (d/dt Phi = 0)
    """

    def setup(self, q, v, prm, L, Phi):
        n, m = len(q), len(Phi)
        self.n, self.m = n, m
        qv, vv = sp.Matrix(q), sp.Matrix(v)
        Phi = sp.Matrix(Phi)
        self.Lsym, self.Phisym = L, Phi
        Lv = sp.Matrix([sp.diff(L, vi) for vi in v])
        Lq = sp.Matrix([sp.diff(L, qi) for qi in q])
        Mm = Lv.jacobian(vv)
        Lvq = Lv.jacobian(qv)
        A = Phi.jacobian(vv)
        c = sp.simplify(Phi - A * vv)
        if any(ci.has(*v) for ci in c):
            raise RefError("%s: constraint not affine in v" % self.name)
        if any(a.has(*v) for a in A):
            raise RefError("%s: constraint not affine in v" % self.name)
        K = sp.zeros(n + m, n + m)
        K[:n, :n] = Mm
        K[:n, n:] = A.T
        K[n:, :n] = A
        rhs = sp.zeros(n + m, 1)
        rhs[:n, 0] = Lq - Lvq * vv
        rhs[n:, 0] = -(Phi.jacobian(qv) * vv)
        sol = K.LUsolve(rhs)
        qdd = [sp.simplify(sol[i]) for i in range(n)]
        lam = [sp.simplify(sol[n + a]) for a in range(m)]
        E = sp.simplify((vv.T * Lv)[0] - L)
        self.M, self.A, self.c = Mm, A, c
        self.qdd, self.lam, self.p, self.E = qdd, lam, list(Lv), E
        self.q, self.v, self.prm = q, v, prm
        args = list(q) + list(v) + list(prm)
        self._qdd = sp.lambdify(args, qdd, "numpy")
        self._lam = sp.lambdify(args, lam, "numpy")
        self._p = sp.lambdify(args, list(Lv), "numpy")
        self._Phi = sp.lambdify(args, list(Phi), "numpy")
        self._E = sp.lambdify(args, E, "numpy")
        self._A = sp.lambdify(args, A, "numpy")
        self._M = sp.lambdify(args, Mm, "numpy")

    def equations(self):
        out = ["q = %s, v = qdot = %s, parameters %s" % (self.q, self.v, self.prm),
               "L = %s" % self.Lsym, "Phi = %s = A(q) v + c(q)" % list(self.Phisym),
               "M = L_vv = %s" % self.M.tolist(), "A = %s, c = %s" % (self.A.tolist(), list(self.c)),
               "sign: d/dt(dL/dv) - dL/dq = -A^T lambda"]
        for qi, e in zip(self.q, self.qdd):
            out.append("%s'' = %s" % (qi, e))
        for a, e in enumerate(self.lam):
            out.append("lambda%d = %s" % (a + 1, e))
        out.append("p = dL/dv = %s" % self.p)
        out.append("E = %s" % self.E)
        return out

    # numerical pieces -------------------------------------------------------------------------
    def pvals(self, vals):
        return [vals[str(s)][0] for s in self.prm]

    def initial(self, vals):
        """(q0, v0) as arrays"""
        return np.array(vals["q0"], float), np.array(vals["v0"], float)

    def check_consistent(self, vals):
        q0, v0 = self.initial(vals)
        r = np.array(self._Phi(*q0, *v0, *self.pvals(vals)), float)
        if np.max(np.abs(r)) > RESIDUAL_MAX:
            raise RefError("%s: inconsistent initial data, |Phi(q0, v0)| = %.3g > %g "
                           "(Phi = %s)" % (self.name, np.max(np.abs(r)), RESIDUAL_MAX,
                                           list(self.Phisym)))

    def check_params(self, vals, given):
        self.check_consistent(vals)

    def table(self, vals, tk, rtol, atol, extra):
        self.check_consistent(vals)
        pv = self.pvals(vals)
        n = self.n
        q0, v0 = self.initial(vals)

        def rhs(t, y):
            return np.concatenate([y[n:], np.array(self._qdd(*y, *pv), float)])
        Y = integrate(rhs, np.concatenate([q0, v0]), tk, rtol, atol)
        return self.assemble(tk, Y[:, :n], Y[:, n:], pv, extra)

    def assemble(self, tk, Q, V, pv, extra):
        args = [Q[:, i] for i in range(self.n)] + [V[:, i] for i in range(self.n)] + pv
        bc = lambda a: np.broadcast_to(np.asarray(a, float), tk.shape)  # noqa: E731
        P = [bc(x) for x in self._p(*args)]
        lam = [bc(x) for x in self._lam(*args)]
        res = [bc(x) for x in self._Phi(*args)]
        cols = [tk] + [Q[:, i] for i in range(self.n)] + P + lam + res
        n, m = self.n, self.m
        idx = {"q": list(range(1, 1 + n)), "p": list(range(1 + n, 1 + 2 * n)),
               "lambda": list(range(1 + 2 * n, 1 + 2 * n + m)),
               "residual": list(range(1 + 2 * n + m, 1 + 2 * n + 2 * m))}
        if extra:
            cols.append(bc(self._E(*args)))
            cols += self.extra_cols(tk, Q, V, pv)
        return np.column_stack(cols), idx

    def extra_cols(self, tk, Q, V, pv):
        return []


class Particle(Nonholonomic):
    name = "nonholonomic-particle"
    title = ("nonholonomic particle in a harmonic potential (demartin2018 sec. 7.1): "
             "L = m|v|^2/2 - k(x^2+y^2)/2, Phi = v_z - y v_x")
    params = [
        Param("m", [1.0], 1, "mass (paper: 1)"),
        Param("k", [1.0], 1, "spring constant of the potential k(x^2+y^2)/2 (paper: 1)"),
        Param("q0", [1.0, 0.5, 0.0], 3, "initial (x, y, z) (paper gives none; notes' choice)"),
        Param("v0", [0.3, 0.8, 0.15], 3, "initial (v_x, v_y, v_z); must satisfy v_z = y0 v_x "
              "(paper gives none; notes' choice)"),
    ]
    columns = ["t", "q1", "q2", "q3", "p1", "p2", "p3", "lambda1", "residual1"]
    extra_columns = ["E"]
    coord_doc = ("q = (x, y, z), p = m v, lambda: M qdd = -grad V - A^T lambda with "
                 "A = (-y, 0, 1), residual = Phi = v_z - y v_x")
    has_exact = True

    def __init__(self):
        x, y, z = sp.symbols("x y z", real=True)
        vx, vy, vz = sp.symbols("v_x v_y v_z", real=True)
        m, k = sp.symbols("m k", positive=True)
        L = m * (vx**2 + vy**2 + vz**2) / 2 - k * (x**2 + y**2) / 2
        self.setup([x, y, z], [vx, vy, vz], [m, k], L, [vz - y * vx])

    def exact_table(self, vals, tk, extra):
        """Semi-analytic solution (own derivation, not in the paper).

        y = Y cos(w t - phi), w = sqrt(k/m).  With the time change dtau/dt = 1/sqrt(1+y^2) the
        x equation m(1+y^2) x'' + m y y' x' + k x = 0 becomes d^2x/dtau^2 + w^2 x = 0, and
        tau(t) = [F(w t - phi | mu) - F(-phi | mu)] / (w sqrt(1+Y^2)), mu = Y^2/(1+Y^2),
        F the incomplete elliptic integral of the first kind.  z = z0 + int_0^t y x' dt by
        adaptive quadrature (the only non-closed-form piece).
        """
        mm, kk = vals["m"][0], vals["k"][0]
        (x0, y0, z0), (vx0, vy0, vz0) = vals["q0"], vals["v0"]
        w = np.sqrt(kk / mm)
        Y = np.hypot(y0, vy0 / w)
        ph = np.arctan2(vy0 / w, y0)
        mu = Y * Y / (1 + Y * Y)
        sq = np.sqrt(1 + Y * Y)
        c = vx0 * np.sqrt(1 + y0 * y0)  # dx/dtau at 0

        def ys(t):
            return Y * np.cos(w * t - ph), -Y * w * np.sin(w * t - ph)

        def tau(t):
            return (ellipkinc(w * t - ph, mu) - ellipkinc(-ph, mu)) / (w * sq)

        def xs(t):
            ta = tau(t)
            yy, _ = ys(t)
            x = x0 * np.cos(w * ta) + c / w * np.sin(w * ta)
            xd = (-x0 * w * np.sin(w * ta) + c * np.cos(w * ta)) / np.sqrt(1 + yy * yy)
            return x, xd

        X, XD = xs(tk)
        Yv, YD = ys(tk)
        Z = np.empty_like(tk)
        Z[0] = z0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # quad's round-off notice at this tolerance
            for i in range(1, len(tk)):
                val, err = quad(lambda s: ys(s)[0] * xs(s)[1], tk[i - 1], tk[i],
                                epsabs=1e-16, epsrel=1e-15, limit=200)
                if not err <= 1e-13:
                    raise RefError("particle exact: quadrature of z failed (error estimate %g)"
                                   % err)
                Z[i] = Z[i - 1] + val
        VZ = Yv * XD
        X[0], Yv[0], XD[0], YD[0], VZ[0] = x0, y0, vx0, vy0, vz0
        Q = np.column_stack([X, Yv, Z])
        V = np.column_stack([XD, YD, VZ])
        return self.assemble(tk, Q, V, self.pvals(vals), extra)


class CVT(Nonholonomic):
    """demartin2018 sec. 7.2 as the paper writes it, with a passenger mass m and a driver
    moment of inertia J (paper: m = J = 1): L = m(v_x^2+v_z^2)/2 + J v_y^2/2
    - (x^2 + z^2 - 2 cos y + eps sin 2y)/2, Phi = v_z + sin(y) v_x."""
    name = "cvt"
    title = ("pendulum-driven CVT (demartin2018 sec. 7.2): L = m(v_x^2+v_z^2)/2 + J v_y^2/2 "
             "- (x^2 + z^2 - 2 cos y + eps sin 2y)/2, Phi = v_z + sin(y) v_x")
    params = [
        Param("m", [1.0], 1, "passenger mass (paper: 1)"),
        Param("J", [1.0], 1, "driver moment of inertia (paper: 1)"),
        Param("eps", [0.5], 1, "epsilon (paper: 1/2)"),
        Param("q0", [1.0, 0.0, 1.0], 3, "initial (x, y, z) (paper: (1, 0, 1))"),
        Param("v0", [0.0, 3 * np.sqrt(10) / 5, 0.0], 3,
              "initial velocity (paper: (0, 3 sqrt(10)/5, 0), low energy; (0, sqrt 8, 0) high)"),
    ]
    columns = ["t", "q1", "q2", "q3", "p1", "p2", "p3", "lambda1", "residual1"]
    extra_columns = ["E", "E_d", "E_p"]
    coord_doc = ("q = (x, y, z), p = (m v_x, J v_y, m v_z), lambda: M qdd = -grad U - A^T lambda, "
                 "A = (sin y, 0, 1); E_d, E_p the driver's and the passenger's energies")

    def __init__(self):
        x, y, z = sp.symbols("x y z", real=True)
        vx, vy, vz = sp.symbols("v_x v_y v_z", real=True)
        m, J = sp.symbols("m J", positive=True)
        eps = sp.symbols("eps", real=True)
        L = (m * (vx**2 + vz**2) / 2 + J * vy**2 / 2
             - (x**2 + z**2 - 2 * sp.cos(y) + eps * sp.sin(2 * y)) / 2)
        self.setup([x, y, z], [vx, vy, vz], [m, J, eps], L, [vz + sp.sin(y) * vx])
        Ed = J * vy**2 / 2 - sp.cos(y) + eps * sp.sin(2 * y) / 2
        Ep = m * (vx**2 + vz**2) / 2 + (x**2 + z**2) / 2
        self.Ed, self.Ep = Ed, Ep
        args = [x, y, z, vx, vy, vz, m, J, eps]
        self._Ed = sp.lambdify(args, Ed, "numpy")
        self._Ep = sp.lambdify(args, Ep, "numpy")

    def extra_cols(self, tk, Q, V, pv):
        args = [Q[:, i] for i in range(3)] + [V[:, i] for i in range(3)] + pv
        bc = lambda a: np.broadcast_to(np.asarray(a, float), tk.shape)  # noqa: E731
        return [bc(self._Ed(*args)), bc(self._Ep(*args))]


class ChaoticNH(Nonholonomic):
    """demartin2018 sec. 7.3 (McLachlan & Perlmutter), any m_c >= 2, with a mass m (paper: 1):
    L = m|v|^2/2 - (|q|^2 + q_{m_c+2}^2 q_{m_c+3}^2 + sum_i q_{1+i}^2 q_{m_c+1+i}^2)/2,
    Phi = v_1 + sum_{i=m_c+2}^n q_i v_i; the equations derived by sympy for each m_c."""
    name = "chaotic-nh"
    title = ("fully chaotic nonholonomic system (demartin2018 sec. 7.3), n = 2 m_c + 1: "
             "L = m|v|^2/2 - (|q|^2 + q_{m+2}^2 q_{m+3}^2 + sum q_{1+i}^2 q_{m+1+i}^2)/2, "
             "Phi = v_1 + sum_{i>=m+2} q_i v_i")
    params = [
        Param("m", [1.0], 1, "mass (paper: 1)"),
        Param("m_c", [3.0], 1, "size parameter, n = 2 m_c + 1 (paper: 3)"),
        Param("J", [9.0], 1, "ensemble size"),
        Param("j", [0.0], 1, "ensemble member"),
        Param("q0", None, -1, "initial q (n values; unset: the ensemble member's)"),
        Param("v0", None, -1, "initial v (n values; unset: the ensemble member's)"),
    ]
    extra_columns = ["E"]
    coord_doc = "q, p = m v, lambda: M qdd = -grad U - A^T lambda, A = (1, 0.., q_{m+2}, .., q_n)"

    def __init__(self):
        self.built = {}
        self.use(3)

    def use(self, mc):
        if mc not in self.built:
            n = 2 * mc + 1
            q = list(sp.symbols("q1:%d" % (n + 1), real=True))
            v = list(sp.symbols("v1:%d" % (n + 1), real=True))
            m = sp.symbols("m", positive=True)
            U = (sum(qi**2 for qi in q) + q[mc + 1]**2 * q[mc + 2]**2
                 + sum(q[i]**2 * q[mc + i]**2 for i in range(1, mc + 1))) / 2
            L = m * sum(vi**2 for vi in v) / 2 - U
            Phi = v[0] + sum(q[i - 1] * v[i - 1] for i in range(mc + 2, n + 1))
            obj = Nonholonomic.__new__(Nonholonomic)
            obj.name = self.name
            obj.setup(q, v, [m], L, [Phi])
            obj.U = U
            self.built[mc] = obj
        b = self.built[mc]
        for k in ("n", "m", "M", "A", "c", "qdd", "lam", "p", "E", "q", "v", "prm", "Lsym",
                  "Phisym", "_qdd", "_lam", "_p", "_Phi", "_E", "_A", "_M", "U"):
            setattr(self, k, getattr(b, k))
        n = b.n
        self.columns = (["t"] + ["q%d" % i for i in range(1, n + 1)]
                        + ["p%d" % i for i in range(1, n + 1)] + ["lambda1", "residual1"])

    def resolve(self, sets):
        vals = {p.name: (None if p.default is None else list(p.default)) for p in self.params}
        spec = {p.name: p for p in self.params}
        for name, v in sets:
            if name not in spec:
                raise RefError("%s: unknown parameter %r" % (self.name, name))
            vals[name] = list(v)
        mc, J, j = int(vals["m_c"][0]), vals["J"][0], vals["j"][0]
        if vals["m_c"][0] != mc or mc < 2 or J < 1 or not 0 <= j <= J:
            raise RefError("%s: need a whole m_c >= 2, J >= 1 and 0 <= j <= J" % self.name)
        self.use(mc)
        n = 2 * mc + 1
        th = j * np.pi / (2 * J)
        # the paper's ensemble (m_c = 3) and vistudy's stated generalisation for other m_c
        q0 = [np.cos(th)] + [(mc + 1 - i) / 5 for i in range(1, mc + 1)] + [1.0] * mc
        v0 = [0.0, np.sin(th)] + [0.0] * (n - 2)
        vals["q0"] = vals["q0"] if vals["q0"] is not None else q0
        vals["v0"] = vals["v0"] if vals["v0"] is not None else v0
        if len(vals["q0"]) != n or len(vals["v0"]) != n:
            raise RefError("%s: q0 and v0 take n = %d values" % (self.name, n))
        self.check_consistent(vals)
        return vals


class Disc(Nonholonomic):
    name = "vertical-disc"
    title = ("vertical disc (knife edge, no rolling angle) with an elastic spring on SE(2) "
             "(demartin2018 sec. 7.4): L = [m(v_x^2+v_y^2) + Iz v_theta^2]/2 - k(x^2+y^2)/2, "
             "Phi = v_y cos(theta) - v_x sin(theta)")
    params = [
        Param("m", [1.0], 1, "mass (paper symbol m; value not given, notes: 1)"),
        Param("Iz", [1.0], 1, "moment of inertia about the vertical axis (paper I_z; notes: 1)"),
        Param("k", [1.0], 1, "spring constant, V = k(x^2+y^2)/2 (paper: 1)"),
        Param("q0", [1.0, 0.5, 0.3], 3, "initial (x, y, theta) (notes' choice)"),
        Param("eta0", [0.2, 0.0, 0.7], 3, "initial body velocity (v1, v2, omega) = paper's "
              "trivialised (v_1, v_2, omega); v1 forward, v2 lateral (must be 0)"),
        Param("v0", None, 3, "alternative to eta0: initial (v_x, v_y, v_theta) in coordinates; "
              "if set, eta0 must not be set"),
    ]
    columns = ["t", "q1", "q2", "q3", "p1", "p2", "p3", "lambda1", "residual1"]
    extra_columns = ["E", "mu1", "mu2", "mu3"]
    coord_doc = ("q = (x, y, theta) (paper's order; q3 = theta unwrapped), p = dL/dv = "
                 "(m v_x, m v_y, Iz v_theta), lambda: M qdd = -grad V - A^T lambda with "
                 "A = (-sin theta, cos theta, 0), residual = Phi; --extra adds E and the "
                 "body momentum mu = (m v1, m v2, Iz omega)")
    has_exact = True

    def __init__(self):
        x, y, th = sp.symbols("x y theta", real=True)
        vx, vy, vth = sp.symbols("v_x v_y v_theta", real=True)
        m, Iz, k = sp.symbols("m Iz k", positive=True)
        L = (m * (vx**2 + vy**2) + Iz * vth**2) / 2 - k * (x**2 + y**2) / 2
        self.setup([x, y, th], [vx, vy, vth], [m, Iz, k], L,
                   [vy * sp.cos(th) - vx * sp.sin(th)])

    def check_params(self, vals, given):
        if "v0" in given and "eta0" in given:
            raise RefError("vertical-disc: set either eta0 or v0, not both")
        self.check_consistent(vals)

    def initial(self, vals):
        q0 = np.array(vals["q0"], float)
        if vals.get("v0") is not None:
            return q0, np.array(vals["v0"], float)
        v1, v2, om = vals["eta0"]
        th = q0[2]
        return q0, np.array([v1 * np.cos(th) - v2 * np.sin(th),
                             v1 * np.sin(th) + v2 * np.cos(th), om])

    def extra_cols(self, tk, Q, V, pv):
        m, Iz, _ = pv
        th = Q[:, 2]
        v1 = V[:, 0] * np.cos(th) + V[:, 1] * np.sin(th)
        v2 = -V[:, 0] * np.sin(th) + V[:, 1] * np.cos(th)
        return [m * v1, m * v2, Iz * V[:, 2]]

    def exact_table(self, vals, tk, extra):
        """Closed form (body-frame position s, r; omega constant):
        s = x cos th + y sin th, r = -x sin th + y cos th, v2 = 0:
        s' = v1 + w r, r' = -w s, m v1' = -k s  =>  s'' = -Om^2 s, Om^2 = k/m + w^2.
        """
        mm, Iz, kk = self.pvals(vals)
        q0, v0 = self.initial(vals)
        x0, y0, th0 = q0
        om = v0[2]
        v10 = v0[0] * np.cos(th0) + v0[1] * np.sin(th0)
        s0 = x0 * np.cos(th0) + y0 * np.sin(th0)
        r0 = -x0 * np.sin(th0) + y0 * np.cos(th0)
        sd0 = v10 + om * r0
        Om = np.sqrt(kk / mm + om * om)
        t = tk
        if Om > 0:
            S = s0 * np.cos(Om * t) + sd0 / Om * np.sin(Om * t)
            SD = -s0 * Om * np.sin(Om * t) + sd0 * np.cos(Om * t)
            IS = s0 * np.sin(Om * t) / Om + sd0 * (1 - np.cos(Om * t)) / Om**2
        else:
            S, SD, IS = s0 + sd0 * t, sd0 + 0 * t, s0 * t + sd0 * t * t / 2
        R = r0 - om * IS
        V1 = SD - om * R
        TH = th0 + om * t
        X = S * np.cos(TH) - R * np.sin(TH)
        Yc = S * np.sin(TH) + R * np.cos(TH)
        Q = np.column_stack([X, Yc, TH])
        V = np.column_stack([V1 * np.cos(TH), V1 * np.sin(TH), om + 0 * t])
        Q[0], V[0] = q0, v0
        return self.assemble(tk, Q, V, [mm, Iz, kk], extra)


class KnifeEdge(Nonholonomic):
    """Holonomic and nonholonomic constraints together: the plane enters at velocity level,
    d/dt g = G v = v_z cos(alpha) - v_x sin(alpha), stacked with the blade's A(q) v; the
    Nonholonomic derivation then gives both multipliers from one linear system, and the
    position constraint g(q0) = 0 is checked separately (DOP853 keeps it to its tolerance)."""
    name = "knife-edge-incline"
    title = ("knife edge on an inclined plane (Bloch, Nonholonomic Mechanics and Control, "
             "sec. 1.6) in q = (x, y, z, phi): L = m|v|^2/2 + J phidot^2/2 - m g z, "
             "g = z cos(alpha) - x sin(alpha), Phi = -sin(phi) cos(alpha) v_x + cos(phi) v_y "
             "- sin(phi) sin(alpha) v_z")
    params = [
        Param("m", [1.0], 1, "mass"),
        Param("J", [0.25], 1, "moment of inertia about the plane's normal"),
        Param("gravity", [9.81], 1, "gravitational acceleration along -z"),
        Param("alpha", [0.3], 1, "slope of the plane (rad)"),
        Param("q0", [0.47766824456280301, -0.2, 0.14776010333066979, 0.4], 4,
              "initial (x, y, z, phi), on the plane"),
        Param("v0", [1.3198847644218856, 0.58412751346297574, 0.40828820294314718, 2.0], 4,
              "initial velocity, in the plane and along the blade"),
    ]
    columns = ["t", "q1", "q2", "q3", "q4", "p1", "p2", "p3", "p4", "lambda1", "mu1",
               "residual1", "residual2"]
    extra_columns = ["E", "p_phi"]
    coord_doc = ("q = (x, y, z, phi), p = (m v, J phidot), lambda1: holonomic (force -G^T lambda, "
                 "G = (-sin alpha, 0, cos alpha, 0)), mu1: nonholonomic (force -A^T mu), "
                 "residual = (G v, A v)")
    has_exact = True

    def __init__(self):
        x, y, z, ph = sp.symbols("x y z phi", real=True)
        vx, vy, vz, vph = sp.symbols("v_x v_y v_z v_phi", real=True)
        m, J, g, al = sp.symbols("m J gravity alpha", real=True)
        L = m * (vx**2 + vy**2 + vz**2) / 2 + J * vph**2 / 2 - m * g * z
        self.gsym = z * sp.cos(al) - x * sp.sin(al)
        self._g = sp.lambdify([x, y, z, ph, al], self.gsym, "numpy")
        self.setup([x, y, z, ph], [vx, vy, vz, vph], [m, J, g, al], L,
                   [vz * sp.cos(al) - vx * sp.sin(al),
                    -sp.sin(ph) * sp.cos(al) * vx + sp.cos(ph) * vy - sp.sin(ph) * sp.sin(al) * vz])

    def check_consistent(self, vals):
        r = abs(float(self._g(*vals["q0"], vals["alpha"][0])))
        if r > RESIDUAL_MAX:
            raise RefError("%s: inconsistent initial data, |g(q0)| = %.3g > %g (g = %s)"
                           % (self.name, r, RESIDUAL_MAX, self.gsym))
        Nonholonomic.check_consistent(self, vals)

    def check_params(self, vals, given):
        if not (vals["m"][0] > 0 and vals["J"][0] > 0):
            raise RefError("%s: m and J must be positive" % self.name)
        self.check_consistent(vals)

    def extra_cols(self, tk, Q, V, pv):
        return [pv[1] * V[:, 3]]

    def exact_table(self, vals, tk, extra):
        """Closed form, integrated directly in the plane's coordinates (s along
        u1 = (cos a, 0, sin a), r along u2 = (0, 1, 0)): phi = phi0 + w t, forward speed
        u' = -gs cos(phi), s' = u cos(phi), r' = u sin(phi), gs = g sin(a); for w != 0
        u = C - gs sin(phi)/w with C = u0 + gs sin(phi0)/w, so
        s = s0 + C (sin phi - sin phi0)/w - gs (sin^2 phi - sin^2 phi0)/(2 w^2),
        r = r0 + C (cos phi0 - cos phi)/w - gs/w (t/2 - (sin 2phi - sin 2phi0)/(4 w));
        w = 0: u = u0 - gs c0 t, (s, r) = (s0, r0) + (c0, s0') (u0 t - gs c0 t^2/2).
        Evaluated in mpmath at 40 digits (the 1/w forms cancel for small w t).
        lambda = -m g cos(a), mu = m gs sin(phi) - m u w (force balance across the plane
        and across the blade)."""
        import mpmath as mpm
        mpm.mp.dps = 40
        mm, JJ, gg, aa = [mpm.mpf(v) for v in self.pvals(vals)]
        q0 = [mpm.mpf(v) for v in vals["q0"]]
        v0 = [mpm.mpf(v) for v in vals["v0"]]
        ca, sa = mpm.cos(aa), mpm.sin(aa)
        s0, r0, p0, w = q0[0] * ca + q0[2] * sa, q0[1], q0[3], v0[3]
        u0 = mpm.cos(p0) * (v0[0] * ca + v0[2] * sa) + mpm.sin(p0) * v0[1]
        gs = gg * sa
        rows = []
        for t in tk:
            t = mpm.mpf(float(t))
            ph = p0 + w * t
            if w == 0:
                u = u0 - gs * mpm.cos(p0) * t
                d = u0 * t - gs * mpm.cos(p0) * t * t / 2
                S, R = s0 + mpm.cos(p0) * d, r0 + mpm.sin(p0) * d
            else:
                C = u0 + gs * mpm.sin(p0) / w
                u = C - gs * mpm.sin(ph) / w
                S = (s0 + C * (mpm.sin(ph) - mpm.sin(p0)) / w
                     - gs * (mpm.sin(ph)**2 - mpm.sin(p0)**2) / (2 * w * w))
                R = (r0 + C * (mpm.cos(p0) - mpm.cos(ph)) / w
                     - gs / w * (t / 2 - (mpm.sin(2 * ph) - mpm.sin(2 * p0)) / (4 * w)))
            rows.append([float(v) for v in (S * ca, R, S * sa, ph, u * mpm.cos(ph) * ca,
                                            u * mpm.sin(ph), u * mpm.cos(ph) * sa, w)])
        Y = np.array(rows)
        return self.assemble(tk, Y[:, :4], Y[:, 4:], self.pvals(vals), extra)


# ----------------------------------------------------------------------------------------------
# degenerate Lagrangians L = alpha(q).qdot - H(q) (tyranowski2014 sec. 2, (2.8)):
# kepler (5.1)-(5.3) and point-vortices (5.4)-(5.6)
# ----------------------------------------------------------------------------------------------

class Degenerate(System):
    """Euler-Lagrange equations of L = alpha(q).qdot - H(q), derived with sympy.

    dL/dq - d/dt dL/dqdot = (Dalpha^T - Dalpha) qdot - grad H = 0   (Dalpha_ij = d alpha_i/d q_j)
    The equations are linear in qdot: they are collected with linear_eq_to_matrix and solved
    symbolically; p = alpha(q) along the solution.
    """

    def setup(self, q, prm, alpha, H):
        t = sp.Symbol("t")
        n = len(q)
        qf = [sp.Function("Q%d" % (i + 1))(t) for i in range(n)]
        qd = sp.symbols("qdot1:%d" % (n + 1), real=True)
        to_f = dict(zip(q, qf))
        L = sum(a.subs(to_f) * f.diff(t) for a, f in zip(alpha, qf)) - H.subs(to_f)
        el = euler_equations(L, qf, t)  # dL/dq - d/dt dL/dqdot = 0
        back_d = {f.diff(t): s for f, s in zip(qf, qd)}
        back_q = dict(zip(qf, q))
        eqs = [sp.expand(e.lhs.xreplace(back_d).xreplace(back_q)) for e in el]
        if any(sp.diff(e, s, 2) != 0 for e in eqs for s in qd):
            raise RefError("%s: Euler-Lagrange equations not linear in qdot" % self.name)
        A, b = sp.linear_eq_to_matrix(eqs, list(qd))
        if sp.simplify(A.det()) == 0:
            raise RefError("%s: Dalpha^T - Dalpha is singular" % self.name)
        sol = A.LUsolve(b)
        self.n = n
        self.q, self.prm, self.qd = list(q), list(prm), list(qd)
        self.L = L.xreplace(back_d).xreplace(back_q)
        self.el = eqs
        self.Mel = A  # the EL equations read A qdot = b
        self.f = [sp.simplify(s) for s in sol]
        self.alpha = list(alpha)
        self.H = H
        Da = sp.Matrix(alpha).jacobian(q)
        self.M = sp.simplify(Da.T - Da)
        self.gradH = [sp.diff(H, x) for x in q]
        args = list(q) + list(prm)
        self._f = sp.lambdify(args, self.f, "numpy")
        self._alpha = sp.lambdify(args, self.alpha, "numpy")
        self._H = sp.lambdify(args, H, "numpy")
        self._mom = [sp.lambdify(args, e, "numpy") for _, e in self.momenta]

    def equations(self):
        out = ["q = %s, parameters %s" % (self.q, self.prm),
               "L = %s" % self.L,
               "alpha(q) = %s" % self.alpha, "H = %s" % self.H,
               "M = Dalpha^T - Dalpha = %s ;  M qdot = grad H = %s" % (self.M.tolist(), self.gradH)]
        for x, e in zip(self.q, self.f):
            out.append("%s' = %s" % (x, e))
        for k, e in self.momenta:
            out.append("%s = %s" % (k, e))
        return out

    def pvals(self, vals):
        return [vals[str(s)][0] for s in self.prm]

    def table(self, vals, tk, rtol, atol, extra):
        pv = self.pvals(vals)

        def rhs(t, y):
            return np.array(self._f(*y, *pv), float)
        Y = integrate(rhs, vals["q0"], tk, rtol, atol)
        return self.assemble(tk, Y, pv, extra)

    def assemble(self, tk, Y, pv, extra):
        args = [Y[:, i] for i in range(self.n)] + pv
        bc = lambda a: np.broadcast_to(np.asarray(a, float), tk.shape)  # noqa: E731
        P = [bc(x) for x in self._alpha(*args)]
        cols = [tk] + [Y[:, i] for i in range(self.n)] + P
        n = self.n
        if extra:
            cols.append(bc(self._H(*args)))
            cols += [bc(m(*args)) for m in self._mom]
        return np.column_stack(cols), {"q": list(range(1, 1 + n)), "p": list(range(1 + n, 1 + 2 * n))}


class Kepler(Degenerate):
    name = "kepler"
    title = ("Kepler problem as a degenerate Lagrangian L = alpha(q).qdot - H(q) "
             "(tyranowski2014 (5.1)-(5.3))")
    params = [
        Param("mu", [1.0], 1, "gravitational parameter, > 0"),
        Param("H0", [-0.5], 1, "constant subtracted from H (H = 0 on the default orbit)"),
        Param("q0", [0.5, 0.0, 0.0, float(sp.sqrt(3))], 4,
              "initial (x, y, p_x, p_y); default: pericentre of a = 1, e = 1/2"),
    ]
    columns = ["t", "q1", "q2", "q3", "q4", "p1", "p2", "p3", "p4"]
    extra_columns = ["H", "L"]
    coord_doc = ("q = (x, y, p_x, p_y); p = alpha(q) = (p_x, p_y, -x, -y)/2; "
                 "H = (p_x^2 + p_y^2)/2 - mu/sqrt(x^2 + y^2) - H0; L = x p_y - y p_x")
    has_exact = True

    def __init__(self):
        q = sp.symbols("q1:5", real=True)
        mu, H0 = sp.symbols("mu H0", real=True)
        x, y, px, py = q
        alpha = [px / 2, py / 2, -x / 2, -y / 2]
        H = (px**2 + py**2) / 2 - mu / sp.sqrt(x**2 + y**2) - H0
        self.momenta = [("L", x * py - y * px)]
        self.setup(q, [mu, H0], alpha, H)

    def check_params(self, vals, given):
        if not vals["mu"][0] > 0:
            raise RefError("kepler: need mu > 0, got %r" % vals["mu"][0])
        x, y = vals["q0"][:2]
        if x == 0 and y == 0:
            raise RefError("kepler: q0 at the origin (singular)")

    def table(self, vals, tk, rtol, atol, extra):
        out = Degenerate.table(self, vals, tk, rtol, atol, extra)
        if not np.all(np.isfinite(out[0])):
            raise RefError("kepler: the numerical solution is not finite (collision?)")
        return out

    @staticmethod
    def orbit(mu, q0, tk, dps=40, raw=False):
        """Closed form of a bound orbit from arbitrary initial data (own derivation).

        Elements from (r0, v0): energy E = v0^2/2 - mu/r0 < 0, a = -mu/(2E), n = sqrt(mu/a^3),
        e cos E0 = 1 - r0/a, e sin E0 = r0.v0/sqrt(mu a) (E0 the eccentric anomaly at t = 0).
        Kepler's equation in the increment dE = E - E0 (free of the apsidal direction, so also
        circular orbits):  n t = dE - e cos E0 sin dE + e sin E0 (1 - cos dE), solved by Newton
        (bisection safeguard; |dE - n t| <= 2e) in mpmath at dps digits (mu, q0, tk may be
        decimal strings; raw=True returns the mpmath values). Lagrange's f and g:
          r = a (1 - e cos(E0 + dE)),  f = 1 - a/r0 (1 - cos dE),  g = t - (dE - sin dE)/n,
          fdot = -sqrt(mu a) sin dE/(r r0),  gdot = 1 - a/r (1 - cos dE),
          (x, y) = f r0 + g v0,  (p_x, p_y) = fdot r0 + gdot v0.
        """
        import mpmath as mpm
        with mpm.workdps(dps):
            mu = mpm.mpf(mu)
            x0, y0, u0, w0 = (mpm.mpf(c) for c in q0)
            r0 = mpm.sqrt(x0 * x0 + y0 * y0)
            En = (u0 * u0 + w0 * w0) / 2 - mu / r0
            if not En < 0:
                raise RefError("kepler --exact: the orbit is not bound (E = %s >= 0)"
                               % mpm.nstr(En, 8))
            a = -mu / (2 * En)
            n = mpm.sqrt(mu / a**3)
            ec = 1 - r0 / a
            es = (x0 * u0 + y0 * w0) / mpm.sqrt(mu * a)
            e = mpm.sqrt(ec * ec + es * es)
            tol = mpm.mpf(10) ** (-dps + 5)
            out = [] if raw else np.empty((len(tk), 4))
            for k, tf in enumerate(tk):
                t = mpm.mpf(tf)
                M = n * t
                F = lambda d: d - ec * mpm.sin(d) + es * (1 - mpm.cos(d)) - M  # noqa: E731
                lo, hi = M - 2 * e - tol, M + 2 * e + tol
                d = M
                for _ in range(200):
                    Fd = F(d)
                    if Fd > 0:
                        hi = min(hi, d)
                    else:
                        lo = max(lo, d)
                    dn = d - Fd / (1 - ec * mpm.cos(d) + es * mpm.sin(d))
                    if not (lo <= dn <= hi):
                        dn = (lo + hi) / 2
                    if abs(dn - d) <= tol * (1 + abs(d)):
                        d = dn
                        break
                    d = dn
                else:
                    raise RefError("kepler --exact: Kepler's equation did not converge at t = %r" % tf)
                r = a * (1 - ec * mpm.cos(d) + es * mpm.sin(d))
                f = 1 - a / r0 * (1 - mpm.cos(d))
                g = t - (d - mpm.sin(d)) / n
                fd = -mpm.sqrt(mu * a) * mpm.sin(d) / (r * r0)
                gd = 1 - a / r * (1 - mpm.cos(d))
                row = [f * x0 + g * u0, f * y0 + g * w0, fd * x0 + gd * u0, fd * y0 + gd * w0]
                if raw:
                    out.append(row)
                else:
                    out[k] = [float(c) for c in row]
            return out, {"a": float(a), "e": float(e), "n": float(n), "E": float(En)}

    def exact_table(self, vals, tk, extra):
        Y, _ = self.orbit(vals["mu"][0], vals["q0"], tk)
        Y[0] = vals["q0"]
        return self.assemble(tk, Y, self.pvals(vals), extra)


class PointVortices(Degenerate):
    name = "point-vortices"
    title = ("two point vortices as a degenerate Lagrangian L = alpha(q).qdot - H(q) "
             "(tyranowski2014 (5.4)-(5.6))")
    params = [
        Param("G1", [4.0], 1, "strength Gamma_1 of vortex 1, nonzero"),
        Param("G2", [2.0], 1, "strength Gamma_2 of vortex 2, nonzero"),
        Param("H0", [0.0], 1, "constant subtracted from H (H = 0 on the default orbit)"),
        Param("q0", [1.0 / 3.0, 0.0, -2.0 / 3.0, 0.0], 4,
              "initial (x1, y1, x2, y2); default distance 1, centre of vorticity 0"),
    ]
    columns = ["t", "q1", "q2", "q3", "q4", "p1", "p2", "p3", "p4"]
    extra_columns = ["H", "I", "Px", "Py"]
    coord_doc = ("q = (x1, y1, x2, y2); p = alpha(q) = (-G1 y1, G1 x1, -G2 y2, G2 x2)/2; "
                 "H = G1 G2/(4 pi) log((x1-x2)^2 + (y1-y2)^2) - H0; I = G1|z1|^2 + G2|z2|^2, "
                 "Px = G1 x1 + G2 x2, Py = G1 y1 + G2 y2")
    has_exact = True

    def __init__(self):
        q = sp.symbols("q1:5", real=True)
        G1, G2, H0 = sp.symbols("G1 G2 H0", real=True)
        x1, y1, x2, y2 = q
        alpha = [-G1 * y1 / 2, G1 * x1 / 2, -G2 * y2 / 2, G2 * x2 / 2]
        H = G1 * G2 / (4 * sp.pi) * sp.log((x1 - x2)**2 + (y1 - y2)**2) - H0
        self.momenta = [("I", G1 * (x1**2 + y1**2) + G2 * (x2**2 + y2**2)),
                        ("Px", G1 * x1 + G2 * x2), ("Py", G1 * y1 + G2 * y2)]
        self.setup(q, [G1, G2, H0], alpha, H)

    def check_params(self, vals, given):
        if vals["G1"][0] == 0 or vals["G2"][0] == 0:
            raise RefError("point-vortices: need G1, G2 nonzero")
        x1, y1, x2, y2 = vals["q0"]
        if x1 == x2 and y1 == y2:
            raise RefError("point-vortices: the vortices coincide (singular)")

    @staticmethod
    def motion(G1, G2, q0, tk):
        """Closed form (own derivation from the equations above, checked in the selftest):
        with z = x + i y, z1' = i G2 (z1 - z2)/(2 pi D^2), z2' = -i G1 (z1 - z2)/(2 pi D^2), so
        (G1 z1 + G2 z2)' = 0 and (z1 - z2)' = i (G1 + G2)/(2 pi D^2) (z1 - z2): D = |z1 - z2| is
        constant and, if G1 + G2 != 0, both vortices turn rigidly about the centre of vorticity
        c = (G1 z1 + G2 z2)/(G1 + G2) with angular velocity w = (G1 + G2)/(2 pi D^2):
        z_j(t) = c + (z_j(0) - c) e^{i w t}. If G1 + G2 = 0 both translate with the velocity
        i G2 (z1 - z2)/(2 pi D^2)."""
        z1 = complex(q0[0], q0[1])
        z2 = complex(q0[2], q0[3])
        D2 = abs(z1 - z2) ** 2
        t = np.asarray(tk, float)
        if G1 + G2 != 0:
            c = (G1 * z1 + G2 * z2) / (G1 + G2)
            rot = np.exp(1j * ((G1 + G2) / (2 * np.pi * D2)) * t)
            Z1, Z2 = c + (z1 - c) * rot, c + (z2 - c) * rot
        else:
            vel = 1j * G2 * (z1 - z2) / (2 * np.pi * D2)
            Z1, Z2 = z1 + vel * t, z2 + vel * t
        return np.column_stack([Z1.real, Z1.imag, Z2.real, Z2.imag])

    def exact_table(self, vals, tk, extra):
        Y = self.motion(vals["G1"][0], vals["G2"][0], vals["q0"], tk)
        Y[0] = vals["q0"]
        return self.assemble(tk, Y, self.pvals(vals), extra)


# ----------------------------------------------------------------------------------------------
# ball on a turntable on SO(3) x R^2 (demartin2018 sec. 7.5), literal body-omega reading
# ----------------------------------------------------------------------------------------------

def hat(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


class Turntable(System):
    """Ball (unit mass, radius r, moments r^2 (a, b, c)) rolling on a table turning at Omega.

    The continuous equations as the reading notes (sec. 2.5) state them, in the PAPER's sign
    (constraint force +A^T lambda_paper), integrated in the embedding (R, x, y, w, v):
        I_w wdot = (I_w w) x w + (r lam2, -r lam1, 0),   vdot = lam,
        Rdot = R hat(w),   (x, y)dot = v,
    w the body angular velocity (R^T Rdot = hat w), I_w = r^2 diag(a, b, c), and the rolling
    constraints (literal: the body w, no R)
        phi1 = v_x + Omega y - r w2 = 0,   phi2 = v_y - Omega x + r w1 = 0.
    lam is derived here by sympy from d/dt phi = 0 (index 1) and checked against the notes'
    formula in the selftest. The output follows vistudy's layout: q = (R row-major, x, y),
    p = mu = I xi = (r^2 a w1, r^2 b w2, r^2 c w3, v_x, v_y) (body), lambda = -lam (vistudy's
    sign: constraint force -A^T lambda), residual = (phi1, phi2).
    """
    name = "turntable"
    title = ("ball rolling on a turntable, SO(3) x R^2, literal body-omega constraints "
             "(demartin2018 sec. 7.5): l = |v|^2/2 + r^2 (a w1^2 + b w2^2 + c w3^2)/2, "
             "phi = (v_x + Omega y - r w2, v_y - Omega x + r w1)")
    params = [
        Param("r", [1.0], 1, "radius (unit mass; paper gives none, notes: 1)"),
        Param("abc", [0.4, 0.4, 0.4], 3, "moments of inertia over r^2 (a, b, c); 2/5: a solid "
              "ball (notes' choice); the first integrals need a = b = c"),
        Param("Omega", [1.0], 1, "angular velocity of the turntable (notes: 1)"),
        Param("R0", [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], 9,
              "initial attitude R (row-major); must be a rotation (1e-10), then projected"),
        Param("xy0", [1.0, 0.0], 2, "initial contact point (x, y) (notes: (1, 0))"),
        Param("eta0", [0.2, 0.1, 0.5, 0.1, 0.8], 5,
              "initial body velocity (w1, w2, w3, v_x, v_y); must satisfy phi = 0 (1e-10), then "
              "projected in the metric I"),
    ]
    columns = (["t"] + ["q%d" % i for i in range(1, 12)] + ["p%d" % i for i in range(1, 6)]
               + ["lambda1", "lambda2", "residual1", "residual2"])
    extra_columns = ["E", "omega_zeta", "C1", "C2", "E_mov", "group_defect"]
    coord_doc = ("q = (R11..R33, x, y), p = (r^2 a w1, r^2 b w2, r^2 c w3, v_x, v_y) (body), "
                 "lambda = -lambda_paper (force -A^T lambda, A = [[0,-r,0,1,0],[r,0,0,0,1]]), "
                 "residual = phi; --extra adds the kinetic energy E (not conserved: the "
                 "constraint is affine), the paper's first integrals for a = b = c "
                 "(omega_zeta = w3, C1 = r w1 - Omega x/(1+a), C2 = r w2 - Omega y/(1+a), "
                 "E_mov = |v|^2/2 + a r^2 |w|^2/2 + r Omega (x w1 + y w2) - Omega^2 (x^2+y^2)) "
                 "and max(|R^T R - I|, |det R - 1|)")
    has_exact = False

    def __init__(self):
        w = sp.symbols("w1:4", real=True)
        vx, vy, x, y = sp.symbols("v_x v_y x y", real=True)
        lam = sp.symbols("lam1:3", real=True)
        r, a, b, c = sp.symbols("r a b c", positive=True)
        Om = sp.Symbol("Omega", real=True)
        Iw = sp.diag(r**2 * a, r**2 * b, r**2 * c)
        wv = sp.Matrix(w)
        torque = sp.Matrix([r * lam[1], -r * lam[0], 0])
        wdot = Iw.inv() * ((Iw * wv).cross(wv) + torque)
        vdot = sp.Matrix(lam)
        phi = sp.Matrix([vx + Om * y - r * w[1], vy - Om * x + r * w[0]])
        st = list(w) + [vx, vy, x, y]
        rate = list(wdot) + list(vdot) + [vx, vy]  # d/dt of st
        dphi = phi.jacobian(st) * sp.Matrix(rate)
        sol = sp.solve(list(dphi), lam, dict=True)
        if len(sol) != 1:
            raise RefError("turntable: d/dt phi = 0 not uniquely solvable for lambda")
        self.lam_paper = [sp.simplify(sol[0][l]) for l in lam]
        self.wdot = [sp.simplify(e.subs(sol[0])) for e in wdot]
        self.phi = list(phi)
        self.syms = dict(w=w, vx=vx, vy=vy, x=x, y=y, r=r, a=a, b=b, c=c, Om=Om, lam=lam)
        args = list(w) + [vx, vy, x, y, r, a, b, c, Om]
        self._lam = sp.lambdify(args, self.lam_paper, "numpy")

    def equations(self):
        return ["g = (R, x, y) in SO(3) x R^2, xi = (w1, w2, w3, v_x, v_y) (body w: R^T Rdot = hat w)",
                "l = (v_x^2 + v_y^2)/2 + r^2 (a w1^2 + b w2^2 + c w3^2)/2",
                "phi = %s" % self.phi,
                "paper sign: I_w wdot = (I_w w) x w + (r lam2, -r lam1, 0), vdot = lam, "
                "Rdot = R hat w, (x, y)dot = v",
                "lam1 (paper) = %s" % self.lam_paper[0],
                "lam2 (paper) = %s" % self.lam_paper[1],
                "wdot = %s" % self.wdot,
                "output lambda = -lam (vistudy: force -A^T lambda); p = (I_w w, v)"]

    def pvals(self, vals):
        return [vals["r"][0]] + list(vals["abc"]) + [vals["Omega"][0]]

    @staticmethod
    def group_defect(R):
        return max(float(np.max(np.abs(R.T @ R - np.eye(3)))), abs(float(np.linalg.det(R)) - 1))

    def initial(self, vals):
        """(R0, (x0, y0), w0, v0): R0 must be a rotation to 1e-10 and is replaced by the nearest
        one (the polar factor, by SVD); eta0 must satisfy phi = 0 to 1e-10 relative and is
        projected onto it in the kinetic-energy metric I (the M-orthogonal projection)."""
        r, a, b, c, Om = self.pvals(vals)
        R = np.array(vals["R0"], float).reshape(3, 3)
        d = self.group_defect(R)
        if not (d <= RESIDUAL_MAX and np.linalg.det(R) > 0):
            raise RefError("turntable: R0 is not a rotation (max(|R^T R - I|, |det R - 1|) = "
                           "%.3g > %g)" % (d, RESIDUAL_MAX))
        U, _, Vt = np.linalg.svd(R)
        R = U @ Vt
        x0, y0 = vals["xy0"]
        eta = np.array(vals["eta0"], float)
        A = np.array([[0, -r, 0, 1, 0], [r, 0, 0, 0, 1]], float)
        off = np.array([Om * y0, -Om * x0])
        res = A @ eta + off
        if not np.max(np.abs(res)) <= RESIDUAL_MAX * max(1.0, float(np.max(np.abs(eta)))):
            raise RefError("turntable: inconsistent initial data, |phi(g0, eta0)| = %.3g > %g "
                           "(phi = v_x + Omega y - r w2, v_y - Omega x + r w1)"
                           % (np.max(np.abs(res)), RESIDUAL_MAX))
        Iinv = 1 / np.array([r * r * a, r * r * b, r * r * c, 1.0, 1.0])
        B = A * Iinv
        eta = eta - B.T @ np.linalg.solve(B @ A.T, res)
        return R, np.array([x0, y0]), eta[:3], eta[3:]

    def check_params(self, vals, given):
        r, a, b, c, Om = self.pvals(vals)
        if not (r > 0 and a > 0 and b > 0 and c > 0):
            raise RefError("turntable: need r, a, b, c > 0")
        self.initial(vals)

    def rhs_factory(self, pv):
        r, a, b, c, Om = pv
        Id = np.array([r * r * a, r * r * b, r * r * c])

        def rhs(t, y):
            R = y[0:9].reshape(3, 3)
            w, v = y[11:14], y[14:16]
            lam = np.array(self._lam(w[0], w[1], w[2], v[0], v[1], y[9], y[10], *pv), float)
            wd = (np.cross(Id * w, w) + np.array([r * lam[1], -r * lam[0], 0.0])) / Id
            return np.concatenate([(R @ hat(w)).ravel(), v, wd, lam])
        return rhs

    def table(self, vals, tk, rtol, atol, extra):
        pv = self.pvals(vals)
        R0, xy0, w0, v0 = self.initial(vals)
        y0 = np.concatenate([R0.ravel(), xy0, w0, v0])
        Y = integrate(self.rhs_factory(pv), y0, tk, rtol, atol)
        return self.assemble(tk, Y, pv, extra)

    def invariants(self, pv, XY, W, V):
        """The paper's first integrals for a = b = c (notes sec. 2.5, formula as printed there;
        verified in the selftest)."""
        r, a, b, c, Om = pv
        x, y = XY[:, 0], XY[:, 1]
        C1 = r * W[:, 0] - Om * x / (1 + a)
        C2 = r * W[:, 1] - Om * y / (1 + a)
        Emov = ((V**2).sum(1) / 2 + a * r * r * (W**2).sum(1) / 2
                + r * Om * (x * W[:, 0] + y * W[:, 1]) - Om**2 * (x * x + y * y))
        return [W[:, 2], C1, C2, Emov]

    def assemble(self, tk, Y, pv, extra):
        r, a, b, c, Om = pv
        Id = np.array([r * r * a, r * r * b, r * r * c])
        XY, W, V = Y[:, 9:11], Y[:, 11:14], Y[:, 14:16]
        lam = np.array([self._lam(*W[k], *V[k], *XY[k], *pv) for k in range(len(tk))], float)
        lam = lam.reshape(len(tk), 2)
        res = np.column_stack([V[:, 0] + Om * XY[:, 1] - r * W[:, 1],
                               V[:, 1] - Om * XY[:, 0] + r * W[:, 0]])
        cols = [tk] + [Y[:, i] for i in range(11)] + [Id[i] * W[:, i] for i in range(3)]
        cols += [V[:, 0], V[:, 1], -lam[:, 0], -lam[:, 1], res[:, 0], res[:, 1]]
        idx = {"q": list(range(1, 12)), "p": list(range(12, 17)), "lambda": [17, 18],
               "residual": [19, 20]}
        if extra:
            cols.append((V**2).sum(1) / 2 + ((Id * W**2).sum(1)) / 2)
            cols += self.invariants(pv, XY, W, V)
            cols.append(np.array([self.group_defect(Y[k, :9].reshape(3, 3))
                                  for k in range(len(tk))]))
        return np.column_stack(cols), idx

    def closed_form(self, vals, tk):
        """For a = b = c (notes sec. 2.5): lam = kappa (-v_y, v_x), kappa = Omega a/(1+a), so
        v(t) = rot(kappa t) v0 and the contact point runs on a circle; w1, w2 from the first
        integrals C1, C2, w3 constant. Returns x, y, v, w and lam (PAPER sign)."""
        r, a, b, c, Om = self.pvals(vals)
        if not (a == b == c):
            raise RefError("turntable: the closed form needs a = b = c")
        _, (x0, y0), w0, (vx0, vy0) = self.initial(vals)
        k = Om * a / (1 + a)
        t = np.asarray(tk, float)
        ck, sk = np.cos(k * t), np.sin(k * t)
        vx, vy = vx0 * ck - vy0 * sk, vx0 * sk + vy0 * ck
        if k != 0:
            x = x0 + (vx0 * sk + vy0 * (ck - 1)) / k
            y = y0 + (vx0 * (1 - ck) + vy0 * sk) / k
        else:
            x, y = x0 + vx0 * t, y0 + vy0 * t
        C1 = r * w0[0] - Om * x0 / (1 + a)
        C2 = r * w0[1] - Om * y0 / (1 + a)
        w1 = (C1 + Om * x / (1 + a)) / r
        w2 = (C2 + Om * y / (1 + a)) / r
        w3 = w0[2] + 0 * t
        return (np.column_stack([x, y]), np.column_stack([vx, vy]),
                np.column_stack([w1, w2, w3]), np.column_stack([-k * vy, k * vx]))


# ----------------------------------------------------------------------------------------------
# holonomic systems of betsch-ggl sec. 6: pendulum-3d (92)-(99) and gyro-top (100)-(112)
# ----------------------------------------------------------------------------------------------

class Holonomic(System):
    """Index-1 form of L(q, v) with holonomic constraints g(q) = 0, derived with sympy.

    d/dt(dL/dv) - dL/dq = -G^T lambda, G = dg/dq   (harness sign, as betsch-ggl (28b))
    => [L_vv  G^T] [qdd   ]   [L_q - L_vq v       ]
       [G     0  ] [lambda] = [-(d(G v)/dq) v      ]   (d^2/dt^2 g = 0)
    The pieces (L_vv, L_q - L_vq v, G, d(Gv)/dq v) are sympy expressions, lambdified; the
    (n + m) linear system is solved numerically at every right-hand side (n = 12, m = 9 for
    the top is too large for a symbolic solve). residual = (g(q), G(q) v).
    """

    def setup(self, q, v, prm, L, g):
        n, m = len(q), len(g)
        self.n, self.m = n, m
        qv, vv = sp.Matrix(q), sp.Matrix(v)
        gm = sp.Matrix(g)
        Lv = sp.Matrix([sp.diff(L, vi) for vi in v])
        Lq = sp.Matrix([sp.diff(L, qi) for qi in q])
        Mm = Lv.jacobian(vv)
        f = Lq - Lv.jacobian(qv) * vv
        G = gm.jacobian(qv)
        c = (G * vv).jacobian(qv) * vv
        self.Lsym, self.gsym, self.M, self.G, self.f, self.c = L, gm, Mm, G, f, c
        self.E = sp.expand((vv.T * Lv)[0] - L)
        self.q, self.v, self.prm = q, v, prm
        args = list(q) + list(v) + list(prm)
        self._M = sp.lambdify(args, Mm, "numpy")
        self._f = sp.lambdify(args, list(f), "numpy")
        self._G = sp.lambdify(args, G, "numpy")
        self._c = sp.lambdify(args, list(c), "numpy")
        self._g = sp.lambdify(args, list(gm), "numpy")
        self._p = sp.lambdify(args, list(Lv), "numpy")
        self._E = sp.lambdify(args, self.E, "numpy")

    def equations(self):
        return ["q = %s, v = qdot = %s, parameters %s" % (self.q, self.v, self.prm),
                "L = %s" % self.Lsym, "g = %s" % list(self.gsym),
                "M = L_vv = %s" % self.M.tolist(), "L_q - L_vq v = %s" % list(self.f),
                "G = %s" % self.G.tolist(), "d(G v)/dq v = %s" % list(self.c),
                "sign: d/dt(dL/dv) - dL/dq = -G^T lambda; lambda from [M G^T; G 0] "
                "(qdd, lambda) = (L_q - L_vq v, -d(Gv)/dq v), solved numerically",
                "E = %s" % self.E]

    def pvals(self, vals):
        raise NotImplementedError

    def initial(self, vals):
        raise NotImplementedError

    def accel(self, q, v, pv):
        a = list(q) + list(v) + list(pv)
        n, m = self.n, self.m
        K = np.zeros((n + m, n + m))
        K[:n, :n] = np.array(self._M(*a), float)
        G = np.array(self._G(*a), float)
        K[:n, n:] = G.T
        K[n:, :n] = G
        rhs = np.concatenate([np.array(self._f(*a), float).ravel(),
                              -np.array(self._c(*a), float).ravel()])
        sol = np.linalg.solve(K, rhs)
        return sol[:n], sol[n:]

    def check_consistent(self, vals):
        q0, v0 = self.initial(vals)
        a = list(q0) + list(v0) + self.pvals(vals)
        r = max(float(np.max(np.abs(np.array(self._g(*a), float)))),
                float(np.max(np.abs(np.array(self._G(*a), float) @ v0))))
        if r > RESIDUAL_MAX * max(1.0, float(np.max(np.abs(v0)))):
            raise RefError("%s: inconsistent initial data, max(|g(q0)|, |G(q0) v0|) = %.3g > %g"
                           % (self.name, r, RESIDUAL_MAX))

    def check_params(self, vals, given):
        self.check_consistent(vals)

    def table(self, vals, tk, rtol, atol, extra):
        self.check_consistent(vals)
        pv = self.pvals(vals)
        n = self.n
        q0, v0 = self.initial(vals)

        def rhs(t, y):
            return np.concatenate([y[n:], self.accel(y[:n], y[n:], pv)[0]])
        Y = integrate(rhs, np.concatenate([q0, v0]), tk, rtol, atol)
        return self.assemble(tk, Y[:, :n], Y[:, n:], pv, extra)

    def assemble(self, tk, Q, V, pv, extra):
        n, m = self.n, self.m
        rows = []
        for k in range(len(tk)):
            a = list(Q[k]) + list(V[k]) + list(pv)
            lam = self.accel(Q[k], V[k], pv)[1]
            p = np.array(self._p(*a), float).ravel()
            res = np.concatenate([np.array(self._g(*a), float).ravel(),
                                  np.array(self._G(*a), float) @ V[k]])
            row = [tk[k]] + list(Q[k]) + list(p) + list(lam) + list(res)
            if extra:
                row += [float(self._E(*a))] + self.extra_cols(Q[k], p)
            rows.append(row)
        idx = {"q": list(range(1, 1 + n)), "p": list(range(1 + n, 1 + 2 * n)),
               "lambda": list(range(1 + 2 * n, 1 + 2 * n + m)),
               "residual": list(range(1 + 2 * n + m, 1 + 2 * n + 3 * m))}
        return np.array(rows, float), idx

    def extra_cols(self, q, p):
        """J3 = e3 . sum over the 3-blocks of q_i x p_i ((98), (107))."""
        return [sum(q[3 * b] * p[3 * b + 1] - q[3 * b + 1] * p[3 * b]
                    for b in range(len(q) // 3))]


def holo_columns(n, m):
    return (["t"] + ["q%d" % i for i in range(1, n + 1)] + ["p%d" % i for i in range(1, n + 1)]
            + ["lambda%d" % i for i in range(1, m + 1)]
            + ["residual%d" % i for i in range(1, 2 * m + 1)])


class Pendulum3D(Holonomic):
    name = "pendulum-3d"
    title = ("mathematical pendulum in 3D (betsch-ggl sec. 6.1, (92)-(93)): "
             "L = m|v|^2/2 + m b.q, b = -gravity e3, g = (q.q/l^2 - 1)/2")
    params = [
        Param("m", [1.0], 1, "mass (paper: 1)"),
        Param("l", [1.0], 1, "rod length (paper: 1)"),
        Param("gravity", [9.81], 1, "b = -gravity e3 (paper: 9.81)"),
        Param("q0", [1.0, 0.0, 0.0], 3, "initial position (paper: (1, 0, 0)); |q0| = l"),
        Param("v0", [0.0, 1.0, 0.0], 3, "initial velocity (paper: (0, 1, 0)); q0.v0 = 0"),
    ]
    columns = holo_columns(3, 1)
    extra_columns = ["E", "Jz"]
    coord_doc = ("q in R^3, p = m v, lambda: M qdd = -grad V - G^T lambda (G = q^T/l^2), "
                 "residual = (g, G v); --extra adds E and J3 = (q x p).e3 (98)")

    def __init__(self):
        q = sp.symbols("x y z", real=True)
        v = sp.symbols("v_x v_y v_z", real=True)
        m, l, grav = sp.symbols("m l gravity", real=True)
        b = sp.Matrix([0, 0, -grav])
        qv, vv = sp.Matrix(q), sp.Matrix(v)
        L = m * vv.dot(vv) / 2 + m * b.dot(qv)                 # (92)
        g = [(qv.dot(qv) / l**2 - 1) / 2]                       # (93)
        self.setup(list(q), list(v), [m, l, grav], L, g)

    def pvals(self, vals):
        return [vals["m"][0], vals["l"][0], vals["gravity"][0]]

    def initial(self, vals):
        return np.array(vals["q0"], float), np.array(vals["v0"], float)

    def check_params(self, vals, given):
        if not (vals["m"][0] > 0 and vals["l"][0] > 0):
            raise RefError("%s: m and l must be positive" % self.name)
        self.check_consistent(vals)


class GyroTop(Holonomic):
    """The director top of betsch-ggl sec. 6.2. Its data are derived as the paper states them:
    d_i0 = R(alpha0) e_i (108)-(109), phi0 = R(alpha0) (0, 0, l) (110), omega0 = omega_p e3 +
    omega_s d3 (111), v_i0 = omega0 x q_i0, omega_s by (112) (Goldstein's steady precession)."""
    name = "gyro-top"
    title = ("heavy top, director formulation (betsch-ggl sec. 6.2, (100)-(112)): q = (phi, d1, "
             "d2, d3), L = m|phidot|^2/2 + sum E_i |d_i dot|^2/2 - m gravity phi3, "
             "E_i = (I_j + I_k - I_i)/2, g = ((d_i.d_i - 1)/2, d1.d2, d1.d3, d2.d3, phi/l - d3)")
    params = [
        Param("m", [0.225 * np.pi], 1, "mass (authors' 0.225 pi; paper prints 0.7069)"),
        Param("I1", [0.3 * 0.225 * np.pi * 0.05**2], 1, "principal moment about the centre of "
              "mass along d1 (0.3 m r^2, r = 0.05)"),
        Param("I2", [0.3 * 0.225 * np.pi * 0.05**2], 1, "along d2"),
        Param("I3", [0.3 * 0.225 * np.pi * 0.05**2], 1, "along d3 (the symmetry axis)"),
        Param("l", [0.075], 1, "centre of mass at l d3"),
        Param("gravity", [9.81], 1, "b = -gravity e3"),
        Param("alpha0", [np.pi / 3], 1, "initial nutation angle (108)"),
        Param("omega_p", [10.0], 1, "precession rate (111)"),
    ]
    columns = holo_columns(12, 9)
    extra_columns = ["E", "Jz"]
    coord_doc = ("q = (phi, d1, d2, d3), p = M v, lambda: M qdd = -grad V - G^T lambda with "
                 "g in the order of (103)-(104), residual = (g, G v); --extra adds E and "
                 "J3 = e3 . sum q_i x p_i (107)")

    def __init__(self):
        q = sp.symbols("phi1:4 d11:14 d21:24 d31:34", real=True)
        v = sp.symbols("u1:4 w11:14 w21:24 w31:34", real=True)
        m, I1, I2, I3, l, grav = sp.symbols("m I1 I2 I3 l gravity", real=True)
        blk = [sp.Matrix(q[3 * i:3 * i + 3]) for i in range(4)]
        vbl = [sp.Matrix(v[3 * i:3 * i + 3]) for i in range(4)]
        E = [(I2 + I3 - I1) / 2, (I3 + I1 - I2) / 2, (I1 + I2 - I3) / 2]   # (101)
        L = (m * vbl[0].dot(vbl[0]) + sum(E[i] * vbl[i + 1].dot(vbl[i + 1]) for i in range(3))) / 2
        L -= m * grav * blk[0][2]                                            # V = -m b.phi
        phi, d1, d2, d3 = blk
        g = [(d1.dot(d1) - 1) / 2, (d2.dot(d2) - 1) / 2, (d3.dot(d3) - 1) / 2,   # (103)
             d1.dot(d2), d1.dot(d3), d2.dot(d3)] + list(phi / l - d3)          # (104)
        self.Esym = E
        self.setup(list(q), list(v), [m, I1, I2, I3, l, grav], L, g)

    def pvals(self, vals):
        return [vals[k][0] for k in ("m", "I1", "I2", "I3", "l", "gravity")]

    @staticmethod
    def omega_s(m, I1, I3, l, grav, alpha0, omega_p):
        """(112)."""
        return m * grav * l / (I3 * omega_p) + (I1 + m * l * l - I3) / I3 * omega_p * np.cos(alpha0)

    def initial(self, vals):
        m, I1, I2, I3, l, grav = self.pvals(vals)
        a0, wp = vals["alpha0"][0], vals["omega_p"][0]
        ca, sa = np.cos(a0), np.sin(a0)
        R = np.array([[1, 0, 0], [0, ca, -sa], [0, sa, ca]])            # (108)
        d = [R[:, i] for i in range(3)]                                   # (109)
        phi = R @ np.array([0, 0, l])                                     # (110)
        w0 = wp * np.array([0, 0, 1.0]) + self.omega_s(m, I1, I3, l, grav, a0, wp) * d[2]  # (111)
        qs = [phi] + d
        return np.concatenate(qs), np.concatenate([np.cross(w0, x) for x in qs])

    def check_params(self, vals, given):
        m, I1, I2, I3, l, grav = self.pvals(vals)
        E = [(I2 + I3 - I1) / 2, (I3 + I1 - I2) / 2, (I1 + I2 - I3) / 2]
        if not (m > 0 and l > 0 and min(E) > 0):
            raise RefError("%s: need m, l > 0 and every E_i = (I_j + I_k - I_i)/2 > 0" % self.name)
        if vals["omega_p"][0] == 0:
            raise RefError("%s: omega_p must be nonzero ((112) divides by it)" % self.name)
        self.check_consistent(vals)


SYSTEMS = {}


def get_system(name):
    cls = {"lotka-volterra": LotkaVolterra, "kepler": Kepler, "point-vortices": PointVortices,
           "nonholonomic-particle": Particle, "vertical-disc": Disc,
           "turntable": Turntable, "knife-edge-incline": KnifeEdge,
           "pendulum-3d": Pendulum3D, "gyro-top": GyroTop, "cvt": CVT,
           "chaotic-nh": ChaoticNH}.get(name)
    if cls is None:
        raise RefError("unknown system %r (known: %s)" % (name, ", ".join(ALL)))
    if name not in SYSTEMS:
        SYSTEMS[name] = cls()
    return SYSTEMS[name]


ALL = ["lotka-volterra", "kepler", "point-vortices", "nonholonomic-particle", "vertical-disc",
       "turntable", "knife-edge-incline", "pendulum-3d", "gyro-top", "cvt", "chaotic-nh"]


# ----------------------------------------------------------------------------------------------
# running, output, accuracy estimate
# ----------------------------------------------------------------------------------------------

def header(sysm, extra):
    return sysm.columns + (sysm.extra_columns if extra else [])


def write_csv(path, cols, data):
    lines = [",".join(cols)]
    for row in data:
        lines.append(",".join(fmt(x) for x in row))
    text = "\n".join(lines) + "\n"
    if path in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


def group_diff(a, b, idx):
    return {g: float(np.max(np.abs(a[:, c] - b[:, c]))) for g, c in idx.items()}


def run(argv):
    sysname = argv[0]
    sets, h, T, exact, out = [], None, None, False, "-"
    rtol, atol, extra, estimate = RTOL_DEFAULT, ATOL_DEFAULT, False, True
    i = 1
    while i < len(argv):
        a = argv[i]

        def nxt():
            if i + 1 >= len(argv):
                raise RefError("%s needs a value" % a)
            return argv[i + 1]
        if a == "--set":
            sets.append(nxt()); i += 2
        elif a == "--h":
            h = parse_value(nxt()); i += 2
        elif a == "--T":
            T = parse_value(nxt()); i += 2
        elif a == "--out":
            out = nxt(); i += 2
        elif a == "--rtol":
            rtol = float(nxt()); i += 2
        elif a == "--atol":
            atol = float(nxt()); i += 2
        elif a == "--exact":
            exact = True; i += 1
        elif a == "--extra":
            extra = True; i += 1
        elif a == "--no-estimate":
            estimate = False; i += 1
        else:
            raise RefError("unknown option %r" % a)
    if h is None or T is None:
        raise RefError("--h and --T are required")
    sysm = get_system(sysname)
    vals = sysm.resolve(parse_sets(sets))
    tk, N = node_times(h, T)
    cols = header(sysm, extra)
    if exact:
        if not sysm.has_exact:
            raise RefError("%s: no closed-form solution; run without --exact" % sysname)
        data, idx = sysm.exact_table(vals, tk, extra)
        num, _ = sysm.table(vals, tk, rtol, atol, extra)
        d = group_diff(data, num, idx)
        sys.stderr.write("%s: exact solution written; DOP853 (rtol %g, atol %g) vs exact, max abs "
                         "diff over %d nodes: %s\n"
                         % (sysname, rtol, atol, N + 1,
                            ", ".join("%s %.2e" % kv for kv in d.items())))
    else:
        data, idx = sysm.table(vals, tk, rtol, atol, extra)
        if estimate and N > 0:
            r2, a2 = rtol * 100, atol * 100
            loose, _ = sysm.table(vals, tk, r2, a2, extra)
            d = group_diff(data, loose, idx)
            sys.stderr.write("%s: DOP853 rtol %g atol %g; max over %d nodes of |y - y(rtol %g, "
                             "atol %g)|: %s (a bound: the looser run dominates; with error ~ tol "
                             "the error of this run is about 1/100 of it)\n"
                             % (sysname, rtol, atol, N + 1, r2, a2,
                                ", ".join("%s %.2e" % kv for kv in d.items())))
    if "residual" in idx:
        res = float(np.max(np.abs(data[:, idx["residual"]])))
        sys.stderr.write("%s: max |constraint residual A(q)v| = %.2e\n" % (sysname, res))
        if "lambda" in idx:
            sys.stderr.write("%s: lambda(0) = %s (harness sign: force -A^T lambda)\n"
                             % (sysname, ", ".join(fmt(x) for x in data[0, idx["lambda"]])))
    write_csv(out, cols, data)


def cmd_list():
    for name in ALL:
        s = get_system(name)
        print("%s: %s" % (name, s.title))
        for p in s.params:
            d = "(unset)" if p.default is None else ",".join(repr(x) for x in p.default)
            print("  %-5s [%d] = %-18s %s" % (p.name, p.count, d, p.meaning))
        print("  columns: %s" % ",".join(s.columns))
        print("  --extra adds: %s" % ",".join(s.extra_columns))
        print("  %s" % s.coord_doc)
        print("  exact solution (--exact): %s" % ("yes" if s.has_exact else "no"))
        print()


def cmd_equations(name):
    for line in get_system(name).equations():
        print(line)


# ----------------------------------------------------------------------------------------------
# selftest
# ----------------------------------------------------------------------------------------------

def selftest():
    fails = []

    def check(label, value, limit):
        ok = value <= limit
        print("%-4s %-72s %.3e (limit %.0e)" % ("ok" if ok else "FAIL", label, value, limit))
        if not ok:
            fails.append(label)

    def check_true(label, cond):
        print("%-4s %s" % ("ok" if cond else "FAIL", label))
        if not cond:
            fails.append(label)

    # --- Lotka-Volterra --------------------------------------------------------------------
    lv = get_system("lotka-volterra")
    u, v, a1, a2, b1, b2, H0 = lv.syms
    defaults = {a1: 1, a2: 1, b1: -1, b2: -2, H0: 2}
    check_true("LV: sympy EL gives u' = u(v-2), v' = v(1-u) with the defaults",
               sp.simplify(lv.f[0].subs(defaults) - u * (v - 2)) == 0
               and sp.simplify(lv.f[1].subs(defaults) - v * (1 - u)) == 0)
    check_true("LV: general u' = u(a2 v + b2), v' = -v(a1 u + b1)",
               sp.simplify(lv.f[0] - u * (a2 * v + b2)) == 0
               and sp.simplify(lv.f[1] + v * (a1 * u + b1)) == 0)
    vals = lv.resolve([])
    tk, _ = node_times(0.5, 5.0)
    ref5 = np.array([0.71604379261669363052, 1.0527457406914715686])
    for rtol in (1e-13, RTOL_DEFAULT):
        data, _ = lv.table(vals, tk, rtol, ATOL_DEFAULT, True)
        check("LV: |q(5) - mpmath reference|_inf, DOP853 rtol %g" % rtol,
              float(np.max(np.abs(data[-1, 1:3] - ref5))), 1e-12)
    data, _ = lv.table(vals, node_times(0.01, 5.0)[0], RTOL_DEFAULT, ATOL_DEFAULT, True)
    check("LV: q(5) at h = 0.01 nodes (dense output) vs reference",
          float(np.max(np.abs(data[-1, 1:3] - ref5))), 1e-12)
    check("LV: max |H(t_k)| (H = 0 on the orbit), h = 0.01, T = 5",
          float(np.max(np.abs(data[:, 5]))), 3e-12)
    check("LV: p = alpha(q) at t = 0: |p0 - (1, 1)|", float(np.max(np.abs(data[0, 3:5] - 1))), 0)

    # --- particle ----------------------------------------------------------------------------
    pt = get_system("nonholonomic-particle")
    x, y, z = pt.q
    vx, vy, vz = pt.v
    m, k = pt.prm
    paper_lam = (vx * vy - x * y) / (1 + y**2)  # notes sec. 2.1, paper sign (+A^T lambda)
    check_true("particle: sympy lambda = -(v_x v_y - x y)/(1+y^2) (m=k=1; = -lambda_paper)",
               sp.simplify(pt.lam[0].subs({m: 1, k: 1}) + paper_lam) == 0)
    check_true("particle: x'' = -(k x + m y v_y v_x)/(m(1+y^2)), y'' = -k y/m",
               sp.simplify(pt.qdd[0] + (k * x + m * y * vy * vx) / (m * (1 + y**2))) == 0
               and sp.simplify(pt.qdd[1] + k * y / m) == 0)
    cases = [("defaults", []),
             ("m=2,k=3,q0=-0.4,1.2,0.3,v0=0.7,-0.5,0.84",
              [("m", [2.0]), ("k", [3.0]), ("q0", [-0.4, 1.2, 0.3]), ("v0", [0.7, -0.5, 0.84])])]
    for label, sets in cases:
        vals = pt.resolve(sets)
        tk, _ = node_times(0.05, 20.0)
        num, idx = pt.table(vals, tk, RTOL_DEFAULT, ATOL_DEFAULT, True)
        ex, _ = pt.exact_table(vals, tk, True)
        for g in ("q", "p", "lambda"):
            check("particle %s: max |numerical - exact| %s, h = 0.05, T = 20" % (label, g),
                  float(np.max(np.abs(num[:, idx[g]] - ex[:, idx[g]]))), 1e-11)
        check("particle %s: max |Phi| along the numerical reference" % label,
              float(np.max(np.abs(num[:, idx["residual"]]))), RESIDUAL_MAX)
        check("particle %s: max |Phi| along the exact solution" % label,
              float(np.max(np.abs(ex[:, idx["residual"]]))), 1e-13)
        E = num[:, -1]
        check("particle %s: energy drift max |E - E0|" % label, float(np.max(np.abs(E - E[0]))),
              1e-12)
    vals = pt.resolve([])
    num, idx = pt.table(vals, np.array([0.0]), RTOL_DEFAULT, ATOL_DEFAULT, False)
    check("particle: lambda(0) = +0.208 at the defaults (paper sign: -0.208)",
          abs(num[0, idx["lambda"][0]] - 0.208), 1e-15)
    tk, _ = node_times(0.1, 2.0)
    num, idx = pt.table(vals, tk, RTOL_DEFAULT, ATOL_DEFAULT, False)
    check("particle: lambda(2) = -0.41117805684 (notes' value, paper sign +)",
          abs(num[-1, idx["lambda"][0]] + 0.41117805684), 1e-10)
    try:
        pt.resolve([("v0", [0.3, 0.8, 0.0])])
        check_true("particle: inconsistent v0 refused", False)
    except RefError as e:
        check_true("particle: inconsistent v0 refused (%s)" % str(e)[:60], True)

    # --- vertical disc -------------------------------------------------------------------------
    dc = get_system("vertical-disc")
    x, y, th = dc.q
    vx, vy, vth = dc.v
    m, Iz, k = dc.prm
    check_true("disc: theta'' = 0", sp.simplify(dc.qdd[2]) == 0)
    cases = [("defaults", []),
             ("m=2.5,Iz=0.3,k=1.7,q0=-0.8,1.1,2.0,eta0=-0.6,0,-1.3",
              [("m", [2.5]), ("Iz", [0.3]), ("k", [1.7]), ("q0", [-0.8, 1.1, 2.0]),
               ("eta0", [-0.6, 0.0, -1.3])]),
             ("k=0,omega=0 (free straight line)", [("k", [0.0]), ("eta0", [0.4, 0.0, 0.0])])]
    for label, sets in cases:
        vals = dc.resolve(sets)
        tk, _ = node_times(0.05, 20.0)
        num, idx = dc.table(vals, tk, RTOL_DEFAULT, ATOL_DEFAULT, True)
        ex, _ = dc.exact_table(vals, tk, True)
        for g in ("q", "p", "lambda"):
            check("disc %s: max |numerical - exact| %s, h = 0.05, T = 20" % (label[:30], g),
                  float(np.max(np.abs(num[:, idx[g]] - ex[:, idx[g]]))), 1e-11)
        check("disc %s: max |Phi| along the numerical reference" % label[:30],
              float(np.max(np.abs(num[:, idx["residual"]]))), RESIDUAL_MAX)
        check("disc %s: max |Phi| along the exact solution" % label[:30],
              float(np.max(np.abs(ex[:, idx["residual"]]))), 1e-13)
        E = num[:, idx["residual"][-1] + 1]
        check("disc %s: energy drift max |E - E0|" % label[:30], float(np.max(np.abs(E - E[0]))),
              1e-12)
        # notes' closed form for lambda (paper sign): lambda_paper = m omega v1 + k r
        mm, Iz_, kk = dc.pvals(vals)
        Q, V = num[:, 1:4], num[:, 4:7] / np.array([mm, mm, Iz_])
        v1 = V[:, 0] * np.cos(Q[:, 2]) + V[:, 1] * np.sin(Q[:, 2])
        r = -Q[:, 0] * np.sin(Q[:, 2]) + Q[:, 1] * np.cos(Q[:, 2])
        check("disc %s: lambda = -(m omega v1 + k r) along the reference" % label[:30],
              float(np.max(np.abs(num[:, idx["lambda"][0]] + mm * V[:, 2] * v1 + kk * r))), 1e-12)
    vals = dc.resolve([])
    num, idx = dc.table(vals, np.array([0.0]), RTOL_DEFAULT, ATOL_DEFAULT, False)
    check("disc: lambda(0) = -0.3221480379014634 (notes, paper sign +)",
          abs(num[0, idx["lambda"][0]] + 0.3221480379014634), 1e-15)
    vals2 = dc.resolve([("v0", list(dc.initial(vals)[1]))])
    check("disc: v0 given in coordinates reproduces eta0", float(np.max(np.abs(
        dc.table(vals2, node_times(0.5, 5.0)[0], RTOL_DEFAULT, ATOL_DEFAULT, False)[0]
        - dc.table(vals, node_times(0.5, 5.0)[0], RTOL_DEFAULT, ATOL_DEFAULT, False)[0]))), 0)
    try:
        dc.resolve([("eta0", [0.2, 0.1, 0.7])])
        check_true("disc: lateral velocity refused", False)
    except RefError as e:
        check_true("disc: lateral velocity v2 != 0 refused (%s)" % str(e)[:60], True)

    # --- long-time constraint drift of the index-1 reference -----------------------------
    for name in ("nonholonomic-particle", "vertical-disc"):
        sm = get_system(name)
        num, idx = sm.table(sm.resolve([]), node_times(0.1, 200.0)[0], RTOL_DEFAULT,
                            ATOL_DEFAULT, True)
        check("%s: max |Phi| along the reference, T = 200" % name,
              float(np.max(np.abs(num[:, idx["residual"]]))), RESIDUAL_MAX)
        check("%s: energy drift max |E - E0|, T = 200" % name,
              float(np.max(np.abs(num[:, idx["residual"][-1] + 1] - num[0, idx["residual"][-1] + 1]))),
              1e-11)

    # --- degenerate systems: the generic Euler-Lagrange derivation ---------------------------
    for name in ("kepler", "point-vortices"):
        dg = get_system(name)
        resid = sp.Matrix(dg.el) - (dg.M * sp.Matrix(dg.qd) - sp.Matrix(dg.gradH))
        check_true("%s: sympy EL equations = (Dalpha^T - Dalpha) qdot - grad H (tyranowski2014 "
                   "(2.8))" % name, all(sp.simplify(r) == 0 for r in resid))

    # --- Kepler --------------------------------------------------------------------------------
    kp = get_system("kepler")
    x, y, px, py = kp.q
    mu_s = kp.prm[0]
    r3 = (x**2 + y**2) ** sp.Rational(3, 2)
    check_true("kepler: M = Dalpha^T - Dalpha = [[0, -I], [I, 0]] (the canonical form)",
               kp.M == sp.Matrix([[0, 0, -1, 0], [0, 0, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0]]))
    check_true("kepler: sympy EL gives Hamilton's equations x' = p_x, y' = p_y, "
               "p' = -mu q/r^3",
               all(sp.simplify(a - b) == 0 for a, b in
                   zip(kp.f, [px, py, -mu_s * x / r3, -mu_s * y / r3])))
    vals = kp.resolve([])
    num, _ = kp.table(vals, np.array([0.0]), RTOL_DEFAULT, ATOL_DEFAULT, True)
    check("kepler: p = alpha(q0) = (0, sqrt(3)/2, -1/4, 0), H(q0) = 0, L = sqrt(3)/2 (defaults)",
          float(np.max(np.abs(num[0, 5:] - [0, np.sqrt(3) / 2, -0.25, 0, 0, np.sqrt(3) / 2]))),
          3e-16)
    _, info = kp.orbit(1.0, vals["q0"], [0.0])
    check("kepler: defaults are the pericentre of a = 1, e = 1/2: |a - 1| + |e - 1/2|",
          abs(info["a"] - 1) + abs(info["e"] - 0.5), 1e-15)
    # the closed form against the ODE itself, at 60 digits (central differences, step 1e-20)
    import mpmath as mpm
    with mpm.workdps(60):
        worst = mpm.mpf(0)
        for mu_, q0_ in (("1", ["0.5", "0", "0", "1.7320508075688772935"]),
                         ("0.6", ["-1.2", "0.4", "-0.25", "0.55"]),
                         ("1", ["1", "0", "0", "0.1"])):
            m_ = mpm.mpf(mu_)
            for tc in ("0.37", "1.12", "2.9", "7.3"):
                e_ = mpm.mpf("1e-20")
                tt = [mpm.mpf(tc) - e_, mpm.mpf(tc), mpm.mpf(tc) + e_]
                Y, _ = kp.orbit(m_, q0_, tt, dps=60, raw=True)
                xx, yy, ux, uy = Y[1]
                rr3 = (xx * xx + yy * yy) ** mpm.mpf(1.5)
                f_ = [ux, uy, -m_ * xx / rr3, -m_ * yy / rr3]
                for j in range(4):
                    worst = max(worst, abs((Y[2][j] - Y[0][j]) / (2 * e_) - f_[j]) / (1 + abs(f_[j])))
        check("kepler --exact satisfies q' = f(q) at 60 digits (3 orbits incl. e = 0.99, "
              "relative residual)", float(worst), 1e-30)
        # a = 1, e = 1/2 from the pericentre (1/2, 0): apocentre (-3/2, 0), p = (0, -1/sqrt(3))
        # at t = pi, q0 again at t = 2 pi
        q0_ = [mpm.mpf("0.5"), 0, 0, mpm.sqrt(3)]
        Y, _ = kp.orbit(1, q0_, [mpm.pi, 2 * mpm.pi], dps=60, raw=True)
        check("kepler --exact (60 digits): apocentre at t = pi, q0 again at t = 2 pi",
              float(max(max(abs(a - b) for a, b in zip(Y[0], [-1.5, 0, 0, -1 / mpm.sqrt(3)])),
                        max(abs(a - b) for a, b in zip(Y[1], q0_)))), 1e-55)
    cases = [("defaults, T = 10 (1.6 periods)", [], 0.25, 10.0, 5e-12),
             ("mu=1.7,q0=0.9,0.2,-0.3,1.1, T = 3 (1 period)",
              [("mu", [1.7]), ("H0", [0.4]), ("q0", [0.9, 0.2, -0.3, 1.1])], 0.1, 3.0, 5e-12),
             ("clockwise e=0.70, T = 10",
              [("mu", [0.6]), ("H0", [-0.3]), ("q0", [-1.2, 0.4, -0.25, 0.55])], 0.25, 10.0, 1e-12),
             ("circular, T = 8", [("q0", [1.0, 0.0, 0.0, 1.0])], 0.5, 8.0, 1e-12),
             ("e = 0.99 through pericentre, T = 2.3",
              [("q0", [1.0, 0.0, 0.0, 0.1])], 0.01, 2.3, 2e-9)]
    for label, sets, h, T, lim in cases:
        vals = kp.resolve(sets)
        tk, _ = node_times(h, T)
        num, idx = kp.table(vals, tk, RTOL_DEFAULT, ATOL_DEFAULT, True)
        ex, _ = kp.exact_table(vals, tk, True)
        for g in ("q", "p"):
            check("kepler %s: max |DOP853 - exact| %s" % (label, g),
                  float(np.max(np.abs(num[:, idx[g]] - ex[:, idx[g]]))), lim)
        for j, nm in ((9, "H"), (10, "L")):
            check("kepler %s: %s drift along the exact solution" % (label, nm),
                  float(np.max(np.abs(ex[:, j] - ex[0, j]))), 1e-13 if "0.99" not in label else 1e-12)
    vals = kp.resolve([("q0", [-1.2, 0.4, -0.25, 0.55])])
    check_true("kepler: the clockwise held-out orbit has L < 0 (L = %.3g)"
               % kp.table(vals, np.array([0.0]), RTOL_DEFAULT, ATOL_DEFAULT, True)[0][0, 10],
               kp.table(vals, np.array([0.0]), RTOL_DEFAULT, ATOL_DEFAULT, True)[0][0, 10] < 0)
    try:
        kp.exact_table(kp.resolve([("q0", [1.0, 0.0, 0.0, 1.6])]), np.array([0.0, 1.0]), False)
        check_true("kepler --exact: unbound orbit refused", False)
    except RefError as e:
        check_true("kepler --exact: unbound orbit refused (%s)" % str(e)[:50], True)

    # --- point vortices ------------------------------------------------------------------------
    pv = get_system("point-vortices")
    x1, y1, x2, y2 = pv.q
    G1, G2, _ = pv.prm
    D2 = (x1 - x2)**2 + (y1 - y2)**2
    z1, z2 = x1 + sp.I * y1, x2 + sp.I * y2
    zd1 = sp.I * G2 * (z1 - z2) / (2 * sp.pi * D2)
    zd2 = -sp.I * G1 * (z1 - z2) / (2 * sp.pi * D2)
    check_true("point-vortices: sympy EL gives z1' = i G2 (z1-z2)/(2 pi D^2), "
               "z2' = -i G1 (z1-z2)/(2 pi D^2)",
               all(sp.simplify(a - b) == 0 for a, b in
                   zip(pv.f, [sp.re(zd1), sp.im(zd1), sp.re(zd2), sp.im(zd2)])))
    # the rigid rotation z_j(t) = c + (z_j(0) - c) E(t), E' = i w E, |E| = 1: E is a symbol, so
    # z1 - z2 = (z1(0) - z2(0)) E and |z1 - z2|^2 = D^2 |E|^2 = D^2
    a_, b_, c_, d_ = sp.symbols("a b c d", real=True)
    Es = sp.Symbol("E")
    Z10, Z20 = a_ + sp.I * b_, c_ + sp.I * d_
    D20 = (a_ - c_)**2 + (b_ - d_)**2
    w = (G1 + G2) / (2 * sp.pi * D20)
    cc = (G1 * Z10 + G2 * Z20) / (G1 + G2)
    Z1, Z2 = cc + (Z10 - cc) * Es, cc + (Z20 - cc) * Es
    r1 = (Z1 - cc) * sp.I * w - sp.I * G2 * (Z1 - Z2) / (2 * sp.pi * D20)
    r2 = (Z2 - cc) * sp.I * w + sp.I * G1 * (Z1 - Z2) / (2 * sp.pi * D20)
    check_true("point-vortices: the rigid rotation about c with w = (G1+G2)/(2 pi D^2) solves "
               "the derived equations", sp.simplify(r1) == 0 and sp.simplify(r2) == 0)
    vel = sp.I * G2 * (Z10 - Z20) / (2 * sp.pi * D20)
    check_true("point-vortices: G1 + G2 = 0: both translate with i G2 (z1-z2)/(2 pi D^2)",
               sp.simplify((-sp.I * G1 * (Z10 - Z20) / (2 * sp.pi * D20) - vel).subs(G1, -G2)) == 0)
    cases = [("defaults", []),
             ("G1=3,G2=-1.2 (opposite signs)",
              [("G1", [3.0]), ("G2", [-1.2]), ("H0", [0.1]), ("q0", [0.4, -0.3, -0.5, 0.6])]),
             ("G1=0.7,G2=2.5 (c != 0)",
              [("G1", [0.7]), ("G2", [2.5]), ("q0", [1.1, 0.9, 1.6, 0.2])]),
             ("G1=-2.5,G2=0.9 (clockwise)",
              [("G1", [-2.5]), ("G2", [0.9]), ("q0", [-0.3, 0.8, 0.5, 0.45])]),
             ("G1=1.3,G2=-1.3 (translation)",
              [("G1", [1.3]), ("G2", [-1.3]), ("q0", [0.2, 0.1, -0.4, 0.5])])]
    for label, sets in cases:
        vals = pv.resolve(sets)
        tk, _ = node_times(0.1, 10.0)
        num, idx = pv.table(vals, tk, RTOL_DEFAULT, ATOL_DEFAULT, True)
        ex, _ = pv.exact_table(vals, tk, True)
        for g in ("q", "p"):
            check("point-vortices %s: max |DOP853 - exact| %s, T = 10" % (label, g),
                  float(np.max(np.abs(num[:, idx[g]] - ex[:, idx[g]]))), 1e-12)
        scale = max(1.0, float(np.max(np.abs(num[:, 9:13]))))
        check("point-vortices %s: max drift of H, I, Px, Py along DOP853" % label,
              float(np.max(np.abs(num[:, 9:13] - num[0, 9:13]))) / scale, 1e-12)
    vals = pv.resolve([])
    ex, _ = pv.exact_table(vals, np.array([0.0, np.pi**2 / 3]), True)
    check("point-vortices defaults: w = 3/pi, half a turn at t = pi^2/3: q = -q0",
          float(np.max(np.abs(ex[1, 1:5] + np.array(vals["q0"])))), 1e-15)

    # --- turntable -----------------------------------------------------------------------------
    tt = get_system("turntable")
    S = tt.syms
    w1_, w2_, w3_ = S["w"]
    r_, a_, b_, c_, Om_ = S["r"], S["a"], S["b"], S["c"], S["Om"]
    N1 = r_**2 * (b_ - c_) * w2_ * w3_  # ((I_w w) x w)_1
    N2 = r_**2 * (c_ - a_) * w1_ * w3_  # ((I_w w) x w)_2
    I1, I2 = r_**2 * a_, r_**2 * b_
    notes_lam = [((r_ / I2) * N2 - Om_ * S["vy"]) / (1 + r_**2 / I2),
                 (Om_ * S["vx"] - (r_ / I1) * N1) / (1 + r_**2 / I1)]
    check_true("turntable: sympy lambda (d/dt phi = 0) = the notes' index-1 formula (any a, b, c)",
               all(sp.simplify(u - v) == 0 for u, v in zip(tt.lam_paper, notes_lam)))
    kap = Om_ * a_ / (1 + a_)
    check_true("turntable: a = b = c gives lambda = kappa (-v_y, v_x), kappa = Omega a/(1+a)",
               sp.simplify(tt.lam_paper[0].subs({b_: a_, c_: a_}) + kap * S["vy"]) == 0
               and sp.simplify(tt.lam_paper[1].subs({b_: a_, c_: a_}) - kap * S["vx"]) == 0)
    vals = tt.resolve([])
    num, idx = tt.table(vals, np.array([0.0]), RTOL_DEFAULT, ATOL_DEFAULT, False)
    check("turntable: lambda(0) = (8/35, -1/35) at the defaults (paper sign: -)",
          float(np.max(np.abs(num[0, idx["lambda"]] - [8 / 35, -1 / 35]))), 1e-16)
    # held-out: other r, a = b = c, Omega < 0, a rotated R0 (cay of (0.3, -0.5, 0.2)), other
    # (x, y), eta0 on the constraint (v from w)
    Wh = hat([0.3, -0.5, 0.2])
    Rh = np.eye(3) + 4 / (4 + 0.38) * (Wh + Wh @ Wh / 2)
    rr, aa, OO, xx, yy, ww = 0.7, 0.3, -1.3, -0.4, 0.9, [0.6, -0.35, 1.1]
    held = [("r", [rr]), ("abc", [aa] * 3), ("Omega", [OO]), ("R0", list(Rh.ravel())),
            ("xy0", [xx, yy]), ("eta0", ww + [rr * ww[1] - OO * yy, OO * xx - rr * ww[0]])]
    for label, sets in (("defaults", []), ("r=0.7,a=0.3,Omega=-1.3,R0 rotated", held)):
        vals = tt.resolve(sets)
        tk, _ = node_times(0.1, 10.0)
        num, idx = tt.table(vals, tk, RTOL_DEFAULT, ATOL_DEFAULT, True)
        XY, V, W, LAM = tt.closed_form(vals, tk)
        pv = tt.pvals(vals)
        Id = pv[0]**2 * np.array(pv[1:4])
        e = max(float(np.max(np.abs(num[:, 10:12] - XY))), float(np.max(np.abs(num[:, 15:17] - V))),
                float(np.max(np.abs(num[:, 12:15] / Id - W))),
                float(np.max(np.abs(num[:, idx["lambda"]] + LAM))))
        check("turntable %s: max |DOP853 - closed form| of x, y, v, w, lambda, T = 10" % label,
              e, 1e-12)
        # R against an independent integration of the linear Rdot = R hat(w(t)), w(t) closed form
        r0, a0, _, _, O0 = pv
        R0, (x0, y0), w0, (vx0, vy0) = tt.initial(vals)
        k0 = O0 * a0 / (1 + a0)

        def wt(t):
            ck, sk = np.cos(k0 * t), np.sin(k0 * t)
            x = x0 + (vx0 * sk + vy0 * (ck - 1)) / k0
            y = y0 + (vx0 * (1 - ck) + vy0 * sk) / k0
            return np.array([(r0 * w0[0] + O0 * (x - x0) / (1 + a0)) / r0,
                             (r0 * w0[1] + O0 * (y - y0) / (1 + a0)) / r0, w0[2]])
        RR = integrate(lambda t, y: (y.reshape(3, 3) @ hat(wt(t))).ravel(), R0.ravel(), tk,
                       RTOL_DEFAULT, ATOL_DEFAULT)
        check("turntable %s: max |R - R(Rdot = R hat w(t), closed-form w)|" % label,
              float(np.max(np.abs(num[:, 1:10] - RR))), 1e-12)
        check("turntable %s: max |Phi| along the reference" % label,
              float(np.max(np.abs(num[:, idx["residual"]]))), 1e-13)
        check("turntable %s: max distance of R from SO(3) along the reference" % label,
              float(np.max(num[:, -1])), 1e-12)
        inv = num[:, -5:-1]
        check("turntable %s: drift of omega_zeta, C1, C2, E_mov (notes' formulas)" % label,
              float(np.max(np.abs(inv - inv[0]))) / max(1.0, float(np.max(np.abs(inv)))), 2e-13)
        E = num[:, -6]
        check_true("turntable %s: the kinetic energy is not conserved (affine constraint; "
                   "drift %.2g)" % (label, np.ptp(E)), np.ptp(E) > 1e-2)
    vals = tt.resolve([("abc", [0.3, 0.5, 0.8]), ("eta0", [0.2, 0.3, 0.5, 0.3, 0.8])])
    num, idx = tt.table(vals, node_times(0.1, 2.0)[0], RTOL_DEFAULT, ATOL_DEFAULT, True)
    inv = num[:, -5:-1]
    check_true("turntable a != b != c: the paper's integrals are not conserved (drift %.2g)"
               % np.max(np.abs(inv - inv[0])), np.max(np.abs(inv - inv[0])) > 1e-3)
    check("turntable a != b != c: max |Phi| along the reference, T = 2",
          float(np.max(np.abs(num[:, idx["residual"]]))), 1e-13)
    for label, sets in (("inconsistent eta0", [("eta0", [0.2, 0.1, 0.5, 0.1, 0.9])]),
                        ("R0 not a rotation", [("R0", [1, 0, 0, 0, 1, 1e-6, 0, 0, 1])]),
                        ("R0 a reflection", [("R0", [1, 0, 0, 0, 1, 0, 0, 0, -1])])):
        try:
            tt.resolve(sets)
            check_true("turntable: %s refused" % label, False)
        except RefError as e:
            check_true("turntable: %s refused (%s)" % (label, str(e)[:50]), True)

    # --- knife-edge-incline ------------------------------------------------------------------
    ke = get_system("knife-edge-incline")
    xs_, ys_, zs_, phs_ = ke.q
    vxs, vys, vzs, vphs = ke.v
    ms, Js, gs_, als = ke.prm
    us = vxs * sp.cos(phs_) * sp.cos(als) + vys * sp.sin(phs_) + vzs * sp.cos(phs_) * sp.sin(als)
    check_true("knife-edge: sympy lambda = -m g cos(alpha) (force across the plane)",
               sp.simplify(ke.lam[0] + ms * gs_ * sp.cos(als)) == 0)
    check_true("knife-edge: sympy mu = m (g sin(alpha) sin(phi) - u phidot), u = e . v",
               sp.simplify(ke.lam[1] - ms * (gs_ * sp.sin(als) * sp.sin(phs_) - us * vphs)) == 0)
    check_true("knife-edge: phi'' = 0 (no constraint force turns the blade)", ke.qdd[3] == 0)

    def ke_data(a, s0, r0, p0, u0, w):
        return ([s0 * np.cos(a), r0, s0 * np.sin(a), p0],
                [u0 * np.cos(p0) * np.cos(a), u0 * np.sin(p0), u0 * np.cos(p0) * np.sin(a), w])
    q_a, v_a = ke_data(-0.45, -0.3, 0.8, 2.2, -0.9, -1.3)
    q_b, v_b = ke_data(0.6, 0.1, 0.0, -0.7, 0.4, 0.0)
    q_c, v_c = ke_data(1.1, 2.0, -1.0, 0.3, 0.2, 1e-3)
    for label, sets in (("defaults", []),
                        ("m=2.1,J=0.7,g=3.5,alpha=-0.45,omega=-1.3",
                         [("m", [2.1]), ("J", [0.7]), ("gravity", [3.5]), ("alpha", [-0.45]),
                          ("q0", q_a), ("v0", v_a)]),
                        ("alpha=0.6, omega = 0 (straight)", [("alpha", [0.6]), ("q0", q_b),
                                                              ("v0", v_b)]),
                        ("alpha=1.1, omega = 1e-3 (the 1/w forms at 40 digits)",
                         [("alpha", [1.1]), ("q0", q_c), ("v0", v_c)])):
        vals = ke.resolve(sets)
        tk, _ = node_times(0.1, 10.0)
        num, idx = ke.table(vals, tk, RTOL_DEFAULT, ATOL_DEFAULT, True)
        ex, _ = ke.exact_table(vals, tk, True)
        scale = max(1.0, float(np.max(np.abs(ex[:, 1:11]))))
        check("knife-edge %s: max |DOP853 - closed form| of q, p, lambda, mu, T = 10 (rel.)"
              % label, float(np.max(np.abs(num[:, 1:11] - ex[:, 1:11]))) / scale, 1e-12)
        check("knife-edge %s: max |g(q)|, |G v|, |A v| along DOP853" % label,
              max(float(np.max(np.abs(ke._g(*num[:, 1:5].T, vals["alpha"][0])))),
                  float(np.max(np.abs(num[:, 11:13])))), 1e-11)
        check("knife-edge %s: drift of E and p_phi along DOP853 (rel.)" % label,
              float(np.max(np.abs(num[:, 13:15] - num[0, 13:15]))) / scale, 1e-12)
    for label, sets in (("q0 off the plane", [("q0", [0.5, 0, 0.3, 0])]),
                        ("v0 across the blade", [("v0", [0, 1, 0, 0])])):
        try:
            ke.resolve(sets)
            check_true("knife-edge: %s refused" % label, False)
        except RefError as e:
            check_true("knife-edge: %s refused (%s)" % (label, str(e)[:50]), True)

    # --- pendulum-3d (betsch-ggl sec. 6.1) ----------------------------------------------------
    pd = get_system("pendulum-3d")
    vals = pd.resolve([])
    num, idx = pd.table(vals, node_times(0.1, 2.0)[0], RTOL_DEFAULT, ATOL_DEFAULT, True)
    # the notes' values (sec. 2.1): E0 = 0.5, J3 = 1, lambda(0) = 1 (centripetal m|v|^2/l, no
    # gravity across the rod at q0 = e1)
    check("pendulum-3d: |E0 - 0.5|, |J3 - 1|, |lambda(0) - 1| (notes sec. 2.1)",
          max(abs(num[0, -2] - 0.5), abs(num[0, -1] - 1), abs(num[0, idx["lambda"][0]] - 1)), 1e-15)
    check("pendulum-3d: drift of E and J3 along DOP853, T = 2",
          float(np.max(np.abs(num[:, -2:] - num[0, -2:]))), 5e-12)
    check("pendulum-3d: max |g|, |G v| along DOP853, T = 2",
          float(np.max(np.abs(num[:, idx["residual"]]))), 1e-12)
    # lambda of the index-1 form by hand, l = 1 (G = q^T, |q| = 1, q.v = 0): q.qdd = -|v|^2, so
    # q.(m qdd) = -m|v|^2 = -m gravity z - lambda, lambda = m (|v|^2 - gravity z)
    lam0 = pd.accel(np.array([0.6, 0.0, -0.8]), np.array([0.0, 1.3, 0.0]), [1.7, 1.0, 9.81])[1][0]
    check("pendulum-3d: lambda at q = (0.6, 0, -0.8), v = 1.3 e2 against m(|v|^2 - g z)",
          abs(lam0 - 1.7 * (1.3**2 + 9.81 * 0.8)), 1e-12)

    # --- gyro-top (betsch-ggl sec. 6.2) -------------------------------------------------------
    gt = get_system("gyro-top")
    vals = gt.resolve([])
    m0, I0 = 0.225 * np.pi, 0.3 * 0.225 * np.pi * 0.05**2
    check("gyro-top: omega_s by (112) with the authors' m, I is 135.6 (notes sec. 2.2)",
          abs(gt.omega_s(m0, I0, I0, 0.075, 9.81, np.pi / 3, 10.0) - 135.6), 1e-11)
    # Euler tensor (101): for any rotation R and omega, sum E_i |omega x d_i|^2 = omega.I omega
    # with I = R diag(I1, I2, I3) R^T (the rigid body's kinetic energy).
    rng = np.random.default_rng(7)
    A = rng.standard_normal((3, 3))
    Rq, _ = np.linalg.qr(A)
    om = rng.standard_normal(3)
    Iv = np.array([1.3, 0.8, 1.6])
    Ev = [float(e.subs(dict(zip(gt.prm[1:4], Iv)))) for e in gt.Esym]
    lhs = sum(Ev[i] * np.dot(np.cross(om, Rq[:, i]), np.cross(om, Rq[:, i])) for i in range(3))
    check("gyro-top: sum E_i |omega x d_i|^2 = omega . R diag(I) R^T omega (Euler tensor (101))",
          abs(lhs - om @ Rq @ np.diag(Iv) @ Rq.T @ om), 1e-13)
    num, idx = gt.table(vals, node_times(0.02, 0.2)[0], RTOL_DEFAULT, ATOL_DEFAULT, True)
    q0, p0 = num[0, idx["q"]], num[0, idx["p"]]
    J0 = sum(np.cross(q0[3 * b:3 * b + 3], p0[3 * b:3 * b + 3]) for b in range(4))
    note = {"E0": (num[0, -2], 5.66905519), "V0": (m0 * 9.81 * q0[2], 0.26003551),
            "J0_1": (J0[0], 0.0), "J0_2": (J0[1], -0.04503947), "J0_3": (J0[2], 0.07106577)}
    for k, (a, b) in note.items():
        check("gyro-top: %s against the notes' %.8f (sec. 2.2, 8 decimals)" % (k, b), abs(a - b),
              6e-9)
    lam_note = [5.25992, 5.24004, 0.05805, 0, 0, -0.63404, 0, -0.34434, -0.52007]
    check("gyro-top: lambda(0) against the notes' (sec. 2.2, 5 decimals; same sign convention)",
          float(np.max(np.abs(num[0, idx["lambda"]] - lam_note))), 6e-6)
    # steady precession: phi3 = l cos(alpha0) = 0.0375 and |p_phi| = m l omega_p sin(alpha0)
    check("gyro-top: steady precession, max |phi3 - 0.0375| along DOP853, T = 0.2",
          float(np.max(np.abs(num[:, 3] - 0.0375))), 1e-13)
    P = num[:, idx["p"][:3]]
    check("gyro-top: |p_phi| = m l omega_p sin(alpha0) along DOP853 (rel.)",
          float(np.max(np.abs(np.linalg.norm(P, axis=1) / (m0 * 0.075 * 10 * np.sin(np.pi / 3)) - 1))),
          1e-12)
    check("gyro-top: notes' p_phi(0.001) = (0.45909501, 0.00459110, 0)",
          float(np.max(np.abs(gt.table(vals, node_times(0.001, 0.001)[0], RTOL_DEFAULT,
                                       ATOL_DEFAULT, False)[0][1, 13:16]
                              - [0.45909501, 0.00459110, 0]))), 6e-9)
    check("gyro-top: drift of E and J3 along DOP853, T = 0.2 (rel.)",
          float(np.max(np.abs(num[:, -2:] - num[0, -2:]))) / 5.67, 1e-12)
    check("gyro-top: max |g|, |G v| along DOP853, T = 0.2",
          float(np.max(np.abs(num[:, idx["residual"]]))), 1e-12)
    for label, sets in (("I3 >= I1 + I2", [("I3", [2e-3]), ("I1", [0.5e-3]), ("I2", [1e-3])]),
                        ("omega_p = 0", [("omega_p", [0.0])])):
        try:
            gt.resolve(sets)
            check_true("gyro-top: %s refused" % label, False)
        except RefError as e:
            check_true("gyro-top: %s refused (%s)" % (label, str(e)[:50]), True)

    # --- CVT (demartin2018 sec. 7.2) ---------------------------------------------------------
    cv = get_system("cvt")
    x, y, z = cv.q
    vx, vy, vz = cv.v
    m, Jd, eps = cv.prm
    # notes sec. 2.2, paper sign (+A^T lambda), M = I; with the masses m (x, z) and J (y)
    note_lam = (x * sp.sin(y) + z - m * sp.cos(y) * vx * vy) / (1 + sp.sin(y)**2)
    check_true("cvt: sympy lambda = -(x sin y + z - m cos y v_x v_y)/(1 + sin^2 y) "
               "(notes sec. 2.2 at m = J = 1, paper sign +)",
               sp.simplify(cv.lam[0] + note_lam) == 0)
    check_true("cvt: J y'' = -sin y - eps cos 2y (the driver is decoupled)",
               sp.simplify(Jd * cv.qdd[1] + sp.sin(y) + eps * sp.cos(2 * y)) == 0)
    check_true("cvt: E = E_d + E_p", sp.simplify(cv.E - cv.Ed - cv.Ep) == 0)
    for label, v0y, Ed0, Ep0 in (("low", "3*sqrt(10)/5", 0.8, 1.0), ("high", "sqrt(8)", 3.0, 1.0)):
        vals = cv.resolve(parse_sets(["v0=0,%s,0" % v0y]))
        tk, _ = node_times(0.5, 100.0)
        num, idx = cv.table(vals, tk, 1e-14, 1e-16, True)
        check("cvt %s: lambda(0) = -1 (paper: lambda_0 = 1)" % label,
              abs(num[0, idx["lambda"][0]] + 1), 1e-15)
        check("cvt %s: E_d(0) = %g, E_p(0) = %g (paper)" % (label, Ed0, Ep0),
              max(abs(num[0, -2] - Ed0), abs(num[0, -1] - Ep0)), 1e-15)
        for k, nm in ((-3, "E"), (-2, "E_d"), (-1, "E_p")):
            check("cvt %s: drift of %s along DOP853 (rtol 1e-14), T = 100" % (label, nm),
                  float(np.max(np.abs(num[:, k] - num[0, k]))), 2e-11)
        check("cvt %s: max |Phi| along DOP853, T = 100" % label,
              float(np.max(np.abs(num[:, idx["residual"]]))), 1e-11)
        ys = num[:, idx["q"][1]]
        check_true("cvt %s: the driver %s (y in [%.2f, %.2f])"
                   % (label, "oscillates" if label == "low" else "rotates", ys.min(), ys.max()),
                   (ys.max() < np.pi) if label == "low" else (ys.max() > 4 * np.pi))
    # closed-form lambda at held-out data (m, J, eps != the paper's) against the sympy solve
    vals = cv.resolve(parse_sets(["m=1.6,J=0.7,eps=-0.3,q0=0.4,1.1,-0.8",
                                  "v0=0.9,-1.3,%r" % (-0.9 * np.sin(1.1))]))
    num, idx = cv.table(vals, np.array([0.0]), RTOL_DEFAULT, ATOL_DEFAULT, False)
    lam_cf = -(0.4 * np.sin(1.1) - 0.8 - 1.6 * np.cos(1.1) * 0.9 * -1.3) / (1 + np.sin(1.1)**2)
    check("cvt: lambda(0) at held-out data against the closed form",
          abs(num[0, idx["lambda"][0]] - lam_cf), 1e-15)

    # --- chaotic nonholonomic system (demartin2018 sec. 7.3) -----------------------------------
    ch = get_system("chaotic-nh")
    for mc in (2, 3, 4):
        ch.resolve([("m_c", [float(mc)])])
        n = 2 * mc + 1
        q, v, (mm,) = ch.q, ch.v, ch.prm
        Av = [1] + [0] * mc + q[mc + 1:]
        gU = [sp.diff(ch.U, qi) for qi in q]
        cf = -(sum(a * g for a, g in zip(Av, gU)) - mm * sum(vi**2 for vi in v[mc + 1:])) \
            / (1 + sum(qi**2 for qi in q[mc + 1:]))
        check_true("chaotic-nh m_c = %d (n = %d): sympy lambda = -(A.grad U - m sum v_i^2)/|A|^2 "
                   "(notes sec. 2.3, paper sign +)" % (mc, n), sp.simplify(ch.lam[0] - cf) == 0)
    J = 9
    for j in (0, 2, 9):
        vals = ch.resolve([("j", [float(j)])])
        tk, _ = node_times(0.5, 20.0)
        num, idx = ch.table(vals, tk, 1e-14, 1e-16, True)
        al = np.cos(j * np.pi / (2 * J))
        check("chaotic-nh j = %d: E_0 = 3.06 (paper)" % j, abs(num[0, -1] - 3.06), 1e-15)
        check("chaotic-nh j = %d: lambda_0 = -(alpha + 5.56)/4 (notes, paper sign +)" % j,
              abs(num[0, idx["lambda"][0]] + (al + 5.56) / 4), 1e-15)
        check("chaotic-nh j = %d: energy drift along DOP853 (rtol 1e-14), T = 20" % j,
              float(np.max(np.abs(num[:, -1] - num[0, -1]))), 1e-11)
    ch.resolve([])

    # --- command-line parsing -----------------------------------------------------------------
    check_true("--set parsing: 'a1=2,q0=1.5,0.7' + 'b2=-3'",
               parse_sets(["a1=2,q0=1.5,0.7", "b2=-3"]) == [("a1", [2.0]), ("q0", [1.5, 0.7]),
                                                             ("b2", [-3.0])])
    check_true("--set parsing: expression 3*sqrt(10)/5",
               parse_sets(["v0=0,3*sqrt(10)/5,0"])[0][1][1] == 3 * np.sqrt(10) / 5)
    print("selftest: %s" % ("PASS" if not fails else "FAIL (%d): %s" % (len(fails), fails)))
    return 0 if not fails else 1


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    try:
        if argv[0] == "list":
            cmd_list()
            return 0
        if argv[0] == "equations":
            for name in (argv[1:] or ALL):
                print("== %s" % name)
                cmd_equations(name)
            return 0
        if argv[0] == "selftest":
            return selftest()
        run(argv)
        return 0
    except RefError as e:
        sys.stderr.write("ref_systems: error: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
